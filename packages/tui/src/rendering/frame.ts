import { CURSOR_MARKER } from "../component.js";
import { visibleWidth } from "../text/width.js";

/**
 * One frame to draw. Lines before `tailStart` are the components' lines as rendered (`base`); the last
 * lines (the viewport, where overlays and the cursor marker live) come from `tail`, a private copy the
 * TUI composited overlays into and removed the cursor marker from.
 */
export interface Frame {
	readonly length: number;
	readonly base: readonly string[];
	readonly tailStart: number;
	readonly tail: readonly string[];
	/** Every line before this index equals the previous frame's line at that index (outside both tails). */
	readonly unchangedBefore: number;
	/** Where the focused component wants the hardware cursor (row in frame lines, column). */
	readonly cursor: { row: number; col: number } | undefined;
}

export function frameLine(frame: Frame, index: number): string {
	return index >= frame.tailStart ? frame.tail[index - frame.tailStart] : frame.base[index];
}

/**
 * Finds the cursor marker in the tail, searching bottom-up, removes every marker from the tail, and
 * returns the position of the lowest one.
 */
export function extractCursor(tail: string[], tailStart: number): { row: number; col: number } | undefined {
	let cursor: { row: number; col: number } | undefined;
	for (let i = tail.length - 1; i >= 0; i--) {
		const line = tail[i];
		const at = line.indexOf(CURSOR_MARKER);
		if (at === -1) continue;
		if (!cursor) cursor = { row: tailStart + i, col: visibleWidth(line.slice(0, at)) };
		tail[i] = line.split(CURSOR_MARKER).join("");
	}
	return cursor;
}

/** Lines carrying an inline image (Kitty graphics or iTerm2); exempt from width checks and resets. */
export function isImageLine(line: string): boolean {
	return line.includes("\x1b_G") || line.includes("\x1b]1337;File=");
}
