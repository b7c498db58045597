import type { PasteStore } from "./paste-store.js";
import {
	nextGraphemeBoundary,
	nextWordBoundary,
	previousGraphemeBoundary,
	previousWordBoundary,
} from "./text-boundaries.js";
import type { EditorSnapshot } from "./undo-stack.js";

export interface TextPosition {
	line: number;
	col: number;
}

/**
 * The editor's text and cursor, with grapheme-aware movement and deletion. Paste markers are atomic:
 * the cursor never stops inside one, and deleting into one removes it whole.
 */
export class EditorText {
	lines: string[] = [""];
	cursorLine = 0;
	cursorCol = 0;

	constructor(private readonly pastes: PasteStore) {}

	getText(): string {
		return this.lines.join("\n");
	}

	setText(text: string): void {
		this.lines = text.split("\n");
		this.cursorLine = this.lines.length - 1;
		this.cursorCol = this.lines[this.cursorLine].length;
	}

	get isEmpty(): boolean {
		return this.lines.length === 1 && this.lines[0].length === 0;
	}

	get cursor(): TextPosition {
		return { line: this.cursorLine, col: this.cursorCol };
	}

	setCursor(position: TextPosition): void {
		this.cursorLine = Math.max(0, Math.min(position.line, this.lines.length - 1));
		this.cursorCol = Math.max(0, Math.min(position.col, this.lines[this.cursorLine].length));
	}

	snapshot(): EditorSnapshot {
		return { lines: [...this.lines], cursorLine: this.cursorLine, cursorCol: this.cursorCol };
	}

	restore(snapshot: EditorSnapshot): void {
		this.lines = [...snapshot.lines];
		this.setCursor({ line: snapshot.cursorLine, col: snapshot.cursorCol });
	}

	currentLine(): string {
		return this.lines[this.cursorLine];
	}

	textBeforeCursor(): string {
		return this.lines[this.cursorLine].slice(0, this.cursorCol);
	}

	/** Inserts text (which may contain newlines) at the cursor and moves the cursor after it. */
	insert(text: string): void {
		const line = this.lines[this.cursorLine];
		const before = line.slice(0, this.cursorCol);
		const after = line.slice(this.cursorCol);
		const parts = text.split("\n");
		if (parts.length === 1) {
			this.lines[this.cursorLine] = before + text + after;
			this.cursorCol += text.length;
			return;
		}
		const inserted = [before + parts[0], ...parts.slice(1, -1), parts[parts.length - 1] + after];
		this.lines.splice(this.cursorLine, 1, ...inserted);
		this.cursorLine += parts.length - 1;
		this.cursorCol = parts[parts.length - 1].length;
	}

	/** Removes the text between two positions (in either order); the cursor goes to the earlier one. */
	deleteBetween(a: TextPosition, b: TextPosition): string {
		const [from, to] = comparePositions(a, b) <= 0 ? [a, b] : [b, a];
		const removed = this.textBetween(from, to);
		const head = this.lines[from.line].slice(0, from.col);
		const tail = this.lines[to.line].slice(to.col);
		this.lines.splice(from.line, to.line - from.line + 1, head + tail);
		this.cursorLine = from.line;
		this.cursorCol = from.col;
		return removed;
	}

	textBetween(from: TextPosition, to: TextPosition): string {
		if (from.line === to.line) return this.lines[from.line].slice(from.col, to.col);
		const parts = [this.lines[from.line].slice(from.col)];
		for (let line = from.line + 1; line < to.line; line++) parts.push(this.lines[line]);
		parts.push(this.lines[to.line].slice(0, to.col));
		return parts.join("\n");
	}

	/** Position one grapheme (or one paste marker, or one line break) before the cursor. */
	positionBefore(): TextPosition {
		if (this.cursorCol === 0) {
			return this.cursorLine === 0
				? this.cursor
				: { line: this.cursorLine - 1, col: this.lines[this.cursorLine - 1].length };
		}
		const marker = this.markerEndingAt(this.cursorLine, this.cursorCol);
		if (marker) return { line: this.cursorLine, col: marker.start };
		return { line: this.cursorLine, col: previousGraphemeBoundary(this.currentLine(), this.cursorCol) };
	}

	/** Position one grapheme (or one paste marker, or one line break) after the cursor. */
	positionAfter(): TextPosition {
		const line = this.currentLine();
		if (this.cursorCol >= line.length) {
			return this.cursorLine === this.lines.length - 1 ? this.cursor : { line: this.cursorLine + 1, col: 0 };
		}
		const marker = this.pastes.findMarkers(line).find((range) => range.start === this.cursorCol);
		if (marker) return { line: this.cursorLine, col: marker.end };
		return { line: this.cursorLine, col: nextGraphemeBoundary(line, this.cursorCol) };
	}

	/** Start of the word before the cursor; at a line start, the end of the previous line. */
	wordPositionBefore(): TextPosition {
		if (this.cursorCol === 0) return this.positionBefore();
		const col = previousWordBoundary(this.currentLine(), this.cursorCol);
		return { line: this.cursorLine, col: this.snapOutOfMarker(this.cursorLine, col, "start") };
	}

	/** End of the word after the cursor; at a line end, the start of the next line. */
	wordPositionAfter(): TextPosition {
		if (this.cursorCol >= this.currentLine().length) return this.positionAfter();
		const col = nextWordBoundary(this.currentLine(), this.cursorCol);
		return { line: this.cursorLine, col: this.snapOutOfMarker(this.cursorLine, col, "end") };
	}

	/** Moves `col` out of a paste marker it falls inside, to the marker's start or end. */
	snapOutOfMarker(line: number, col: number, toward: "start" | "end"): number {
		for (const marker of this.pastes.findMarkers(this.lines[line])) {
			if (col > marker.start && col < marker.end) return toward === "start" ? marker.start : marker.end;
		}
		return col;
	}

	private markerEndingAt(line: number, col: number): { start: number; end: number } | undefined {
		return this.pastes.findMarkers(this.lines[line]).find((range) => range.end === col);
	}
}

export function comparePositions(a: TextPosition, b: TextPosition): number {
	return a.line === b.line ? a.col - b.col : a.line - b.line;
}
