import { TAB_WIDTH, visibleWidth } from "../text/width.js";
import { type Frame, frameLine, isImageLine } from "./frame.js";

export const SYNC_BEGIN = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";
/** Appended to every styled line: reset SGR and close any OSC 8 hyperlink, so nothing leaks to the next. */
export const LINE_RESET = "\x1b[0m\x1b]8;;\x07";
const CLEAR_LINE = "\x1b[2K";
const SHOW_CURSOR = "\x1b[?25h";
const HIDE_CURSOR = "\x1b[?25l";
const TAB_SPACES = " ".repeat(TAB_WIDTH);
/** C0 controls other than ESC (and tab, expanded separately): a stray CR or BS would move the cursor. */
const CONTROL_CHARACTERS = /[\x00-\x08\x0a-\x1a\x1c-\x1f\x7f]/g;

export type FullRedrawReason =
	| "first frame"
	| "terminal resized"
	| "terminal width changed"
	| "forced"
	| "content shrank"
	| "lines added or removed above the screen";

/** Clears the screen, moves home and clears the scrollback: the whole history is printed again after it. */
export const CLEAR_ALL = "\x1b[2J\x1b[H\x1b[3J";

export interface DifferentialRendererOptions {
	showHardwareCursor: boolean;
	clearOnShrink: boolean;
	/**
	 * Called with a line wider than the terminal before it is written. Return a replacement line (the
	 * default cuts it to the width) or throw to abort the frame.
	 */
	onLineOverflow: (line: string, index: number, width: number) => string;
	onFullRedraw?: (reason: FullRedrawReason) => void;
}

/**
 * Turns frames into the bytes that update the terminal from the previous frame.
 *
 * The renderer owns a model of the screen: the lines of the last frame (`screen`), the row of the
 * terminal cursor in those lines (`cursorRow`) and the height of the working area drawn so far
 * (`workingHeight`: rows below it have never been written). Rows above `workingHeight - terminal rows`
 * have scrolled into the scrollback and can no longer be edited.
 *
 * Only lines that differ from the screen are written, each after a relative cursor move, and each
 * frame is wrapped in synchronized output.
 *
 * The whole history is printed again (screen and scrollback cleared with CSI 2J CSI H CSI 3J, then every
 * line) only when the scrollback itself is out of date: the width changed (the terminal's own reflow breaks
 * styled and padded lines apart) or the caller forces it (a block expanded or collapsed, the theme changed,
 * the transcript was rebuilt). That costs one flash. Everything else leaves the scrollback alone: a height
 * change repaints the visible screen, and lines that changed above the screen while the agent works (a
 * streamed block re-wrapping far up) repaint the screen at most. The reference clears and reprints on every
 * such change too, which flickers while it streams.
 */
export class DifferentialRenderer {
	private screen: string[] = [];
	private cursorRow = 0;
	/** Column of the terminal cursor when known (-1 after writing text). */
	private cursorCol = -1;
	private isCursorVisible = false;
	private workingHeight = 0;
	private width = 0;
	private rows = 0;
	private previousTailStart = 0;
	private hasRendered = false;
	private output = "";
	/** False on the alternate screen: a whole redraw repaints the screen, with nothing to clear above it. */
	private keepsScrollback = true;
	fullRedraws = 0;

	constructor(private readonly options: DifferentialRendererOptions) {}

	setKeepsScrollback(keeps: boolean): void {
		this.keepsScrollback = keeps;
	}

	setShowHardwareCursor(show: boolean): void {
		this.options.showHardwareCursor = show;
	}

	setClearOnShrink(clear: boolean): void {
		this.options.clearOnShrink = clear;
	}

	/** Height of the area written so far (rows), which overlays use to keep a stable position. */
	get renderedHeight(): number {
		return this.workingHeight;
	}

	/** Forgets everything: the next frame is drawn as a first frame from the current cursor position. */
	reset(): void {
		this.screen = [];
		this.cursorRow = 0;
		this.cursorCol = -1;
		this.workingHeight = 0;
		this.previousTailStart = 0;
		this.hasRendered = false;
	}

	/** Returns the bytes that bring the terminal from the previous frame to `frame` ("" if none). */
	render(frame: Frame, width: number, rows: number, options: { force?: boolean; hasOverlays?: boolean } = {}): string {
		this.output = "";
		const isWholeRedraw = width !== this.width || options.force === true;
		if (!this.hasRendered && !options.force) {
			this.writeWholeFrame(frame, width, rows);
			this.finishFullRedraw("first frame");
		} else if (isWholeRedraw && this.keepsScrollback) {
			this.reprintAll(frame, width, rows);
			this.finishFullRedraw(options.force ? "forced" : "terminal width changed");
		} else if (isWholeRedraw || rows !== this.rows) {
			this.repaintScreen(frame, width, rows);
			this.finishFullRedraw(options.force ? "forced" : "terminal resized");
		} else if (this.options.clearOnShrink && frame.length < this.workingHeight && !options.hasOverlays) {
			this.repaintScreen(frame, width, rows);
			this.finishFullRedraw("content shrank");
		} else {
			this.writeChanges(frame);
		}
		this.previousTailStart = frame.tailStart;
		return this.output;
	}

	/** Bytes that move the cursor below the last line (for leaving the UI), then a new line. */
	moveBelowContent(): string {
		this.output = "";
		if (this.workingHeight > 0) {
			this.moveToRow(this.workingHeight - 1);
			this.output += "\r\n";
		}
		this.cursorRow = this.workingHeight;
		this.workingHeight = this.workingHeight + 1;
		return this.output;
	}

	private finishFullRedraw(reason: FullRedrawReason): void {
		this.hasRendered = true;
		this.fullRedraws++;
		this.options.onFullRedraw?.(reason);
	}

	/** First frame: the terminal below the cursor is assumed clean, so lines are simply written out. */
	private writeWholeFrame(frame: Frame, width: number, rows: number): void {
		this.width = width;
		this.rows = rows;
		this.output += SYNC_BEGIN;
		for (let i = 0; i < frame.length; i++) {
			if (i > 0) this.output += "\r\n";
			this.output += this.formatLine(frameLine(frame, i), i);
		}
		this.endWholeFrame(frame);
	}

	/** Clears the screen and the scrollback and prints every line of the frame again. */
	private reprintAll(frame: Frame, width: number, rows: number): void {
		this.width = width;
		this.rows = rows;
		const lines: string[] = new Array(frame.length);
		for (let i = 0; i < frame.length; i++) lines[i] = this.formatLine(frameLine(frame, i), i);
		this.output += SYNC_BEGIN + CLEAR_ALL + lines.join("\r\n");
		this.endWholeFrame(frame);
	}

	/**
	 * Redraws the visible screen from its top-left corner with the last `rows` lines of the frame and
	 * clears what is below. Absolute positioning makes this correct whatever the terminal did to its
	 * contents on resize (reflow, pulling lines back from the scrollback); the scrollback is left alone.
	 */
	private repaintScreen(frame: Frame, width: number, rows: number): void {
		this.width = width;
		this.rows = rows;
		const top = Math.max(0, frame.length - rows);
		this.output += `${SYNC_BEGIN}\x1b[H`;
		for (let i = top; i < frame.length; i++) {
			if (i > top) this.output += "\r\n";
			this.output += CLEAR_LINE + this.formatLine(frameLine(frame, i), i);
		}
		this.output += "\x1b[J";
		this.endWholeFrame(frame);
	}

	/** After a whole frame was written: the cursor is on its last line and the screen copy is the frame. */
	private endWholeFrame(frame: Frame): void {
		this.workingHeight = frame.length;
		this.cursorRow = Math.max(0, frame.length - 1);
		this.cursorCol = -1;
		this.copyToScreen(frame, 0);
		this.placeCursor(frame);
		this.output += SYNC_END;
	}

	private writeChanges(frame: Frame): void {
		const length = frame.length;
		const previousLength = this.screen.length;
		const checkFrom = Math.max(0, Math.min(frame.unchangedBefore, frame.tailStart, this.previousTailStart));
		const end = Math.max(length, previousLength);
		let first = -1;
		let last = -1;
		for (let i = checkFrom; i < end; i++) {
			if (this.isRowChanged(frame, i, previousLength)) {
				if (first === -1) first = i;
				last = i;
			}
		}
		// Rows above the visible screen are in the scrollback, which cannot be edited.
		const visibleTop = Math.max(0, this.workingHeight - this.rows);
		if (first !== -1 && ((first < visibleTop && length !== previousLength) || length <= visibleTop)) {
			// Lines were added or removed in the scrollback part (a block expanded or collapsed far up):
			// everything on screen moved, possibly off it. Repaint the screen with the new last lines;
			// the scrollback keeps its old text rather than being cleared and reprinted.
			this.repaintScreen(frame, this.width, this.rows);
			this.finishFullRedraw("lines added or removed above the screen");
			return;
		}
		const writeFrom = Math.max(first, visibleTop);
		const hasWrites = first !== -1 && writeFrom <= last;
		if (hasWrites) {
			this.output += SYNC_BEGIN;
			for (let i = writeFrom; i <= last; i++) {
				if (i < this.workingHeight && !this.isRowChanged(frame, i, previousLength)) continue;
				this.moveToRow(i);
				this.output += i < length ? CLEAR_LINE + this.formatLine(frameLine(frame, i), i) : CLEAR_LINE;
				this.cursorCol = -1;
			}
		}
		this.copyToScreen(frame, checkFrom);
		this.placeCursor(frame);
		if (hasWrites) this.output += SYNC_END;
	}

	/** Whether row `i` must be rewritten: new rows always, removed rows when they held text. */
	private isRowChanged(frame: Frame, i: number, previousLength: number): boolean {
		const newLine = i < frame.length ? frameLine(frame, i) : undefined;
		const oldLine = i < previousLength ? this.screen[i] : undefined;
		if (newLine === oldLine) return false;
		return !(newLine === undefined && oldLine === "");
	}

	private copyToScreen(frame: Frame, from: number): void {
		const screen = this.screen;
		if (screen.length > frame.length) screen.length = frame.length;
		for (let i = from; i < frame.length; i++) {
			if (i < screen.length) screen[i] = frameLine(frame, i);
			else screen.push(frameLine(frame, i));
		}
	}

	/** Moves the terminal cursor to column 0 of `row`, creating rows below the working area as needed. */
	private moveToRow(row: number): void {
		const lastExisting = Math.max(0, this.workingHeight - 1);
		const target = Math.min(row, lastExisting);
		if (target < this.cursorRow) this.output += `\x1b[${this.cursorRow - target}A`;
		else if (target === this.cursorRow + 1) this.output += "\n";
		else if (target > this.cursorRow) this.output += `\x1b[${target - this.cursorRow}B`;
		// Creating rows below starts with "\r\n", which returns to column 0 by itself.
		if (row === target) this.output += "\r";
		this.cursorRow = target;
		if (row > target) {
			// New rows: line feeds at the bottom scroll the screen, pushing the top into the scrollback.
			this.output += "\r\n".repeat(row - target);
			this.cursorRow = row;
		}
		this.workingHeight = Math.max(this.workingHeight, row + 1);
		this.cursorCol = 0;
	}

	/** Puts the hardware cursor where the focused component asked, and shows or hides it. */
	private placeCursor(frame: Frame): void {
		const cursor = frame.cursor;
		if (cursor && cursor.row < this.workingHeight) {
			if (cursor.row !== this.cursorRow) this.moveVertically(cursor.row);
			if (cursor.col !== this.cursorCol) {
				this.output += `\x1b[${cursor.col + 1}G`;
				this.cursorCol = cursor.col;
			}
		}
		const shouldShow = cursor !== undefined && this.options.showHardwareCursor;
		if (shouldShow !== this.isCursorVisible) {
			this.output += shouldShow ? SHOW_CURSOR : HIDE_CURSOR;
			this.isCursorVisible = shouldShow;
		}
	}

	/** Cursor bookkeeping after the TUI showed or hid the cursor itself (start/stop). */
	setCursorVisible(visible: boolean): void {
		this.isCursorVisible = visible;
	}

	private moveVertically(row: number): void {
		if (row < this.cursorRow) this.output += `\x1b[${this.cursorRow - row}A`;
		else if (row > this.cursorRow) this.output += `\x1b[${row - this.cursorRow}B`;
		this.cursorRow = row;
	}

	private formatLine(line: string, index: number): string {
		if (line.length === 0) return line;
		if (isImageLine(line)) return line;
		let text = line.includes("\t") ? line.replaceAll("\t", TAB_SPACES) : line;
		// Text from tools (progress bars, bells) may carry controls that widths count as zero; the
		// terminal would act on them and break the layout, so they are dropped.
		CONTROL_CHARACTERS.lastIndex = 0;
		if (CONTROL_CHARACTERS.test(text)) text = text.replace(CONTROL_CHARACTERS, "");
		if (visibleWidth(text) > this.width) text = this.options.onLineOverflow(text, index, this.width);
		return text.includes("\x1b") ? text + LINE_RESET : text;
	}
}
