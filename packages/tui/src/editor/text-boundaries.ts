import { segmentGraphemes } from "../text/width.js";

/** Character classes for word movement: runs of the same class form one word. */
type CharClass = "space" | "word" | "punctuation";

function classOf(grapheme: string): CharClass {
	if (/^\s+$/u.test(grapheme)) return "space";
	if (/^[\p{L}\p{N}\p{M}_]/u.test(grapheme)) return "word";
	return "punctuation";
}

/** Whether `grapheme` is part of a word (letters, digits, underscore). */
export function isWordGrapheme(grapheme: string): boolean {
	return classOf(grapheme) === "word";
}

/** Code-unit offset of the grapheme boundary before `offset` (0 at the start). */
export function previousGraphemeBoundary(text: string, offset: number): number {
	if (offset <= 0) return 0;
	let previous = 0;
	for (const { index } of segmentGraphemes(text)) {
		if (index >= offset) break;
		previous = index;
	}
	return previous;
}

/** Code-unit offset of the grapheme boundary after `offset` (text.length at the end). */
export function nextGraphemeBoundary(text: string, offset: number): number {
	if (offset >= text.length) return text.length;
	for (const { index, segment } of segmentGraphemes(text)) {
		if (index + segment.length > offset) return index + segment.length;
	}
	return text.length;
}

function graphemesWithOffsets(text: string): { segment: string; index: number }[] {
	return [...segmentGraphemes(text)];
}

/** Start of the word before `offset`: skips spaces, then one run of word or punctuation characters. */
export function previousWordBoundary(text: string, offset: number): number {
	const graphemes = graphemesWithOffsets(text.slice(0, offset));
	let i = graphemes.length - 1;
	while (i >= 0 && classOf(graphemes[i].segment) === "space") i--;
	if (i < 0) return 0;
	const kind = classOf(graphemes[i].segment);
	while (i >= 0 && classOf(graphemes[i].segment) === kind) i--;
	return i < 0 ? 0 : graphemes[i].index + graphemes[i].segment.length;
}

/** End of the word after `offset`: skips spaces, then one run of word or punctuation characters. */
export function nextWordBoundary(text: string, offset: number): number {
	const rest = text.slice(offset);
	const graphemes = graphemesWithOffsets(rest);
	let i = 0;
	while (i < graphemes.length && classOf(graphemes[i].segment) === "space") i++;
	if (i >= graphemes.length) return text.length;
	const kind = classOf(graphemes[i].segment);
	while (i < graphemes.length && classOf(graphemes[i].segment) === kind) i++;
	return i >= graphemes.length ? text.length : offset + graphemes[i].index;
}
