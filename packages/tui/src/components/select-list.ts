import { fuzzyMatch } from "../autocomplete/fuzzy.js";
import { CachedComponent } from "../component.js";
import { getEditorKeybindings } from "../keys/keybindings.js";
import { truncateToWidth } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import type { SelectListTheme } from "../theme/themes.js";

export interface SelectItem {
	value: string;
	label: string;
	description?: string;
}

/** What a custom `truncatePrimary` is given for one item's label. */
export interface SelectListTruncatePrimaryContext {
	/** The label to fit. */
	text: string;
	/** The most columns the label may take. */
	maxWidth: number;
	/** The width of the label column (the label and the gap before the description). */
	columnWidth: number;
	item: SelectItem;
	isSelected: boolean;
}

/** How a SelectList lays out labels and descriptions. */
export interface SelectListLayoutOptions {
	/** Narrowest the label column may be when items have descriptions (default 0: as wide as the labels). */
	minPrimaryColumnWidth?: number;
	/** Widest the label column may be when items have descriptions (default 40). */
	maxPrimaryColumnWidth?: number;
	/** Fits a label into `maxWidth` columns; the default cuts it with "…". */
	truncatePrimary?: (context: SelectListTruncatePrimaryContext) => string;
	/** Ours: the text shown when no item matches the filter (default "No matches"). */
	noMatchText?: string;
}

const SELECTED_PREFIX = "→ ";
const UNSELECTED_PREFIX = "  ";
const MAX_LABEL_COLUMN = 40;
const LABEL_GAP = 2;

/**
 * A vertical list with a selection. Arrow keys move (wrapping around), page keys jump, Enter selects,
 * Escape cancels. `setFilter` narrows the items by fuzzy match on their label and value.
 */
export class SelectList extends CachedComponent {
	private items: SelectItem[];
	private filtered: SelectItem[];
	private filter = "";
	private selectedIndex = 0;
	onSelect?: (item: SelectItem) => void;
	onCancel?: () => void;
	onSelectionChange?: (item: SelectItem) => void;

	private readonly layout: SelectListLayoutOptions;

	/** `layout` may also be given as just the no-match text (our earlier fourth parameter). */
	constructor(
		items: SelectItem[],
		private maxVisible: number,
		private readonly theme: SelectListTheme,
		layout: SelectListLayoutOptions | string = {},
	) {
		super();
		this.items = items;
		this.filtered = items;
		this.layout = typeof layout === "string" ? { noMatchText: layout } : layout;
	}

	setItems(items: SelectItem[]): void {
		this.items = items;
		this.applyFilter();
	}

	setFilter(filter: string): void {
		if (filter === this.filter) return;
		this.filter = filter;
		this.applyFilter();
	}

	getFilter(): string {
		return this.filter;
	}

	setMaxVisible(maxVisible: number): void {
		this.maxVisible = maxVisible;
		this.markChanged();
	}

	getSelectedItem(): SelectItem | undefined {
		return this.filtered[this.selectedIndex];
	}

	getFilteredItems(): readonly SelectItem[] {
		return this.filtered;
	}

	setSelectedIndex(index: number): void {
		const clamped = Math.max(0, Math.min(index, this.filtered.length - 1));
		if (clamped === this.selectedIndex) return;
		this.selectedIndex = clamped;
		this.markChanged();
		const item = this.getSelectedItem();
		if (item) this.onSelectionChange?.(item);
	}

	handleInput(data: string): void {
		const keys = getEditorKeybindings();
		const count = this.filtered.length;
		if (keys.matches(data, "selectUp")) {
			if (count > 0) this.setSelectedIndex(this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1);
		} else if (keys.matches(data, "selectDown")) {
			if (count > 0) this.setSelectedIndex(this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1);
		} else if (keys.matches(data, "selectPageUp")) {
			this.setSelectedIndex(this.selectedIndex - this.maxVisible);
		} else if (keys.matches(data, "selectPageDown")) {
			this.setSelectedIndex(this.selectedIndex + this.maxVisible);
		} else if (keys.matches(data, "selectConfirm")) {
			const item = this.getSelectedItem();
			if (item) this.onSelect?.(item);
		} else if (keys.matches(data, "selectCancel")) {
			this.onCancel?.();
		}
	}

	protected renderLines(width: number): string[] {
		if (this.filtered.length === 0) {
			const text = this.layout.noMatchText ?? "No matches";
			return [truncateToWidth(this.theme.noMatch(`  ${text}`), width)];
		}
		const visibleCount = Math.max(1, Math.min(this.maxVisible, this.filtered.length));
		const first = Math.max(
			0,
			Math.min(this.selectedIndex - Math.floor(visibleCount / 2), this.filtered.length - visibleCount),
		);
		const shown = this.filtered.slice(first, first + visibleCount);
		const hasDescriptions = shown.some((item) => item.description);
		const labelColumn = hasDescriptions ? this.labelColumnWidth(shown) : 0;
		const lines = shown.map((item, offset) =>
			this.renderItem(item, first + offset === this.selectedIndex, width, labelColumn),
		);
		if (this.filtered.length > visibleCount) {
			const info = `  (${this.selectedIndex + 1}/${this.filtered.length})`;
			lines.push(truncateToWidth(this.theme.scrollInfo(info), width));
		}
		return lines;
	}

	private renderItem(item: SelectItem, isSelected: boolean, width: number, labelColumn: number): string {
		const prefix = isSelected ? this.theme.selectedPrefix(SELECTED_PREFIX) : UNSELECTED_PREFIX;
		const available = Math.max(1, width - visibleWidth(SELECTED_PREFIX));
		const styleLabel = (text: string) => (isSelected ? this.theme.selectedText(text) : text);
		if (!item.description || labelColumn === 0 || available < labelColumn + 8) {
			return prefix + styleLabel(this.fitLabel(item, isSelected, available, available, false));
		}
		const label = this.fitLabel(item, isSelected, labelColumn - LABEL_GAP, labelColumn, true);
		const description = truncateToWidth(item.description.replace(/\s+/g, " "), available - labelColumn, "…");
		return `${prefix}${styleLabel(label)}  ${this.theme.description(description)}`;
	}

	private labelColumnWidth(shown: SelectItem[]): number {
		const natural = Math.max(...shown.map((item) => visibleWidth(item.label))) + LABEL_GAP;
		const max = this.layout.maxPrimaryColumnWidth ?? MAX_LABEL_COLUMN;
		const min = Math.min(this.layout.minPrimaryColumnWidth ?? 0, max);
		return Math.max(LABEL_GAP + 1, min, Math.min(max, natural));
	}

	private fitLabel(item: SelectItem, isSelected: boolean, maxWidth: number, columnWidth: number, pad: boolean) {
		const custom = this.layout.truncatePrimary;
		const text = custom ? custom({ text: item.label, maxWidth, columnWidth, item, isSelected }) : item.label;
		// A custom result is still held to the column, so a long one cannot push the description out.
		return pad ? truncateToWidth(text, maxWidth, "…", true) : truncateToWidth(text, maxWidth);
	}

	private applyFilter(): void {
		this.filtered = filterItems(this.items, this.filter);
		this.selectedIndex = 0;
		this.markChanged();
	}
}

/** Items whose label or value matches `filter`, best match first. */
function filterItems(items: SelectItem[], filter: string): SelectItem[] {
	if (filter.trim().length === 0) return items;
	const scored: { item: SelectItem; score: number; index: number }[] = [];
	items.forEach((item, index) => {
		const onLabel = fuzzyMatch(filter, item.label);
		const onValue = item.value === item.label ? onLabel : fuzzyMatch(filter, item.value);
		const score = Math.min(onLabel.score, onValue.score);
		if (onLabel.matches || onValue.matches) scored.push({ item, score, index });
	});
	scored.sort((a, b) => a.score - b.score || a.index - b.index);
	return scored.map((entry) => entry.item);
}
