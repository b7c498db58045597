// A small Markdown-to-HTML renderer for exported sessions: fenced code, headings, lists, quotes, tables, rules,
// code spans, emphasis and http(s)/mailto links. Every piece of source text is escaped before it is wrapped in a
// tag, and no source text ever becomes a tag or an attribute name, so the output is safe for any input.
// Each construct is found in time linear in its text (no backtracking regexes over whole messages).
import { escapeHtml, normalizeNewlines } from "./html-text.js";

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const TABLE_SEPARATOR_CELL = /^:?-+:?$/;
const LANGUAGE = /^[\w+#.-]{1,30}$/;
const SAFE_URL = /^(?:https?:\/\/|mailto:)/i;
const LINK = /\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)/y;
const EMPHASIS_MARKER = /[*_~]/;
const NOT_BLANK = /\S/;
const PLAIN_TEXT_START = /^[ \t]*\p{L}/u;
/** Where a code span or a link may start. */
const INLINE_START = /[`[]/g;
/** Past this size a paragraph is shown escaped but unformatted. */
const MAX_INLINE_LENGTH = 100_000;
const MAX_QUOTE_DEPTH = 4;

/** Markdown source to an HTML fragment. */
export function renderMarkdown(text: string): string {
	const parts: string[] = [];
	renderBlocks(normalizeNewlines(text).split("\n"), parts, 0);
	return parts.join("");
}

/**
 * Whether a non-blank line is surely paragraph text: it starts (after indentation) with a letter and has no `|`.
 * Every other block starts with a mark or a digit (ordered lists), and tables need a `|`, so most prose lines skip
 * the block patterns below.
 */
function isPlainTextLine(line: string): boolean {
	return PLAIN_TEXT_START.test(line) && !line.includes("|");
}

function renderBlocks(lines: readonly string[], parts: string[], depth: number): void {
	let i = 0;
	while (i < lines.length) {
		const line = lines[i] ?? "";
		if (!NOT_BLANK.test(line)) {
			i++;
			continue;
		}
		if (isPlainTextLine(line)) {
			i = renderParagraph(lines, i, parts);
			continue;
		}
		const fence = FENCE.exec(line);
		if (fence) {
			i = renderFence(lines, i, fence[1] ?? "```", fence[2] ?? "", parts);
			continue;
		}
		const heading = HEADING.exec(line);
		if (heading) {
			const level = (heading[1] ?? "#").length;
			parts.push(`<h${level}>${renderInline(headingText(heading[2] ?? ""))}</h${level}>`);
			i++;
			continue;
		}
		if (RULE.test(line)) {
			parts.push("<hr>");
			i++;
			continue;
		}
		if (QUOTE.test(line)) {
			i = renderQuote(lines, i, parts, depth);
			continue;
		}
		if (isTableStart(lines, i)) {
			i = renderTable(lines, i, parts);
			continue;
		}
		if (LIST_ITEM.test(line)) {
			i = renderList(lines, i, parts);
			continue;
		}
		i = renderParagraph(lines, i, parts);
	}
}

function startsBlock(lines: readonly string[], index: number): boolean {
	const line = lines[index] ?? "";
	if (!NOT_BLANK.test(line)) return true;
	if (isPlainTextLine(line)) return false;
	return (
		FENCE.test(line) ||
		HEADING.test(line) ||
		RULE.test(line) ||
		QUOTE.test(line) ||
		LIST_ITEM.test(line) ||
		isTableStart(lines, index)
	);
}

function renderFence(
	lines: readonly string[],
	start: number,
	marker: string,
	language: string,
	parts: string[],
): number {
	const fenceChar = marker[0] ?? "`";
	const body: string[] = [];
	let i = start + 1;
	while (i < lines.length) {
		const line = lines[i] ?? "";
		const trimmed = line.trim();
		if (trimmed.length >= marker.length && trimmed === fenceChar.repeat(trimmed.length)) {
			i++;
			break;
		}
		body.push(line);
		i++;
	}
	const languageClass = LANGUAGE.test(language) ? ` class="language-${escapeHtml(language)}"` : "";
	parts.push(`<pre class="code"><code${languageClass}>${escapeHtml(body.join("\n"))}</code></pre>`);
	return i;
}

function renderQuote(lines: readonly string[], start: number, parts: string[], depth: number): number {
	const inner: string[] = [];
	let i = start;
	while (i < lines.length && QUOTE.test(lines[i] ?? "")) {
		inner.push((lines[i] ?? "").replace(QUOTE, ""));
		i++;
	}
	parts.push("<blockquote>");
	if (depth < MAX_QUOTE_DEPTH) renderBlocks(inner, parts, depth + 1);
	else parts.push(`<p>${renderLines(inner)}</p>`);
	parts.push("</blockquote>");
	return i;
}

/** `## Title ##` → `Title` (a closing run of #s needs a space before it). */
function headingText(text: string): string {
	const trimmed = text.trimEnd();
	let end = trimmed.length;
	while (end > 0 && trimmed[end - 1] === "#") end--;
	if (end === trimmed.length) return trimmed;
	if (end === 0) return "";
	const before = trimmed[end - 1];
	return before === " " || before === "\t" ? trimmed.slice(0, end).trimEnd() : trimmed;
}

function isTableStart(lines: readonly string[], index: number): boolean {
	const header = lines[index] ?? "";
	const separator = lines[index + 1];
	if (separator === undefined || !header.includes("|") || !separator.includes("|")) return false;
	return splitRow(separator).every((cell) => TABLE_SEPARATOR_CELL.test(cell));
}

function splitRow(line: string): string[] {
	let row = line.trim();
	if (row.startsWith("|")) row = row.slice(1);
	if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
	return row.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

function renderTable(lines: readonly string[], start: number, parts: string[]): number {
	const headerCells = splitRow(lines[start] ?? "");
	parts.push("<table><thead><tr>");
	for (const cell of headerCells) parts.push(`<th>${renderInline(cell)}</th>`);
	parts.push("</tr></thead><tbody>");
	let i = start + 2;
	while (i < lines.length) {
		const line = lines[i] ?? "";
		if (line.trim() === "" || !line.includes("|")) break;
		parts.push("<tr>");
		for (const cell of splitRow(line)) parts.push(`<td>${renderInline(cell)}</td>`);
		parts.push("</tr>");
		i++;
	}
	parts.push("</tbody></table>");
	return i;
}

/** One list per run of items of the same kind; nested items are kept as items, indented. */
function renderList(lines: readonly string[], start: number, parts: string[]): number {
	const first = LIST_ITEM.exec(lines[start] ?? "");
	const isOrdered = first !== null && /^\d/.test(first[2] ?? "");
	if (isOrdered) {
		const startNumber = Number.parseInt(first?.[2] ?? "1", 10);
		parts.push(startNumber === 1 ? "<ol>" : `<ol start="${startNumber}">`);
	} else {
		parts.push("<ul>");
	}
	let i = start;
	while (i < lines.length) {
		const item = LIST_ITEM.exec(lines[i] ?? "");
		if (!item) break;
		const indent = (item[1] ?? "").replace(/\t/g, "  ").length;
		if (indent === 0 && /^\d/.test(item[2] ?? "") !== isOrdered) break;
		const itemLines = [item[3] ?? ""];
		i++;
		// Continuation lines: indented text that starts no block of its own.
		while (i < lines.length && /^[ \t]+\S/.test(lines[i] ?? "") && !startsBlock(lines, i)) {
			itemLines.push((lines[i] ?? "").trim());
			i++;
		}
		const level = Math.min(3, Math.floor(indent / 2));
		parts.push(level > 0 ? `<li class="indent-${level}">` : "<li>", renderLines(itemLines), "</li>");
	}
	parts.push(isOrdered ? "</ol>" : "</ul>");
	return i;
}

function renderParagraph(lines: readonly string[], start: number, parts: string[]): number {
	const paragraph = [lines[start] ?? ""];
	let i = start + 1;
	while (i < lines.length && !startsBlock(lines, i)) {
		paragraph.push(lines[i] ?? "");
		i++;
	}
	parts.push(`<p>${renderLines(paragraph)}</p>`);
	return i;
}

/** Lines of one block, with their line breaks kept (transcripts read better that way than reflowed). */
function renderLines(lines: readonly string[]): string {
	return renderInline(lines.join("\n")).replace(/\n/g, "<br>\n");
}

/** Inline Markdown: code spans and links are found by a left-to-right scan; emphasis applies to the rest. */
export function renderInline(text: string): string {
	if (text.length > MAX_INLINE_LENGTH) return escapeHtml(text);
	let out = "";
	let plainStart = 0;
	let i = 0;
	// Backtick run lengths known to have no closing run at or after the recorded position.
	const unclosedFrom = new Map<number, number>();
	const flushPlain = (end: number) => {
		if (end > plainStart) out += emphasize(escapeHtml(text.slice(plainStart, end)));
	};
	while (i < text.length) {
		INLINE_START.lastIndex = i;
		const next = INLINE_START.exec(text);
		if (next === null) break;
		i = next.index;
		const char = text[i];
		if (char === "`") {
			let runEnd = i;
			while (text[runEnd] === "`") runEnd++;
			const runLength = runEnd - i;
			const close = findClosingRun(text, runEnd, runLength, unclosedFrom);
			if (close === -1) {
				i = runEnd;
				continue;
			}
			flushPlain(i);
			let code = text.slice(runEnd, close);
			if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ")) code = code.slice(1, -1);
			out += `<code>${escapeHtml(code)}</code>`;
			i = close + runLength;
			plainStart = i;
			continue;
		}
		if (char === "[") {
			LINK.lastIndex = i;
			const link = LINK.exec(text);
			if (link) {
				flushPlain(i);
				out += renderLink(link[1] ?? "", link[2] ?? "");
				i += link[0].length;
				plainStart = i;
				continue;
			}
		}
		i++;
	}
	flushPlain(text.length);
	return out;
}

function findClosingRun(text: string, from: number, length: number, unclosedFrom: Map<number, number>): number {
	const knownUnclosed = unclosedFrom.get(length);
	if (knownUnclosed !== undefined && knownUnclosed <= from) return -1;
	const marker = "`".repeat(length);
	let index = text.indexOf(marker, from);
	while (index !== -1) {
		let end = index;
		while (text[end] === "`") end++;
		if (end - index === length) return index;
		index = text.indexOf(marker, end);
	}
	unclosedFrom.set(length, from);
	return -1;
}

function renderLink(label: string, url: string): string {
	if (!SAFE_URL.test(url)) return emphasize(escapeHtml(`[${label}](${url})`));
	return `<a href="${escapeHtml(url)}" rel="noopener noreferrer">${emphasize(escapeHtml(label))}</a>`;
}

/** Emphasis on already-escaped text: the tags wrap escaped text and never take any of it as markup. */
function emphasize(escaped: string): string {
	if (!EMPHASIS_MARKER.test(escaped)) return escaped;
	return escaped
		.replace(/\*\*(?!\s)([^*\n]+?)\*\*/g, "<strong>$1</strong>")
		.replace(/(^|[^\w])__(?!\s)([^_\n]+?)__(?!\w)/g, "$1<strong>$2</strong>")
		.replace(/\*(?!\s)([^*\n]+?)(?<!\s)\*/g, "<em>$1</em>")
		.replace(/(^|[^\w])_(?!\s)([^_\n]+?)(?<!\s)_(?!\w)/g, "$1<em>$2</em>")
		.replace(/~~(?!\s)([^~\n]+?)~~/g, "<del>$1</del>");
}
