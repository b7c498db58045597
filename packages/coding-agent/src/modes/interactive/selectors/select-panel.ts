// A titled list that takes the editor's place: type to filter, arrows to move, Enter to choose, Esc to
// cancel. Model selector, fork selector, extension dialogs and the branch-summary question are built on it.
import { CachedComponent, matchesKey, type SelectItem, SelectList, truncateToWidth } from "@agent/tui";
import type { DisplayState } from "../display-state.js";
import { dropLastCharacter, typedText } from "./input-keys.js";

export interface SelectPanelOptions {
	title: string;
	/** A muted line under the title (what the list holds). */
	subtitle?: string;
	items: SelectItem[];
	/** Shown below the list. */
	hint?: string;
	/** Typing filters the list (default true). */
	filterable?: boolean;
	initialFilter?: string;
	maxVisible?: number;
	/** The item selected at first. */
	selectedValue?: string;
	noMatchText?: string;
	onSelect(item: SelectItem): void;
	onCancel(): void;
	onSelectionChange?(item: SelectItem): void;
}

export class SelectPanel extends CachedComponent {
	private readonly list: SelectList;
	private filter: string;
	private titleSuffix = "";
	private unsubscribe: (() => void) | undefined;

	constructor(
		private readonly state: DisplayState,
		private readonly options: SelectPanelOptions,
	) {
		super();
		this.filter = options.initialFilter ?? "";
		this.list = new SelectList(
			options.items,
			options.maxVisible ?? 10,
			state.theme.getSelectListTheme(),
			options.noMatchText,
		);
		this.list.onSelect = (item) => options.onSelect(item);
		this.list.onCancel = () => options.onCancel();
		this.list.onSelectionChange = (item) => options.onSelectionChange?.(item);
		if (this.filter) this.list.setFilter(this.filter);
		if (options.selectedValue !== undefined) {
			const index = this.list.getFilteredItems().findIndex((item) => item.value === options.selectedValue);
			if (index >= 0) this.list.setSelectedIndex(index);
		}
		this.unsubscribe = this.list.addChangeListener(() => this.markChanged());
	}

	/** The list inside (the reference's `getSelectList()`). */
	getSelectList(): SelectList {
		return this.list;
	}

	getSelectedItem(): SelectItem | undefined {
		return this.list.getSelectedItem();
	}

	getFilter(): string {
		return this.filter;
	}

	/** Replaces the search text and filters the list by it. */
	setFilter(filter: string): void {
		this.filter = filter;
		this.list.setFilter(filter);
		this.markChanged();
	}

	/** Text after the title, e.g. a countdown "(closes in 5s)". */
	setTitleSuffix(suffix: string): void {
		if (suffix === this.titleSuffix) return;
		this.titleSuffix = suffix;
		this.markChanged();
	}

	dispose(): void {
		this.unsubscribe?.();
		this.unsubscribe = undefined;
	}

	handleInput(data: string): void {
		if (this.options.filterable !== false) {
			if (matchesKey(data, "backspace")) {
				if (this.filter.length > 0) this.setFilter(dropLastCharacter(this.filter));
				return;
			}
			const text = typedText(data);
			if (text !== undefined) {
				this.setFilter(this.filter + text);
				return;
			}
		}
		this.list.handleInput(data);
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const rule = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		const lines = [
			rule,
			truncateToWidth(` ${theme.bold(this.options.title)}${theme.fg("muted", this.titleSuffix)}`, width),
		];
		if (this.options.subtitle) lines.push(truncateToWidth(theme.fg("muted", ` ${this.options.subtitle}`), width));
		if (this.options.filterable !== false) {
			lines.push(truncateToWidth(` ${theme.fg("dim", ">")} ${this.filter}${theme.inverse(" ")}`, width));
		}
		lines.push(...this.list.render(width));
		if (this.options.hint) lines.push(truncateToWidth(theme.fg("dim", ` ${this.options.hint}`), width));
		lines.push(rule);
		return lines;
	}
}
