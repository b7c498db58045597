/**
 * The pure parts of the edit tool: line endings and BOM, fuzzy text location, and the edit itself.
 * The diff shown to users is in line-diff.ts.
 */

export type LineEnding = "\r\n" | "\n";

/** `\r\n` when the first CRLF comes before the first lone LF, otherwise `\n`. */
export function detectLineEnding(content: string): LineEnding {
	const crlf = content.indexOf("\r\n");
	if (crlf === -1) return "\n";
	const lf = content.indexOf("\n");
	return crlf < lf ? "\r\n" : "\n";
}

export function normalizeToLF(text: string): string {
	return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

export function restoreLineEndings(text: string, ending: LineEnding): string {
	return ending === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
}

export function stripBom(content: string): { bom: string; text: string } {
	return content.startsWith("\uFEFF") ? { bom: "\uFEFF", text: content.slice(1) } : { bom: "", text: content };
}

const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F]/g;
const DASHES = /[\u2010-\u2015\u2212]/g;
const SPACES = /[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g;
const NON_ASCII = /[^\x00-\x7F]/;

/** NFKC, then the typographic quotes, dashes and spaces models replace by ASCII. No line structure change. */
function normalizeCharacters(text: string): string {
	if (!NON_ASCII.test(text)) return text;
	return text
		.normalize("NFKC")
		.replace(SINGLE_QUOTES, "'")
		.replace(DOUBLE_QUOTES, '"')
		.replace(DASHES, "-")
		.replace(SPACES, " ");
}

/**
 * What fuzzy matching compares: NFKC; trailing whitespace removed from every line; the quotes
 * U+2018–U+201B → `'` and U+201C–U+201F → `"`; the dashes U+2010–U+2015 and U+2212 → `-`; the spaces
 * U+00A0, U+2002–U+200A, U+202F, U+205F, U+3000 → ` `.
 */
export function normalizeForFuzzyMatch(text: string): string {
	return trimTrailingWhitespacePerLine(normalizeCharacters(text));
}

/** Whether a UTF-16 unit is what `String.prototype.trimEnd` removes (WhiteSpace and LineTerminator). */
function isTrimmable(code: number): boolean {
	if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
	return /\s/.test(String.fromCharCode(code));
}

/**
 * `trimEnd()` of every `\n`-separated line, without splitting a large file into lines: only lines that end in
 * whitespace are copied.
 */
function trimTrailingWhitespacePerLine(text: string): string {
	const kept: string[] = [];
	let copiedUpTo = 0;
	let lineStart = 0;
	for (;;) {
		const newline = text.indexOf("\n", lineStart);
		const lineEnd = newline === -1 ? text.length : newline;
		let end = lineEnd;
		while (end > lineStart && isTrimmable(text.charCodeAt(end - 1))) end--;
		if (end !== lineEnd) {
			kept.push(text.slice(copiedUpTo, end));
			copiedUpTo = lineEnd;
		}
		if (newline === -1) break;
		lineStart = newline + 1;
	}
	if (copiedUpTo === 0) return text;
	kept.push(text.slice(copiedUpTo));
	return kept.join("");
}

export interface FuzzyMatchResult {
	found: boolean;
	/** Where the match starts in `contentForReplacement`. */
	index: number;
	matchLength: number;
	usedFuzzyMatch: boolean;
	/**
	 * The text to splice the replacement into. Ours differs: the reference used the whole normalized file
	 * here, so one fuzzy edit also rewrote every quote, dash, NFKC character and trailing space elsewhere in the
	 * file. Ours is the original content; only when a matched line cannot be mapped back character by
	 * character are the matched lines (and only those) taken in normalized form.
	 */
	contentForReplacement: string;
}

const COMBINING_MARK = /\p{M}/u;

interface LineUnit {
	originalStart: number;
	originalEnd: number;
	normalizedStart: number;
	normalizedEnd: number;
}

/**
 * Splits a line into units (a character with its combining marks) and normalizes each one, so a column of
 * the normalized line can be mapped back. Returns undefined when unit-wise normalization does not reproduce
 * the normalized line (compositions across units, e.g. conjoining jamo).
 */
function mapLineUnits(originalLine: string, normalizedLine: string): LineUnit[] | undefined {
	const units: LineUnit[] = [];
	const parts: string[] = [];
	let normalizedLength = 0;
	let index = 0;
	while (index < originalLine.length) {
		const code = originalLine.charCodeAt(index);
		let end = index + (code >= 0xd800 && code <= 0xdbff ? 2 : 1);
		// Combining marks all lie at U+0300 and above; an ASCII character followed by one below that is its own unit.
		const plainAscii = code < 0x80 && (end >= originalLine.length || originalLine.charCodeAt(end) < 0x300);
		if (!plainAscii) {
			while (end < originalLine.length) {
				const next = String.fromCodePoint(originalLine.codePointAt(end)!);
				if (!COMBINING_MARK.test(next)) break;
				end += next.length;
			}
		}
		const normalized = plainAscii ? originalLine[index] : normalizeCharacters(originalLine.slice(index, end));
		units.push({
			originalStart: index,
			originalEnd: end,
			normalizedStart: normalizedLength,
			normalizedEnd: normalizedLength + normalized.length,
		});
		parts.push(normalized);
		normalizedLength += normalized.length;
		index = end;
	}
	return parts.join("").trimEnd() === normalizedLine ? units : undefined;
}

/** Column in the original line for a column of the normalized line; `end` columns round outward. */
function toOriginalColumn(
	originalLine: string,
	normalizedLine: string,
	units: LineUnit[],
	column: number,
	bias: "start" | "end",
): number {
	if (column === 0) return 0;
	if (column >= normalizedLine.length && bias === "start") return originalLine.length;
	for (const unit of units) {
		if (bias === "start" && unit.normalizedStart <= column && column < unit.normalizedEnd) return unit.originalStart;
		if (bias === "end" && unit.normalizedStart < column && column <= unit.normalizedEnd) return unit.originalEnd;
	}
	return originalLine.length;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
	let line = 0;
	let lineStart = 0;
	let newline = text.indexOf("\n");
	while (newline !== -1 && newline < offset) {
		line++;
		lineStart = newline + 1;
		newline = text.indexOf("\n", lineStart);
	}
	return { line, column: offset - lineStart };
}

function lineStartOffsets(text: string): number[] {
	const starts = [0];
	let newline = text.indexOf("\n");
	while (newline !== -1) {
		starts.push(newline + 1);
		newline = text.indexOf("\n", newline + 1);
	}
	return starts;
}

/** Maps a match found in normalized space back onto `content` (see `FuzzyMatchResult`). */
function mapFuzzyMatch(content: string, normalizedContent: string, start: number, length: number): FuzzyMatchResult {
	const from = lineAndColumn(normalizedContent, start);
	const to = lineAndColumn(normalizedContent, start + length);
	const originalStarts = lineStartOffsets(content);
	const normalizedStarts = lineStartOffsets(normalizedContent);
	if (originalStarts.length !== normalizedStarts.length) {
		return {
			found: true,
			index: start,
			matchLength: length,
			usedFuzzyMatch: true,
			contentForReplacement: normalizedContent,
		};
	}
	const lineOf = (starts: number[], text: string, line: number) =>
		text.slice(starts[line], line + 1 < starts.length ? starts[line + 1] - 1 : text.length);
	const originalFrom = lineOf(originalStarts, content, from.line);
	const normalizedFrom = lineOf(normalizedStarts, normalizedContent, from.line);
	const originalTo = lineOf(originalStarts, content, to.line);
	const normalizedTo = lineOf(normalizedStarts, normalizedContent, to.line);
	const fromUnits = mapLineUnits(originalFrom, normalizedFrom);
	const toUnits = from.line === to.line ? fromUnits : mapLineUnits(originalTo, normalizedTo);

	if (fromUnits && toUnits) {
		const index =
			originalStarts[from.line] + toOriginalColumn(originalFrom, normalizedFrom, fromUnits, from.column, "start");
		const end = originalStarts[to.line] + toOriginalColumn(originalTo, normalizedTo, toUnits, to.column, "end");
		return { found: true, index, matchLength: end - index, usedFuzzyMatch: true, contentForReplacement: content };
	}
	// Fall back to the matched lines in normalized form; the rest of the file stays as it was.
	const originalSpanStart = originalStarts[from.line];
	const originalSpanEnd = originalStarts[to.line] + originalTo.length;
	const normalizedSpan = normalizedContent.slice(
		normalizedStarts[from.line],
		normalizedStarts[to.line] + normalizedTo.length,
	);
	return {
		found: true,
		index: originalSpanStart + from.column,
		matchLength: length,
		usedFuzzyMatch: true,
		contentForReplacement: content.slice(0, originalSpanStart) + normalizedSpan + content.slice(originalSpanEnd),
	};
}

/** Finds `oldText` in `content`: exactly first, then in fuzzy-normalized space. */
export function fuzzyFindText(content: string, oldText: string): FuzzyMatchResult {
	const exact = content.indexOf(oldText);
	if (exact !== -1) {
		return {
			found: true,
			index: exact,
			matchLength: oldText.length,
			usedFuzzyMatch: false,
			contentForReplacement: content,
		};
	}
	const normalizedContent = normalizeForFuzzyMatch(content);
	const normalizedOld = normalizeForFuzzyMatch(oldText);
	// Text that is only whitespace once normalized says nothing about where it is: it must match exactly.
	const fuzzy = normalizedOld.trim() ? normalizedContent.indexOf(normalizedOld) : -1;
	if (fuzzy === -1) {
		return { found: false, index: -1, matchLength: 0, usedFuzzyMatch: false, contentForReplacement: content };
	}
	return mapFuzzyMatch(content, normalizedContent, fuzzy, normalizedOld.length);
}

/** Non-overlapping occurrences of `needle` in `haystack`. */
export function countOccurrences(haystack: string, needle: string): number {
	if (!needle) return 0;
	let count = 0;
	let index = haystack.indexOf(needle);
	while (index !== -1) {
		count++;
		index = haystack.indexOf(needle, index + needle.length);
	}
	return count;
}

export const EMPTY_OLD_TEXT_MESSAGE =
	"oldText must not be empty. Include the exact text to replace in oldText, or use the write tool to write the whole file.";

export const notFoundMessage = (path: string) =>
	`Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`;

export const occurrencesMessage = (count: number, path: string) =>
	`Found ${count} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`;

/**
 * Replaces the single occurrence of `oldText` in `content` (both LF-normalized, no BOM) by `newText`.
 * Throws the model-facing messages when the text is missing, ambiguous or empty. Uniqueness is counted in
 * fuzzy-normalized space even for exact matches, so near-duplicates are never silently picked.
 */
export function replaceUniqueText(
	content: string,
	oldText: string,
	newText: string,
	path: string,
): { newContent: string; usedFuzzyMatch: boolean } {
	if (oldText.length === 0) throw new Error(EMPTY_OLD_TEXT_MESSAGE);
	const match = fuzzyFindText(content, oldText);
	if (!match.found) throw new Error(notFoundMessage(path));
	const occurrences = countOccurrences(normalizeForFuzzyMatch(content), normalizeForFuzzyMatch(oldText));
	if (occurrences > 1) throw new Error(occurrencesMessage(occurrences, path));
	const base = match.contentForReplacement;
	return {
		newContent: base.slice(0, match.index) + newText + base.slice(match.index + match.matchLength),
		usedFuzzyMatch: match.usedFuzzyMatch,
	};
}
