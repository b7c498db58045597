import { graphemeWidth, segmentGraphemes } from "../text/width.js";

/** One row of the editor: a slice [start, end) of logical line `line`. */
export interface VisualLine {
	line: number;
	start: number;
	end: number;
}

function isSpace(grapheme: string): boolean {
	return grapheme === " ";
}

/**
 * Word-wraps one logical line into rows of at most `width` columns. A single space may hang past the
 * width at a wrap point (the editor keeps one spare column for it and for the cursor at a row's end).
 */
export function wrapLogicalLine(text: string, lineIndex: number, width: number): VisualLine[] {
	const rows: VisualLine[] = [];
	let rowStart = 0;
	let column = 0;
	let breakAt = -1;
	let widthAfterBreak = 0;
	for (const { segment, index } of segmentGraphemes(text)) {
		const segmentWidth = graphemeWidth(segment);
		const space = isSpace(segment);
		if (column + segmentWidth > width && !(space && column + segmentWidth <= width + 1)) {
			if (!space && breakAt > rowStart) {
				rows.push({ line: lineIndex, start: rowStart, end: breakAt });
				rowStart = breakAt;
				column = widthAfterBreak;
			} else if (index > rowStart) {
				rows.push({ line: lineIndex, start: rowStart, end: index });
				rowStart = index;
				column = 0;
			}
			breakAt = -1;
			widthAfterBreak = 0;
		}
		column += segmentWidth;
		if (space) {
			breakAt = index + segment.length;
			widthAfterBreak = 0;
		} else if (breakAt !== -1) {
			widthAfterBreak += segmentWidth;
		}
	}
	rows.push({ line: lineIndex, start: rowStart, end: text.length });
	return rows;
}

/** All rows of the editor text for a content width. */
export function layoutLines(lines: readonly string[], width: number): VisualLine[] {
	const rows: VisualLine[] = [];
	lines.forEach((text, index) => {
		for (const row of wrapLogicalLine(text, index, width)) rows.push(row);
	});
	return rows;
}

/** Index of the row that shows the cursor (a cursor at a wrap point belongs to the next row). */
export function findCursorRow(rows: readonly VisualLine[], cursorLine: number, cursorCol: number): number {
	let candidate = -1;
	for (let i = 0; i < rows.length; i++) {
		const row = rows[i];
		if (row.line !== cursorLine) {
			if (candidate !== -1) break;
			continue;
		}
		candidate = i;
		if (cursorCol >= row.start && cursorCol < row.end) return i;
	}
	return Math.max(0, candidate);
}

/** Columns from the row's start to `offset`. */
export function columnOf(text: string, row: VisualLine, offset: number): number {
	let width = 0;
	for (const { segment, index } of segmentGraphemes(text.slice(row.start, offset))) {
		if (index >= offset - row.start) break;
		width += graphemeWidth(segment);
	}
	return width;
}

/**
 * The offset in `row` closest to visual column `targetColumn` without passing it. On a row that wraps
 * into the next one, the row's end belongs to the next row, so the last reachable offset is before it.
 */
export function offsetAtColumn(text: string, row: VisualLine, targetColumn: number, isLastRowOfLine: boolean): number {
	let column = 0;
	let offset = row.start;
	for (const { segment, index } of segmentGraphemes(text.slice(row.start, row.end))) {
		const width = graphemeWidth(segment);
		if (column + width > targetColumn) return row.start + index;
		column += width;
		offset = row.start + index + segment.length;
	}
	if (!isLastRowOfLine && offset >= row.end && row.end > row.start) {
		// Step back one grapheme so the cursor stays on this row.
		let last = row.start;
		for (const { index } of segmentGraphemes(text.slice(row.start, row.end))) last = row.start + index;
		return last;
	}
	return offset;
}
