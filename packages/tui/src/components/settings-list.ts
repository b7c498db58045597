import { fuzzyFilter } from "../autocomplete/fuzzy.js";
import type { Component } from "../component.js";
import { matchesKey } from "../keys/key-matching.js";
import { getEditorKeybindings } from "../keys/keybindings.js";
import { truncateToWidth } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import { wrapTextWithAnsi } from "../text/wrap.js";
import type { SettingsListTheme } from "../theme/themes.js";
import { printableText } from "./input.js";

export interface SettingItem {
	id: string;
	label: string;
	description?: string;
	currentValue: string;
	/** Values Enter/Space cycles through. */
	values?: string[];
	/** Opens a component to choose the value; it calls `done(value)` (undefined = cancelled). */
	submenu?: (currentValue: string, done: (selectedValue?: string) => void) => Component;
}

const HINT = "Enter/Space to change · Esc to close";
const SEARCH_HINT = "Type to search · Enter/Space to change · Esc to close";

export interface SettingsListOptions {
	/** Typing filters the settings by label (fuzzy); Esc clears the search before it closes the list. */
	enableSearch?: boolean;
}

/**
 * A list of settings with their current values. Enter or Space cycles through an item's values or
 * opens its submenu; Escape calls `onCancel`. It does not report changes, so a container re-renders
 * it on every frame (it is small and short-lived).
 */
export class SettingsList implements Component {
	private selectedIndex = 0;
	private submenu: Component | undefined;
	private query = "";
	private shownItems: SettingItem[];

	constructor(
		private readonly items: SettingItem[],
		private readonly maxVisible: number,
		private readonly theme: SettingsListTheme,
		private readonly onChange: (id: string, newValue: string) => void,
		private readonly onCancel: () => void,
		private readonly options: SettingsListOptions = {},
	) {
		this.shownItems = items;
	}

	updateValue(id: string, value: string): void {
		const item = this.items.find((candidate) => candidate.id === id);
		if (item) item.currentValue = value;
	}

	invalidate(): void {
		this.submenu?.invalidate();
	}

	render(width: number): string[] {
		return this.submenu ? this.submenu.render(width) : this.renderList(width);
	}

	handleInput(data: string): void {
		if (this.submenu) {
			this.submenu.handleInput?.(data);
			return;
		}
		const keys = getEditorKeybindings();
		if (this.options.enableSearch && this.handleSearchKey(data)) return;
		const count = this.shownItems.length;
		if (count === 0) {
			if (keys.matches(data, "selectCancel")) this.onCancel();
			return;
		}
		if (keys.matches(data, "selectUp")) this.selectedIndex = (this.selectedIndex - 1 + count) % count;
		else if (keys.matches(data, "selectDown")) this.selectedIndex = (this.selectedIndex + 1) % count;
		else if (keys.matches(data, "selectPageUp"))
			this.selectedIndex = Math.max(0, this.selectedIndex - this.maxVisible);
		else if (keys.matches(data, "selectPageDown"))
			this.selectedIndex = Math.min(count - 1, this.selectedIndex + this.maxVisible);
		else if (keys.matches(data, "selectConfirm") || matchesKey(data, "space"))
			this.activate(this.shownItems[this.selectedIndex] as SettingItem);
		else if (keys.matches(data, "selectCancel")) this.onCancel();
	}

	/** Typing, Backspace, and Esc while a search is typed; true when the key was the search's. */
	private handleSearchKey(data: string): boolean {
		const keys = getEditorKeybindings();
		if (this.query !== "" && (keys.matches(data, "selectCancel") || keys.matches(data, "deleteToLineStart"))) {
			this.setQuery("");
			return true;
		}
		if (keys.matches(data, "deleteCharBackward")) {
			this.setQuery([...this.query].slice(0, -1).join(""));
			return true;
		}
		// Space changes the selected value, as without search.
		const text = data === " " ? undefined : printableText(data);
		if (text === undefined || text.trim() === "") return false;
		this.setQuery(this.query + text.replace(/\s+/g, ""));
		return true;
	}

	private setQuery(query: string): void {
		this.query = query;
		this.shownItems = query === "" ? this.items : fuzzyFilter(this.items, query, (item) => item.label);
		this.selectedIndex = 0;
	}

	private activate(item: SettingItem): void {
		if (item.submenu) {
			this.submenu = item.submenu(item.currentValue, (selected) => {
				this.submenu = undefined;
				if (selected !== undefined && selected !== item.currentValue) {
					item.currentValue = selected;
					this.onChange(item.id, selected);
				}
			});
			return;
		}
		if (!item.values || item.values.length === 0) return;
		const next = item.values[(item.values.indexOf(item.currentValue) + 1) % item.values.length];
		item.currentValue = next;
		this.onChange(item.id, next);
	}

	private renderList(width: number): string[] {
		const items = this.shownItems;
		const lines: string[] = [];
		if (this.options.enableSearch) {
			lines.push(truncateToWidth(`${this.theme.hint("  >")} ${this.query}\x1b[7m \x1b[27m`, width));
		}
		if (items.length === 0) {
			lines.push(truncateToWidth(this.theme.hint("  No matching settings"), width));
			lines.push("");
			lines.push(truncateToWidth(this.theme.hint(`  ${SEARCH_HINT}`), width));
			return lines;
		}
		const visibleCount = Math.max(1, Math.min(this.maxVisible, items.length));
		const first = Math.max(
			0,
			Math.min(this.selectedIndex - Math.floor(visibleCount / 2), items.length - visibleCount),
		);
		const shown = items.slice(first, first + visibleCount);
		const labelWidth = Math.min(32, Math.max(0, ...shown.map((item) => visibleWidth(item.label))));
		const blankCursor = " ".repeat(visibleWidth(this.theme.cursor));
		for (const [offset, item] of shown.entries()) {
			const isSelected = first + offset === this.selectedIndex;
			const label = this.theme.label(truncateToWidth(item.label, labelWidth, "…", true), isSelected);
			const value = this.theme.value(item.currentValue, isSelected);
			lines.push(truncateToWidth(`${isSelected ? this.theme.cursor : blankCursor}${label}  ${value}`, width));
		}
		if (items.length > visibleCount) {
			lines.push(truncateToWidth(this.theme.hint(`  (${this.selectedIndex + 1}/${items.length})`), width));
		}
		const selected = items[this.selectedIndex];
		if (selected?.description) {
			lines.push("");
			for (const line of wrapTextWithAnsi(selected.description, Math.max(1, width - 2))) {
				lines.push(`  ${this.theme.description(line)}`);
			}
		}
		lines.push("");
		lines.push(truncateToWidth(this.theme.hint(`  ${this.options.enableSearch ? SEARCH_HINT : HINT}`), width));
		return lines;
	}
}
