// The /tree navigator: the whole session tree, the current leaf marked `← active`, labels as
// `[label]`, foldable branch starts ⊟ / ⊞. ↑/↓ move, ←/→ page, Ctrl+←/→ fold or jump between branch
// segments, typing searches, Ctrl+O and Ctrl+D/T/U/L/A pick the filter, Shift+L edits a label.
import { CachedComponent, getEditorKeybindings, Input, matchesKey, truncateToWidth } from "@agent/tui";
import type { TreeFilterMode } from "../../../core/config/settings-schema.js";
import type { SessionEntry, SessionTreeNode } from "../../../core/session/entries.js";
import type { DisplayState } from "../display-state.js";
import { dropLastCharacter, typedText } from "./input-keys.js";
import { activePathIds, buildTreeRows, searchTreeRows, TREE_FILTER_MODES, type TreeRow } from "./tree-model.js";

export interface TreeSelectorOptions {
	state: DisplayState;
	getTree(): SessionTreeNode[];
	getBranch(): SessionEntry[];
	getLeafId(): string | null;
	initialFilter: TreeFilterMode;
	/** The entry selected at first (default: the leaf). */
	initialSelectedId?: string;
	/** Terminal height: the tree takes half of it. */
	terminalRows(): number;
	onSelect(entry: SessionEntry): void;
	onCancel(): void;
	/** Sets (or with undefined removes) an entry's label. */
	setLabel(entryId: string, label: string | undefined): void;
}

const FILTER_KEYS: Record<string, TreeFilterMode> = {
	"ctrl+d": "default",
	"ctrl+t": "no-tools",
	"ctrl+u": "user-only",
	"ctrl+l": "labeled-only",
	"ctrl+a": "all",
};

export class TreeSelector extends CachedComponent {
	private filter: TreeFilterMode;
	private query = "";
	private readonly folded = new Set<string>();
	private allRows: TreeRow[] = [];
	private rows: TreeRow[] = [];
	private selected = 0;
	private labelInput: { input: Input; entryId: string } | undefined;

	constructor(protected readonly options: TreeSelectorOptions) {
		super();
		this.filter = options.initialFilter;
		this.rebuild();
		this.selectEntry(options.initialSelectedId ?? options.getLeafId() ?? undefined, true);
	}

	getFilter(): TreeFilterMode {
		return this.filter;
	}

	/** The search text typed so far. */
	getQuery(): string {
		return this.query;
	}

	getRows(): readonly TreeRow[] {
		return this.rows;
	}

	getSelectedEntry(): SessionEntry | undefined {
		return this.rows[this.selected]?.entry;
	}

	handleInput(data: string): void {
		if (this.labelInput) {
			this.handleLabelInput(this.labelInput, data);
			this.markChanged();
			return;
		}
		const keys = getEditorKeybindings();
		const count = this.rows.length;
		const page = this.pageSize();
		if (keys.matches(data, "selectUp")) this.selected = count === 0 ? 0 : (this.selected - 1 + count) % count;
		else if (keys.matches(data, "selectDown")) this.selected = count === 0 ? 0 : (this.selected + 1) % count;
		else if (keys.matches(data, "treeFoldOrUp")) this.foldOrJumpBack();
		else if (keys.matches(data, "treeUnfoldOrDown")) this.unfoldOrJumpForward();
		else if (matchesKey(data, "left") || keys.matches(data, "selectPageUp"))
			this.selected = Math.max(0, this.selected - page);
		else if (matchesKey(data, "right") || keys.matches(data, "selectPageDown"))
			this.selected = Math.max(0, Math.min(count - 1, this.selected + page));
		else if (keys.matches(data, "selectConfirm")) {
			const entry = this.getSelectedEntry();
			if (entry) this.options.onSelect(entry);
			return;
		} else if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			if (this.query) this.setQuery("");
			else {
				this.options.onCancel();
				return;
			}
		} else if (matchesKey(data, "ctrl+o")) this.cycleFilter(1);
		else if (matchesKey(data, "shift+ctrl+o")) this.cycleFilter(-1);
		else if (this.filterKey(data)) this.setFilter(this.filterKey(data) as TreeFilterMode);
		else if (matchesKey(data, "shift+l")) this.startLabelEdit();
		else if (matchesKey(data, "backspace")) {
			if (this.query) this.setQuery(dropLastCharacter(this.query));
		} else {
			const text = typedText(data);
			if (text !== undefined) this.setQuery(this.query + text);
		}
		this.markChanged();
	}

	/** Re-reads the tree (after a label changed). */
	refresh(): void {
		const current = this.getSelectedEntry()?.id;
		this.rebuild();
		this.selectEntry(current);
		this.markChanged();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.options.state;
		const rule = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		const lines = [
			rule,
			truncateToWidth(` ${theme.bold("Session tree")}  ${theme.fg("dim", `filter: ${this.filter}`)}`, width),
			truncateToWidth(` ${theme.fg("dim", ">")} ${this.query}${theme.inverse(" ")}`, width),
		];
		const height = this.pageSize();
		const first = Math.max(0, Math.min(this.selected - Math.floor(height / 2), this.rows.length - height));
		if (this.rows.length === 0) lines.push(theme.fg("muted", "  No entries"));
		for (let i = first; i < Math.min(this.rows.length, first + height); i++) {
			lines.push(truncateToWidth(this.renderRow(this.rows[i], i === this.selected), width));
		}
		if (this.rows.length > height) lines.push(theme.fg("dim", `  (${this.selected + 1}/${this.rows.length})`));
		if (this.labelInput) {
			lines.push(
				truncateToWidth(theme.fg("accent", " Label (empty removes it; Enter to save, Esc to cancel):"), width),
			);
			lines.push(...this.labelInput.input.render(width));
		}
		lines.push(
			truncateToWidth(
				theme.fg(
					"dim",
					" ↑↓ move · ←→ page · Ctrl+←→ fold/jump · Enter select · Shift+L label · Ctrl+O filter · type to search · Esc close",
				),
				width,
			),
		);
		lines.push(rule);
		return lines;
	}

	private renderRow(row: TreeRow, isSelected: boolean): string {
		const { theme } = this.options.state;
		const marker = isSelected ? theme.fg("accent", "› ") : "  ";
		const fold = row.isFoldable ? theme.fg("muted", row.isFolded ? "⊞ " : "⊟ ") : "";
		let text = row.text;
		if (row.isActiveLeaf) text = theme.bold(theme.fg("accent", text));
		else if (row.isOnActivePath) text = theme.fg("accent", text);
		else text = theme.fg("muted", text);
		if (isSelected) text = theme.inverse(text);
		const label = row.label ? ` ${theme.fg("warning", `[${row.label}]`)}` : "";
		const active = row.isActiveLeaf ? theme.fg("success", " ← active") : "";
		return `${marker}${theme.fg("dim", row.prefix)}${fold}${text}${label}${active}`;
	}

	private pageSize(): number {
		return Math.max(5, Math.floor(this.options.terminalRows() / 2));
	}

	private filterKey(data: string): TreeFilterMode | undefined {
		for (const [key, mode] of Object.entries(FILTER_KEYS)) if (matchesKey(data, key)) return mode;
		return undefined;
	}

	private rebuild(): void {
		this.allRows = buildTreeRows(this.options.getTree(), {
			filter: this.filter,
			activePath: activePathIds(this.options.getBranch()),
			leafId: this.options.getLeafId(),
			folded: this.folded,
		});
		this.rows = searchTreeRows(this.allRows, this.query);
		this.selected = Math.max(0, Math.min(this.selected, this.rows.length - 1));
	}

	/** Selects `id`, or (`orAncestor`) its nearest shown ancestor on the active path. */
	private selectEntry(id: string | undefined, orAncestor = false): void {
		if (id === undefined) return;
		let index = this.rows.findIndex((row) => row.entry.id === id);
		if (index === -1 && orAncestor) {
			const branch = this.options.getBranch();
			for (let i = branch.length - 1; i >= 0 && index === -1; i--) {
				const ancestorId = branch[i].id;
				index = this.rows.findIndex((row) => row.entry.id === ancestorId);
			}
		}
		if (index >= 0) this.selected = index;
	}

	private setFilter(filter: TreeFilterMode): void {
		const current = this.getSelectedEntry()?.id;
		this.filter = filter;
		this.rebuild();
		this.selectEntry(current, true);
	}

	private cycleFilter(step: number): void {
		const index = TREE_FILTER_MODES.indexOf(this.filter);
		this.setFilter(TREE_FILTER_MODES[(index + step + TREE_FILTER_MODES.length) % TREE_FILTER_MODES.length]);
	}

	private setQuery(query: string): void {
		const current = this.getSelectedEntry()?.id;
		this.query = query;
		this.rows = searchTreeRows(this.allRows, query);
		this.selected = 0;
		this.selectEntry(current);
	}

	private foldOrJumpBack(): void {
		const row = this.rows[this.selected];
		if (!row) return;
		if (row.isFoldable && !row.isFolded && !this.query) {
			this.folded.add(row.entry.id);
			this.refresh();
			return;
		}
		for (let i = this.selected - 1; i >= 0; i--) {
			if (this.rows[i].isBranchStart || i === 0) {
				this.selected = i;
				return;
			}
		}
	}

	private unfoldOrJumpForward(): void {
		const row = this.rows[this.selected];
		if (!row) return;
		if (row.isFolded) {
			this.folded.delete(row.entry.id);
			this.refresh();
			return;
		}
		for (let i = this.selected + 1; i < this.rows.length; i++) {
			if (this.rows[i].isBranchStart) {
				this.selected = i;
				return;
			}
		}
		this.selected = Math.max(0, this.rows.length - 1);
	}

	private startLabelEdit(): void {
		const row = this.rows[this.selected];
		if (!row) return;
		const input = new Input();
		input.setValue(row.label ?? "");
		input.focused = true;
		this.labelInput = { input, entryId: row.entry.id };
	}

	private handleLabelInput(edit: { input: Input; entryId: string }, data: string): void {
		if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.labelInput = undefined;
			return;
		}
		if (matchesKey(data, "enter")) {
			const label = edit.input.getValue().trim();
			this.labelInput = undefined;
			this.options.setLabel(edit.entryId, label || undefined);
			this.refresh();
			return;
		}
		edit.input.handleInput(data);
	}
}
