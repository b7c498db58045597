import { escapeSequenceLength, StyleState } from "./ansi.js";
import { graphemeWidth, segmentGraphemes, visibleWidth } from "./width.js";

/** A piece of a styled string: an escape sequence (zero width) or one grapheme cluster. */
export type StyledPiece = { kind: "escape"; text: string } | { kind: "grapheme"; text: string; width: number };

/** Splits a styled string into escape sequences and grapheme clusters, in order. */
export function* styledPieces(text: string): Generator<StyledPiece> {
	let i = 0;
	while (i < text.length) {
		const escapeLength = escapeSequenceLength(text, i);
		if (escapeLength > 0) {
			yield { kind: "escape", text: text.slice(i, i + escapeLength) };
			i += escapeLength;
			continue;
		}
		const next = text.indexOf("\x1b", i + 1);
		const end = next === -1 ? text.length : next;
		for (const { segment } of segmentGraphemes(text.slice(i, end))) {
			yield { kind: "grapheme", text: segment, width: graphemeWidth(segment) };
		}
		i = end;
	}
}

/**
 * Cuts `text` to at most `maxWidth` visible columns, keeping its escape sequences. When it has to cut,
 * it closes the active styles and appends `ellipsis` (itself cut if it does not fit). With `pad`, the
 * result is padded with spaces to exactly `maxWidth` columns.
 */
export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", pad = false): string {
	if (maxWidth <= 0) return "";
	const width = visibleWidth(text);
	if (width <= maxWidth) return pad ? text + " ".repeat(maxWidth - width) : text;
	const ellipsisWidth = visibleWidth(ellipsis);
	if (ellipsisWidth >= maxWidth) {
		const cutEllipsis = ellipsisWidth > maxWidth ? sliceByColumn(ellipsis, 0, maxWidth) : ellipsis;
		return pad ? cutEllipsis + " ".repeat(Math.max(0, maxWidth - visibleWidth(cutEllipsis))) : cutEllipsis;
	}
	const budget = maxWidth - ellipsisWidth;
	const style = new StyleState();
	let out = "";
	let used = 0;
	for (const piece of styledPieces(text)) {
		if (piece.kind === "escape") {
			style.apply(piece.text);
			out += piece.text;
			continue;
		}
		if (used + piece.width > budget) break;
		out += piece.text;
		used += piece.width;
	}
	out += style.closeSequence() + ellipsis;
	used += ellipsisWidth;
	return pad && used < maxWidth ? out + " ".repeat(maxWidth - used) : out;
}

/**
 * The part of `text` that covers columns [startColumn, startColumn + width), with the styles active at
 * `startColumn` re-opened in front and closed at the end. A wide character cut by either edge becomes
 * spaces, so the result is exactly as wide as the covered range (shorter only if the text ends first).
 */
export function sliceByColumn(text: string, startColumn: number, width: number): string {
	const endColumn = startColumn + width;
	const style = new StyleState();
	let out = "";
	let column = 0;
	let started = false;
	for (const piece of styledPieces(text)) {
		if (piece.kind === "escape") {
			style.apply(piece.text);
			if (started) out += piece.text;
			continue;
		}
		if (column >= endColumn) break;
		const pieceEnd = column + piece.width;
		if (pieceEnd <= startColumn) {
			column = pieceEnd;
			continue;
		}
		if (!started) {
			out += style.openSequence();
			started = true;
		}
		if (column < startColumn || pieceEnd > endColumn) {
			// A wide grapheme straddling an edge: fill the covered cells with spaces instead.
			out += " ".repeat(Math.min(pieceEnd, endColumn) - Math.max(column, startColumn));
		} else {
			out += piece.text;
		}
		column = pieceEnd;
	}
	return started ? out + style.closeSequence() : out;
}

/** Pads `text` with spaces to `width` visible columns (never cuts). */
export function padToWidth(text: string, width: number): string {
	const current = visibleWidth(text);
	return current >= width ? text : text + " ".repeat(width - current);
}
