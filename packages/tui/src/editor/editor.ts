import type { AutocompleteProvider } from "../autocomplete/types.js";
import { CachedComponent, type Component, CURSOR_MARKER, type Focusable } from "../component.js";
import { printableText } from "../components/input.js";
import { type EditorAction, getEditorKeybindings } from "../keys/keybindings.js";
import { PASTE_END, PASTE_START } from "../terminal/stdin-buffer.js";
import { segmentGraphemes, visibleWidth } from "../text/width.js";
import type { StyleFn } from "../theme/style.js";
import type { EditorTheme } from "../theme/themes.js";
import { AutocompleteSession } from "./autocomplete-session.js";
import { columnOf, findCursorRow, layoutLines, offsetAtColumn, type VisualLine } from "./editor-layout.js";
import { EditorText, type TextPosition } from "./editor-text.js";
import { InputHistory } from "./input-history.js";
import { KillRing } from "./kill-ring.js";
import { isLargePaste, normalizePastedText, PasteStore } from "./paste-store.js";
import { isWordGrapheme } from "./text-boundaries.js";
import { type EditKind, UndoStack } from "./undo-stack.js";

/** What the editor needs from the TUI: the terminal height (to size itself) and a way to redraw. */
export interface EditorHost {
	readonly terminal: { readonly rows: number; readonly columns: number };
	requestRender(force?: boolean): void;
}

export interface EditorOptions {
	paddingX?: number;
	/** Rows of the autocomplete list (default 5, clamped to 3..20). */
	autocompleteMaxVisible?: number;
}

/** The subset of the editor that custom editors implement. */
export interface EditorComponent extends Component {
	getText(): string;
	setText(text: string): void;
	handleInput(data: string): void;
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;
	addToHistory?(text: string): void;
	insertTextAtCursor?(text: string): void;
	getExpandedText?(): string;
	setAutocompleteProvider?(provider: AutocompleteProvider): void;
	borderColor?: StyleFn;
	setPaddingX?(padding: number): void;
	setAutocompleteMaxVisible?(maxVisible: number): void;
}

/** Terminal encodings of "new line" that arrive where Shift+Enter is not distinguishable. */
const NEWLINE_FALLBACKS = new Set(["\n", "\x1b\r", "\x1b\n", "\x1b[13;2~"]);

function clampMaxVisible(value: number): number {
	return Math.max(3, Math.min(20, Math.floor(value)));
}

/**
 * Multi-line prompt editor: word wrap, grapheme-aware movement and deletion, history, undo, an Emacs
 * kill ring, large pastes behind markers, and slash-command / @file / path completion.
 */
export class Editor extends CachedComponent implements EditorComponent, Focusable {
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;
	/** While true, Enter does nothing. */
	disableSubmit = false;
	private readonly pastes = new PasteStore();
	private readonly text = new EditorText(this.pastes);
	private readonly history = new InputHistory();
	private readonly undo = new UndoStack();
	private readonly killRing = new KillRing();
	private readonly autocomplete: AutocompleteSession;
	private lastAction: "kill" | "yank" | undefined;
	private yankStart: TextPosition | undefined;
	private pendingJump: "forward" | "backward" | undefined;
	private preferredColumn: number | undefined;
	private scrollTop = 0;
	private paddingX: number;
	private isFocused = false;
	private border: StyleFn;
	private layoutWidth = 0;
	private renderedRows = -1;
	readonly isVolatile = true;

	constructor(
		private readonly host: EditorHost,
		theme: EditorTheme,
		options: EditorOptions = {},
	) {
		super();
		this.border = theme.borderColor;
		this.paddingX = options.paddingX ?? 0;
		this.autocomplete = new AutocompleteSession(
			theme.selectList,
			clampMaxVisible(options.autocompleteMaxVisible ?? 5),
		);
	}

	/** The reference's name for the host (subclasses call `this.tui.requestRender()`). */
	protected get tui(): EditorHost {
		return this.host;
	}

	get focused(): boolean {
		return this.isFocused;
	}

	set focused(focused: boolean) {
		if (focused === this.isFocused) return;
		this.isFocused = focused;
		this.markChanged();
	}

	get borderColor(): StyleFn {
		return this.border;
	}

	set borderColor(style: StyleFn) {
		this.border = style;
		this.markChanged();
	}

	getText(): string {
		return this.text.getText();
	}

	/** The text with paste markers replaced by the pasted content. */
	getExpandedText(): string {
		return this.pastes.expand(this.text.getText());
	}

	setText(text: string): void {
		this.undo.record(this.text.snapshot(), "other");
		this.text.setText(normalizePastedText(text, true).replaceAll("\t", "    "));
		this.afterEdit();
	}

	insertTextAtCursor(text: string): void {
		this.undo.record(this.text.snapshot(), "other");
		this.text.insert(normalizePastedText(text));
		this.afterEdit();
	}

	addToHistory(text: string): void {
		this.history.add(text);
	}

	setAutocompleteProvider(provider: AutocompleteProvider): void {
		this.autocomplete.provider = provider;
	}

	setPaddingX(padding: number): void {
		this.paddingX = Math.max(0, padding);
		this.markChanged();
	}

	getPaddingX(): number {
		return this.paddingX;
	}

	setAutocompleteMaxVisible(maxVisible: number): void {
		this.autocomplete.setMaxVisible(clampMaxVisible(maxVisible));
		this.markChanged();
	}

	/** Whether the completion list is open (Escape then closes it rather than reaching the app). */
	isShowingAutocomplete(): boolean {
		return this.autocomplete.isOpen;
	}

	override render(width: number): string[] {
		// The editor's height follows the terminal's, which changes without the editor being told.
		if (this.host.terminal.rows !== this.renderedRows) {
			this.renderedRows = this.host.terminal.rows;
			this.clearCache();
		}
		return super.render(width);
	}

	handleInput(data: string): void {
		if (this.pendingJump) {
			const direction = this.pendingJump;
			this.pendingJump = undefined;
			const target = printableText(data);
			if (target !== undefined && target.length > 0) {
				this.jumpTo(target, direction);
				return;
			}
		}
		if (data.startsWith(PASTE_START)) {
			this.handlePaste(data.slice(PASTE_START.length, data.endsWith(PASTE_END) ? -PASTE_END.length : undefined));
			return;
		}
		const keys = getEditorKeybindings();
		if (this.autocomplete.isOpen) {
			const handled = this.autocomplete.handleKey(data, this.text, () => this.recordUndo("other"));
			if (handled === "applied") this.afterEdit();
			else if (handled === "navigated") this.markChanged();
			if (handled) return;
		}
		if (keys.matches(data, "newLine") || NEWLINE_FALLBACKS.has(data)) {
			this.insertNewLine();
			return;
		}
		if (keys.matches(data, "submit")) {
			this.handleEnter();
			return;
		}
		if (keys.matches(data, "tab")) {
			const changed = this.autocomplete.completeOnTab(this.text, () => this.recordUndo("other"));
			if (changed) this.afterEdit();
			else this.markChanged();
			return;
		}
		const action = keys.findAction(data, EDITING_ACTIONS);
		if (action) {
			this.runAction(action);
			return;
		}
		const text = printableText(data);
		if (text !== undefined && text.length > 0) this.insertTyped(text);
	}

	protected renderLines(width: number): string[] {
		const paddingX = Math.max(0, Math.min(this.paddingX, Math.floor((width - 3) / 2)));
		const contentWidth = Math.max(2, width - paddingX * 2);
		this.layoutWidth = contentWidth - 1;
		const rows = layoutLines(this.text.lines, this.layoutWidth);
		const cursorRow = findCursorRow(rows, this.text.cursorLine, this.text.cursorCol);
		const maxVisible = this.maxVisibleRows();
		if (cursorRow < this.scrollTop) this.scrollTop = cursorRow;
		if (cursorRow >= this.scrollTop + maxVisible) this.scrollTop = cursorRow - maxVisible + 1;
		this.scrollTop = Math.max(0, Math.min(this.scrollTop, rows.length - maxVisible));
		const visible = rows.slice(this.scrollTop, this.scrollTop + maxVisible);
		const margin = " ".repeat(paddingX);
		const lines = [this.borderLine(width, this.scrollTop > 0 ? `↑ ${this.scrollTop} more` : "")];
		visible.forEach((row, offset) => {
			const isCursorRow = this.scrollTop + offset === cursorRow;
			lines.push(margin + this.renderRow(row, isCursorRow));
		});
		const below = rows.length - this.scrollTop - visible.length;
		lines.push(this.borderLine(width, below > 0 ? `↓ ${below} more` : ""));
		for (const line of this.autocomplete.render(width)) lines.push(line);
		return lines;
	}

	private maxVisibleRows(): number {
		return Math.max(5, Math.floor(this.host.terminal.rows * 0.3));
	}

	private borderLine(width: number, indicator: string): string {
		if (!indicator || width < indicator.length + 8) return this.border("─".repeat(width));
		const label = ` ${indicator} `;
		return this.border(`───${label}${"─".repeat(Math.max(0, width - 3 - visibleWidth(label)))}`);
	}

	private renderRow(row: VisualLine, isCursorRow: boolean): string {
		const rowText = this.text.lines[row.line].slice(row.start, row.end);
		if (!isCursorRow || !this.isFocused) return rowText;
		const cursorOffset = this.text.cursorCol - row.start;
		const marker = this.autocomplete.isOpen ? "" : CURSOR_MARKER;
		for (const { segment, index } of segmentGraphemes(rowText)) {
			if (index === cursorOffset) {
				return `${rowText.slice(0, index)}${marker}\x1b[7m${segment}\x1b[27m${rowText.slice(index + segment.length)}`;
			}
		}
		return `${rowText}${marker}\x1b[7m \x1b[27m`;
	}

	private handleEnter(): void {
		const before = this.text.textBeforeCursor();
		if (before.endsWith("\\")) {
			// Terminals without Shift+Enter: a backslash before Enter asks for a new line.
			this.recordUndo("other");
			this.text.deleteBetween(this.text.positionBefore(), this.text.cursor);
			this.text.insert("\n");
			this.afterEdit();
			return;
		}
		if (this.disableSubmit) return;
		const submitted = this.pastes.expand(this.text.getText()).trim();
		this.text.setText("");
		this.pastes.clear();
		this.history.stopBrowsing();
		this.undo.clear();
		this.autocomplete.close();
		this.scrollTop = 0;
		this.lastAction = undefined;
		this.markChanged();
		this.onChange?.("");
		this.onSubmit?.(submitted);
	}

	private handlePaste(raw: string): void {
		const content = normalizePastedText(raw, true);
		let inserted = isLargePaste(content) ? this.pastes.add(content) : normalizePastedText(raw);
		// A path pasted right after a word gets a separating space ("see/tmp/x" would be one token).
		const before = this.text.textBeforeCursor();
		const lastChar = [...segmentGraphemes(before)].pop()?.segment;
		if (/^[/~.]/.test(inserted) && lastChar !== undefined && isWordGrapheme(lastChar)) inserted = ` ${inserted}`;
		this.recordUndo("other");
		this.text.insert(inserted);
		this.afterEdit();
	}

	private insertNewLine(): void {
		this.recordUndo("other");
		this.text.insert("\n");
		this.afterEdit();
	}

	private insertTyped(typed: string): void {
		const kind: EditKind = typed === " " ? "space" : [...typed].every((c) => isWordGrapheme(c)) ? "word" : "other";
		this.recordUndo(kind);
		this.text.insert(typed);
		this.afterEdit();
		this.autocomplete.afterTyping(this.text);
	}

	private runAction(action: EditingAction): void {
		const text = this.text;
		const isVertical =
			action === "cursorUp" || action === "cursorDown" || action === "pageUp" || action === "pageDown";
		if (!isVertical) this.preferredColumn = undefined;
		const isKill = action.startsWith("delete") && action !== "deleteCharBackward" && action !== "deleteCharForward";
		const previousAction = this.lastAction;
		if (action !== "yankPop") this.lastAction = undefined;
		switch (action) {
			case "cursorLeft":
				this.moveTo(text.positionBefore());
				break;
			case "cursorRight":
				this.moveTo(text.positionAfter());
				break;
			case "cursorWordLeft":
				this.moveTo(text.wordPositionBefore());
				break;
			case "cursorWordRight":
				this.moveTo(text.wordPositionAfter());
				break;
			case "cursorLineStart":
				this.moveTo({ line: text.cursorLine, col: 0 });
				break;
			case "cursorLineEnd":
				this.moveTo({ line: text.cursorLine, col: text.currentLine().length });
				break;
			case "cursorUp":
				this.handleUp();
				break;
			case "cursorDown":
				this.handleDown();
				break;
			case "pageUp":
				this.moveVertically(-this.maxVisibleRows());
				break;
			case "pageDown":
				this.moveVertically(this.maxVisibleRows());
				break;
			case "deleteCharBackward":
				this.deleteTo(text.positionBefore(), "delete-backward");
				break;
			case "deleteCharForward":
				this.deleteTo(text.positionAfter(), "delete-forward");
				break;
			case "undo":
				this.undoLastEdit();
				break;
			case "yank":
				this.yank();
				break;
			case "yankPop":
				if (previousAction === "yank") this.yankPop();
				break;
			case "jumpForward":
				this.pendingJump = "forward";
				break;
			case "jumpBackward":
				this.pendingJump = "backward";
				break;
			default:
				if (isKill) this.kill(action, previousAction === "kill");
		}
		if (this.autocomplete.isOpen && (action.startsWith("delete") || action === "undo" || action.startsWith("yank"))) {
			this.autocomplete.refresh(this.text);
		}
	}

	private kill(action: EditingAction, accumulate: boolean): void {
		const text = this.text;
		const line = text.currentLine();
		let target: TextPosition;
		let isBackward = true;
		if (action === "deleteWordBackward") target = text.wordPositionBefore();
		else if (action === "deleteWordForward") {
			target = text.wordPositionAfter();
			isBackward = false;
		} else if (action === "deleteToLineStart") {
			target = text.cursorCol === 0 ? text.positionBefore() : { line: text.cursorLine, col: 0 };
		} else {
			target = text.cursorCol >= line.length ? text.positionAfter() : { line: text.cursorLine, col: line.length };
			isBackward = false;
		}
		if (target.line === text.cursorLine && target.col === text.cursorCol) return;
		this.recordUndo("other");
		const removed = text.deleteBetween(text.cursor, target);
		this.killRing.push(removed, { accumulate, isBackward });
		this.afterEdit();
		this.lastAction = "kill";
	}

	private yank(): void {
		const entry = this.killRing.yank();
		if (entry === undefined) return;
		this.recordUndo("other");
		this.yankStart = this.text.cursor;
		this.text.insert(entry);
		this.afterEdit();
		this.lastAction = "yank";
	}

	private yankPop(): void {
		if (!this.yankStart) return;
		const entry = this.killRing.yankPop();
		if (entry === undefined) return;
		this.text.deleteBetween(this.yankStart, this.text.cursor);
		this.text.insert(entry);
		this.afterEdit();
		this.lastAction = "yank";
	}

	private jumpTo(target: string, direction: "forward" | "backward"): void {
		const text = this.text;
		const offsetOf = (position: TextPosition) =>
			text.lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0) + position.col;
		const full = text.getText();
		const cursor = offsetOf(text.cursor);
		const found = direction === "forward" ? full.indexOf(target, cursor + 1) : full.lastIndexOf(target, cursor - 1);
		if (found === -1 || (direction === "backward" && cursor === 0)) return;
		const before = full.slice(0, found).split("\n");
		this.moveTo({ line: before.length - 1, col: before[before.length - 1].length });
	}

	private handleUp(): void {
		const rows = layoutLines(this.text.lines, this.currentLayoutWidth());
		const cursorRow = findCursorRow(rows, this.text.cursorLine, this.text.cursorCol);
		if ((this.text.isEmpty && !this.history.isBrowsing) || (this.history.isBrowsing && cursorRow === 0)) {
			const entry = this.history.older(this.text.getText());
			if (entry !== undefined) this.showHistoryEntry(entry);
			return;
		}
		if (cursorRow === 0) this.moveTo({ line: 0, col: 0 });
		else this.moveVertically(-1);
	}

	private handleDown(): void {
		const rows = layoutLines(this.text.lines, this.currentLayoutWidth());
		const cursorRow = findCursorRow(rows, this.text.cursorLine, this.text.cursorCol);
		const isLastRow = cursorRow === rows.length - 1;
		if (this.history.isBrowsing && isLastRow) {
			const entry = this.history.newer();
			if (entry !== undefined) this.showHistoryEntry(entry);
			return;
		}
		if (isLastRow) {
			const last = this.text.lines.length - 1;
			this.moveTo({ line: last, col: this.text.lines[last].length });
		} else this.moveVertically(1);
	}

	private showHistoryEntry(entry: string): void {
		this.text.setText(entry);
		this.scrollTop = 0;
		this.markChanged();
		this.onChange?.(entry);
	}

	private moveVertically(delta: number): void {
		const rows = layoutLines(this.text.lines, this.currentLayoutWidth());
		const cursorRow = findCursorRow(rows, this.text.cursorLine, this.text.cursorCol);
		const current = rows[cursorRow];
		const line = this.text.lines[current.line];
		this.preferredColumn ??= columnOf(line, current, this.text.cursorCol);
		const targetIndex = Math.max(0, Math.min(rows.length - 1, cursorRow + delta));
		const target = rows[targetIndex];
		const isLastRowOfLine = targetIndex === rows.length - 1 || rows[targetIndex + 1].line !== target.line;
		const targetLine = this.text.lines[target.line];
		const col = offsetAtColumn(targetLine, target, this.preferredColumn, isLastRowOfLine);
		const preferred = this.preferredColumn;
		this.moveTo({ line: target.line, col: this.text.snapOutOfMarker(target.line, col, "end") });
		this.preferredColumn = preferred;
	}

	private currentLayoutWidth(): number {
		if (this.layoutWidth > 0) return this.layoutWidth;
		return Math.max(1, this.host.terminal.columns - this.paddingX * 2 - 1);
	}

	private moveTo(position: TextPosition): void {
		this.text.setCursor(position);
		this.undo.breakGroup();
		this.markChanged();
	}

	private deleteTo(target: TextPosition, kind: EditKind): void {
		if (target.line === this.text.cursorLine && target.col === this.text.cursorCol) return;
		this.recordUndo(kind);
		this.text.deleteBetween(this.text.cursor, target);
		this.afterEdit();
	}

	private undoLastEdit(): void {
		const snapshot = this.undo.pop();
		if (!snapshot) return;
		this.text.restore(snapshot);
		this.history.stopBrowsing();
		this.markChanged();
		this.onChange?.(this.text.getText());
	}

	private recordUndo(kind: EditKind): void {
		this.undo.record(this.text.snapshot(), kind);
	}

	/** Bookkeeping after any edit: history browsing ends, listeners hear about it. */
	private afterEdit(): void {
		this.history.stopBrowsing();
		this.lastAction = undefined;
		this.markChanged();
		this.onChange?.(this.text.getText());
	}
}

const EDITING_ACTIONS = [
	"cursorLeft",
	"cursorRight",
	"cursorWordLeft",
	"cursorWordRight",
	"cursorLineStart",
	"cursorLineEnd",
	"cursorUp",
	"cursorDown",
	"pageUp",
	"pageDown",
	"deleteCharBackward",
	"deleteCharForward",
	"deleteWordBackward",
	"deleteWordForward",
	"deleteToLineStart",
	"deleteToLineEnd",
	"yank",
	"yankPop",
	"undo",
	"jumpForward",
	"jumpBackward",
] as const satisfies readonly EditorAction[];

type EditingAction = (typeof EDITING_ACTIONS)[number];
