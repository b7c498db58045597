import { eastAsianWidth } from "get-east-asian-width";
import { escapeSequenceLength } from "./ansi.js";

/** Columns a tab occupies; rendered lines have their tabs replaced by this many spaces before writing. */
export const TAB_WIDTH = 3;

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Splits plain text (no escape sequences) into grapheme clusters. */
export function splitGraphemes(text: string): string[] {
	const out: string[] = [];
	for (const { segment } of graphemeSegmenter.segment(text)) out.push(segment);
	return out;
}

/** Iterates the grapheme clusters of plain text with their code-unit offsets. */
export function segmentGraphemes(text: string): Iterable<{ segment: string; index: number }> {
	return graphemeSegmenter.segment(text);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]$/u;
const EXTENDED_PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const EMOJI_PRESENTATION = /\p{Emoji_Presentation}/u;
const REGIONAL_INDICATOR = /^[\u{1F1E6}-\u{1F1FF}]$/u;
/** Variation selector 16, zero-width joiner, or a skin-tone modifier. */
const EMOJI_JOINERS = /\uFE0F|\u200D|[\u{1F3FB}-\u{1F3FF}]/u;

const widthCache = new Map<string, number>();
const WIDTH_CACHE_LIMIT = 4096;

/**
 * Terminal columns of one grapheme cluster, the way modern terminals (kitty, WezTerm, Ghostty, iTerm2,
 * Windows Terminal) draw them: East-Asian wide and fullwidth characters and emoji take 2 columns, a
 * whole emoji ZWJ sequence or flag takes 2, combining marks and format characters take 0.
 */
export function graphemeWidth(grapheme: string): number {
	const first = grapheme.charCodeAt(0);
	if (grapheme.length === 1 && first >= 0x20 && first < 0x7f) return 1;
	if (grapheme === "\t") return TAB_WIDTH;
	const cached = widthCache.get(grapheme);
	if (cached !== undefined) return cached;
	const width = computeGraphemeWidth(grapheme);
	if (widthCache.size >= WIDTH_CACHE_LIMIT) widthCache.clear();
	widthCache.set(grapheme, width);
	return width;
}

function computeGraphemeWidth(grapheme: string): number {
	const codePoint = grapheme.codePointAt(0) ?? 0;
	const base = String.fromCodePoint(codePoint);
	if (ZERO_WIDTH.test(base)) {
		// A lone mark or format character (ZWJ, ZWSP, soft controls) occupies no cell.
		return grapheme.length === base.length ? 0 : computeGraphemeWidth(grapheme.slice(base.length));
	}
	// Hangul jungseong/jongseong and similar conjoining parts carry no width of their own.
	if (codePoint >= 0x1160 && codePoint <= 0x11ff) return 0;
	if (grapheme.length > base.length) {
		if (REGIONAL_INDICATOR.test(base)) return 2;
		// Emoji with a variation selector 16, a skin-tone modifier or a ZWJ continuation render as one wide glyph.
		if (EXTENDED_PICTOGRAPHIC.test(base) && EMOJI_JOINERS.test(grapheme)) return 2;
		if (grapheme.includes("\u20E3")) return 2; // keycap sequences such as 1️⃣
	}
	if (EMOJI_PRESENTATION.test(base)) return 2;
	if (REGIONAL_INDICATOR.test(base)) return 1;
	return eastAsianWidth(codePoint);
}

/**
 * Visible width of a string in terminal columns: escape sequences (CSI, OSC, APC, ...) count as zero,
 * wide characters and emoji as two, per grapheme cluster.
 */
export function visibleWidth(text: string): number {
	if (PRINTABLE_ASCII.test(text)) return text.length;
	let width = 0;
	let i = 0;
	while (i < text.length) {
		const escapeLength = escapeSequenceLength(text, i);
		if (escapeLength > 0) {
			i += escapeLength;
			continue;
		}
		const next = text.indexOf("\x1b", i + 1);
		const end = next === -1 ? text.length : next;
		width += plainTextWidth(text.slice(i, end));
		i = end;
	}
	return width;
}

/** Width of text that contains no escape sequences. */
export function plainTextWidth(text: string): number {
	if (PRINTABLE_ASCII.test(text)) return text.length;
	let width = 0;
	for (const { segment } of graphemeSegmenter.segment(text)) width += graphemeWidth(segment);
	return width;
}
