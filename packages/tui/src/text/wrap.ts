import { escapeSequenceLength, StyleState } from "./ansi.js";
import { type StyledPiece, styledPieces } from "./truncate.js";
import { visibleWidth } from "./width.js";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

interface WrapUnit {
	pieces: StyledPiece[];
	width: number;
	isSpace: boolean;
}

function isSpaceGrapheme(text: string): boolean {
	return text === " " || text === "\t";
}

/** Groups the pieces of one logical line into alternating runs of spaces and words. */
function toUnits(line: string): WrapUnit[] {
	const units: WrapUnit[] = [];
	let current: WrapUnit | undefined;
	let pendingEscapes: StyledPiece[] = [];
	for (const piece of styledPieces(line)) {
		if (piece.kind === "escape") {
			// Escapes travel with the text that follows them, so a wrapped word keeps its opening style.
			pendingEscapes.push(piece);
			continue;
		}
		const isSpace = isSpaceGrapheme(piece.text);
		if (!current || current.isSpace !== isSpace) {
			current = { pieces: [], width: 0, isSpace };
			units.push(current);
		}
		if (pendingEscapes.length > 0) {
			current.pieces.push(...pendingEscapes);
			pendingEscapes = [];
		}
		current.pieces.push(piece);
		current.width += piece.width;
	}
	if (pendingEscapes.length > 0) units.push({ pieces: pendingEscapes, width: 0, isSpace: false });
	return units;
}

/** Splits a word wider than `width` into chunks of at most `width` columns. */
function chopWord(unit: WrapUnit, width: number): WrapUnit[] {
	const chunks: WrapUnit[] = [];
	let chunk: WrapUnit = { pieces: [], width: 0, isSpace: false };
	for (const piece of unit.pieces) {
		const pieceWidth = piece.kind === "grapheme" ? piece.width : 0;
		if (chunk.width + pieceWidth > width && chunk.width > 0) {
			chunks.push(chunk);
			chunk = { pieces: [], width: 0, isSpace: false };
		}
		chunk.pieces.push(piece);
		chunk.width += pieceWidth;
	}
	chunks.push(chunk);
	return chunks;
}

/** Greedy word wrap of one logical line's units into visual lines (as lists of units). */
interface PlacedUnit {
	unit: WrapUnit;
	/** False for spaces at a wrap point: not drawn, but their escapes still count for the style state. */
	drawn: boolean;
}

function breakUnits(units: WrapUnit[], width: number): PlacedUnit[][] {
	const lines: PlacedUnit[][] = [];
	let line: PlacedUnit[] = [];
	let column = 0;
	const newLine = () => {
		for (let i = line.length - 1; i >= 0 && line[i].unit.isSpace; i--) line[i].drawn = false;
		lines.push(line);
		line = [];
		column = 0;
	};
	const place = (unit: WrapUnit) => {
		line.push({ unit, drawn: true });
		column += unit.width;
	};
	for (const unit of units) {
		if (unit.isSpace) {
			if (column + unit.width <= width) {
				place(unit);
			} else {
				line.push({ unit, drawn: false });
				if (column > 0) newLine();
			}
			continue;
		}
		if (column + unit.width <= width) {
			place(unit);
			continue;
		}
		if (column > 0) newLine();
		if (unit.width <= width) {
			place(unit);
			continue;
		}
		const chunks = chopWord(unit, width);
		for (let i = 0; i < chunks.length; i++) {
			if (i > 0) newLine();
			place(chunks[i]);
		}
	}
	lines.push(line);
	return lines;
}

/**
 * Word-wraps styled text to `width` columns. Each `\n` starts a new line; words longer than the width
 * are broken by grapheme. Styles (SGR attributes and OSC 8 links) active at a line break are closed at
 * the end of that line and re-opened at the start of the next, so every line is self-contained.
 */
export function wrapTextWithAnsi(text: string, width: number): string[] {
	const columns = Math.max(1, Math.floor(width));
	const style = new StyleState();
	const out: string[] = [];
	for (const logicalLine of text.split("\n")) {
		const hasEscapes = logicalLine.includes("\x1b");
		if (!hasEscapes && !style.isActive && PRINTABLE_ASCII.test(logicalLine)) {
			// The common case (plain ASCII) without the per-grapheme machinery.
			if (logicalLine.length <= columns) out.push(logicalLine);
			else wrapPlainAscii(logicalLine, columns, out);
			continue;
		}
		if (visibleWidth(logicalLine) <= columns) {
			let line = style.openSequence() + logicalLine;
			if (hasEscapes) applyEscapes(logicalLine, style);
			line += style.closeSequence();
			out.push(line);
			continue;
		}
		for (const visual of breakUnits(toUnits(logicalLine), columns)) {
			let line = style.openSequence();
			for (const { unit, drawn } of visual) {
				for (const piece of unit.pieces) {
					if (piece.kind === "escape") {
						style.apply(piece.text);
						line += piece.text;
					} else if (drawn) {
						line += piece.text;
					}
				}
			}
			out.push(line + style.closeSequence());
		}
	}
	return out;
}

function applyEscapes(line: string, style: StyleState): void {
	for (let i = line.indexOf("\x1b"); i !== -1 && i < line.length; i = line.indexOf("\x1b", i + 1)) {
		const length = escapeSequenceLength(line, i);
		if (length > 0) style.apply(line.slice(i, i + length));
	}
}

/** Same result as the general wrap for printable ASCII without styles (one column per character). */
function wrapPlainAscii(line: string, width: number, out: string[]): void {
	let current = "";
	let i = 0;
	while (i < line.length) {
		const isSpace = line[i] === " ";
		let end = i;
		while (end < line.length && (line[end] === " ") === isSpace) end++;
		const unit = line.slice(i, end);
		i = end;
		if (isSpace) {
			if (current.length + unit.length <= width) current += unit;
			else if (current.length > 0) {
				out.push(current.trimEnd());
				current = "";
			}
			continue;
		}
		if (current.length + unit.length <= width) {
			current += unit;
			continue;
		}
		if (current.length > 0) {
			out.push(current.trimEnd());
			current = "";
		}
		let rest = unit;
		while (rest.length > width) {
			out.push(rest.slice(0, width));
			rest = rest.slice(width);
		}
		current = rest;
	}
	out.push(current);
}
