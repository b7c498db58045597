import { eastAsianWidth } from "get-east-asian-width";
import { escapeSequenceLength } from "./ansi.js";

/** Columns a tab occupies; rendered lines have their tabs replaced by this many spaces before writing. */
export const TAB_WIDTH = 3;

let graphemeSegmenter: Intl.Segmenter | undefined;

/**
 * Text in which each code point is a grapheme cluster of its own (UAX #29 joins none of them to a neighbour): tab,
 * printable ASCII, Latin-1 and Latin Extended, IPA and spacing modifiers, Greek, Cyrillic, general punctuation
 * without the zero-width and bidi characters, super- and subscripts, currency, the symbol blocks from letterlike
 * symbols to arrows (box drawing, shapes, dingbats among them), CJK punctuation, kana and ideographs, fullwidth
 * forms. No combining mark, joiner, variation selector, Hangul jamo or regional indicator is in it. Such text is
 * split without Intl.Segmenter, whose first instance costs ~20 ms (ICU loads its break rules): the whole first
 * frame of the editor is such text.
 */
const SIMPLE_TEXT =
	/^[\t\x20-\x7e\u00a0-\u02ff\u0370-\u0482\u048a-\u052f\u2010-\u2027\u2030-\u205e\u2070-\u20cf\u2100-\u2bff\u3001-\u3029\u3030-\u303f\u3041-\u3096\u30a0-\u30ff\u4e00-\u9fff\uff01-\uff9d]*$/;

function segmenter(): Intl.Segmenter {
	graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
	return graphemeSegmenter;
}

function* codeUnitSegments(text: string): Generator<{ segment: string; index: number }> {
	for (let index = 0; index < text.length; index++) yield { segment: text.charAt(index), index };
}

/** Splits plain text (no escape sequences) into grapheme clusters. */
export function splitGraphemes(text: string): string[] {
	if (SIMPLE_TEXT.test(text)) return text.split("");
	const out: string[] = [];
	for (const { segment } of segmenter().segment(text)) out.push(segment);
	return out;
}

/** Iterates the grapheme clusters of plain text with their code-unit offsets. */
export function segmentGraphemes(text: string): Iterable<{ segment: string; index: number }> {
	return SIMPLE_TEXT.test(text) ? codeUnitSegments(text) : segmenter().segment(text);
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
	for (const { segment } of segmentGraphemes(text)) width += graphemeWidth(segment);
	return width;
}
