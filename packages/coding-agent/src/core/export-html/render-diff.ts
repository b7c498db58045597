// Diffs as rows: the edit tool writes `+<n> text`, `-<n> text` and ` <n> text` lines, and a line of spaces ending in
// ` ...` where unchanged lines are skipped. Each row is one block holding only the line's
// text, with no text between rows, so nothing renders as an empty line; the line number (`data-n`) and the sign
// (the row's class) are drawn by the stylesheet, so copying a diff copies its code; the skip marker becomes a
// rule instead of a literal `...`. Compact on purpose: a long session holds thousands of diff lines.
import { escapeHtml, normalizeNewlines } from "./html-text.js";

type DiffKind = "add" | "del" | "ctx";

const NUMBERED_LINE = /^([+\- ]) *(\d+) (.*)$/s;
const SKIPPED_LINES = /^ +\.\.\.$/;

function row(kind: DiffKind, number: string, text: string): string {
	const kindClass = kind === "ctx" ? "" : ` class="d-${kind}"`;
	return `<div${kindClass} data-n="${escapeHtml(number)}">${escapeHtml(text)}</div>`;
}

function kindOf(sign: string): DiffKind {
	return sign === "+" ? "add" : sign === "-" ? "del" : "ctx";
}

const GAP = '<hr title="Unchanged lines not shown">';

/** One diff line. Lines in other formats (a unified diff from an extension) keep their text, coloured by sign. */
function renderDiffLine(line: string): string {
	if (SKIPPED_LINES.test(line)) return GAP;
	const numbered = NUMBERED_LINE.exec(line);
	if (numbered) return row(kindOf(numbered[1] ?? " "), numbered[2] ?? "", numbered[3] ?? "");
	if (line.startsWith("@@")) return GAP;
	const first = line[0] ?? " ";
	if ((first === "+" || first === "-") && !line.startsWith("+++") && !line.startsWith("---")) {
		return row(kindOf(first), "", line.slice(1));
	}
	return row("ctx", "", line.startsWith(" ") ? line.slice(1) : line);
}

/** A line diff as the edit tool writes it (`details.diff`). */
export function renderDiff(diff: string): string {
	const lines = normalizeNewlines(diff).split("\n");
	if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
	return `<div class="diff">${lines.map(renderDiffLine).join("")}</div>`;
}

/** The old and new text of an edit call, as removed and added lines. */
export function renderReplacement(oldText: string, newText: string): string {
	const removed = oldText.split("\n").map((line) => row("del", "", line));
	const added = newText.split("\n").map((line) => row("add", "", line));
	return `<div class="diff">${removed.join("")}${added.join("")}</div>`;
}

/** Number of rows a diff renders (for deciding whether to fold it). */
export function countDiffLines(diff: string): number {
	let count = 1;
	for (let index = diff.indexOf("\n"); index !== -1; index = diff.indexOf("\n", index + 1)) count++;
	return count;
}
