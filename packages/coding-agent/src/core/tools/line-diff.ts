import { diffArrays } from "diff";

// Above this many edits between the first and last changed line, show one remove block and one add block.
const MAX_DIFF_EDIT_LENGTH = 1000;

type DiffPart =
	| { kind: "added" | "removed"; lines: string[] }
	/** An unchanged run: its length and its first and last `context` lines (all of them when shorter). */
	| { kind: "equal"; count: number; head: string[]; tail: string[] };

/** Number of `\n` in `text`. */
function countNewlines(text: string): number {
	let count = 0;
	let index = text.indexOf("\n");
	while (index !== -1) {
		count++;
		index = text.indexOf("\n", index + 1);
	}
	return count;
}

/** The first `count` lines of `text` (split at `\n`). */
function firstLines(text: string, count: number): string[] {
	const lines: string[] = [];
	let start = 0;
	while (lines.length < count) {
		const newline = text.indexOf("\n", start);
		lines.push(text.slice(start, newline === -1 ? text.length : newline));
		if (newline === -1) break;
		start = newline + 1;
	}
	return lines;
}

/** The last `count` lines of `text` (split at `\n`). */
function lastLines(text: string, count: number): string[] {
	const lines: string[] = [];
	let end = text.length;
	while (lines.length < count) {
		// lastIndexOf with a negative start still looks at index 0.
		const newline = end === 0 ? -1 : text.lastIndexOf("\n", end - 1);
		lines.unshift(text.slice(newline + 1, end));
		if (newline === -1) break;
		end = newline;
	}
	return lines;
}

function equalText(text: string, context: number): DiffPart {
	return {
		kind: "equal",
		count: countNewlines(text) + 1,
		head: firstLines(text, context),
		tail: lastLines(text, context),
	};
}

function equalLines(lines: string[], context: number): DiffPart {
	return {
		kind: "equal",
		count: lines.length,
		head: lines.slice(0, context),
		tail: context > 0 ? lines.slice(-context) : [],
	};
}

/** Line diff of two line arrays: equal lines trimmed at both ends, the middle diffed. */
function diffLineArrays(oldLines: string[], newLines: string[], context: number): DiffPart[] {
	let prefix = 0;
	const shorter = Math.min(oldLines.length, newLines.length);
	while (prefix < shorter && oldLines[prefix] === newLines[prefix]) prefix++;
	let suffix = 0;
	while (
		suffix < shorter - prefix &&
		oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
	) {
		suffix++;
	}
	const parts: DiffPart[] = [];
	if (prefix > 0) parts.push(equalLines(oldLines.slice(0, prefix), context));
	const oldMiddle = oldLines.slice(prefix, oldLines.length - suffix);
	const newMiddle = newLines.slice(prefix, newLines.length - suffix);
	const changes = diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_DIFF_EDIT_LENGTH });
	if (changes) {
		for (const change of changes) {
			if (change.added || change.removed)
				parts.push({ kind: change.added ? "added" : "removed", lines: change.value });
			else parts.push(equalLines(change.value, context));
		}
	} else {
		if (oldMiddle.length > 0) parts.push({ kind: "removed", lines: oldMiddle });
		if (newMiddle.length > 0) parts.push({ kind: "added", lines: newMiddle });
	}
	if (suffix > 0) parts.push(equalLines(oldLines.slice(oldLines.length - suffix), context));
	return parts;
}

const BLOCK = 4096;

/** Length of the common beginning of `a` and `b`; compares blocks natively before single characters. */
function commonPrefixLength(a: string, b: string): number {
	const limit = Math.min(a.length, b.length);
	let same = 0;
	while (same + BLOCK <= limit && a.slice(same, same + BLOCK) === b.slice(same, same + BLOCK)) same += BLOCK;
	while (same < limit && a.charCodeAt(same) === b.charCodeAt(same)) same++;
	return same;
}

/** Length of the common ending of `a` and `b`, at most `limit`. */
function commonSuffixLength(a: string, b: string, limit: number): number {
	let same = 0;
	while (
		same + BLOCK <= limit &&
		a.slice(a.length - same - BLOCK, a.length - same) === b.slice(b.length - same - BLOCK, b.length - same)
	) {
		same += BLOCK;
	}
	while (same < limit && a.charCodeAt(a.length - 1 - same) === b.charCodeAt(b.length - 1 - same)) same++;
	return same;
}

/** Joins neighbouring unchanged runs. */
function mergeEqualParts(parts: DiffPart[], context: number): DiffPart[] {
	const merged: DiffPart[] = [];
	for (const part of parts) {
		const previous = merged[merged.length - 1];
		if (part.kind === "equal" && previous?.kind === "equal") {
			merged[merged.length - 1] = {
				kind: "equal",
				count: previous.count + part.count,
				head: [...previous.head, ...part.head].slice(0, context),
				tail: context > 0 ? [...previous.tail, ...part.tail].slice(-context) : [],
			};
		} else {
			merged.push(part);
		}
	}
	return merged;
}

/**
 * Same parts as splitting both texts into lines and diffing them, without splitting a large file: the lines
 * surely unchanged at both ends are found by comparing characters, less one line on each side so the exact
 * line trimming still happens in the window between them, and only that window is split and diffed.
 */
function diffParts(oldText: string, newText: string, context: number): DiffPart[] {
	const shorter = Math.min(oldText.length, newText.length);
	const same = commonPrefixLength(oldText, newText);
	// Start of the line before the one holding the first difference.
	const differingLineStart = same === 0 ? 0 : oldText.lastIndexOf("\n", same - 1) + 1;
	const windowStart = differingLineStart < 2 ? 0 : oldText.lastIndexOf("\n", differingLineStart - 2) + 1;

	const sameAtEnd = commonSuffixLength(oldText, newText, shorter - same);
	// The lines wholly inside the common ending, less the first of them, start after its second newline.
	// -1: there are none.
	let suffixLength = -1;
	const firstNewline = sameAtEnd > 0 ? oldText.indexOf("\n", oldText.length - sameAtEnd) : -1;
	const secondNewline = firstNewline === -1 ? -1 : oldText.indexOf("\n", firstNewline + 1);
	if (secondNewline !== -1) suffixLength = oldText.length - secondNewline - 1;

	// The window ends just before the newline that precedes the unchanged ending.
	const windowLines = (text: string) =>
		text.slice(windowStart, suffixLength === -1 ? text.length : text.length - suffixLength - 1).split("\n");

	const parts: DiffPart[] = [];
	if (windowStart > 0) parts.push(equalText(oldText.slice(0, windowStart - 1), context));
	parts.push(...diffLineArrays(windowLines(oldText), windowLines(newText), context));
	if (suffixLength !== -1) parts.push(equalText(oldText.slice(oldText.length - suffixLength), context));
	return mergeEqualParts(parts, context);
}

/**
 * Line diff for display: `+<n> text` added (new line number), `-<n> text` removed and ` <n> text` context
 * (old line numbers), numbers padded to the width of the longer file's line count, at most `contextLines`
 * of context around each change and ` <pad> ...` where context was skipped. Unlike the reference, a long
 * unchanged run between two changes is cut too.
 */
export function generateDiffString(
	oldContent: string,
	newContent: string,
	contextLines = 4,
): { diff: string; firstChangedLine: number | undefined } {
	if (oldContent === newContent) return { diff: "", firstChangedLine: undefined };
	// A newline both files end with ends their last line; it does not start one more (the reference drops it
	// too). Without this, every diff near the end of a file closed with a `...` for the empty "line" after it.
	const bothEndInNewline = oldContent.endsWith("\n") && newContent.endsWith("\n");
	const parts = bothEndInNewline
		? diffParts(oldContent.slice(0, -1), newContent.slice(0, -1), contextLines)
		: diffParts(oldContent, newContent, contextLines);
	let oldLineCount = 0;
	let newLineCount = 0;
	for (const part of parts) {
		const count = part.kind === "equal" ? part.count : part.lines.length;
		if (part.kind !== "added") oldLineCount += count;
		if (part.kind !== "removed") newLineCount += count;
	}
	const width = String(Math.max(oldLineCount, newLineCount)).length;
	const pad = (n: number) => String(n).padStart(width, " ");
	const skipped = ` ${" ".repeat(width)} ...`;
	const output: string[] = [];
	let oldLine = 1;
	let newLine = 1;
	let firstChangedLine: number | undefined;

	for (let i = 0; i < parts.length; i++) {
		const part = parts[i];
		if (part.kind !== "equal") {
			firstChangedLine ??= newLine;
			for (const line of part.lines) {
				if (part.kind === "added") output.push(`+${pad(newLine++)} ${line}`);
				else output.push(`-${pad(oldLine++)} ${line}`);
			}
			continue;
		}
		const shownHead = i > 0 ? Math.min(contextLines, part.count) : 0;
		const shownTail = i < parts.length - 1 ? Math.min(contextLines, part.count - shownHead) : 0;
		for (let j = 0; j < shownHead; j++) output.push(` ${pad(oldLine + j)} ${part.head[j]}`);
		if (shownHead + shownTail < part.count) output.push(skipped);
		const tailStart = part.count - shownTail;
		for (let j = 0; j < shownTail; j++) {
			output.push(` ${pad(oldLine + tailStart + j)} ${part.tail[part.tail.length - shownTail + j]}`);
		}
		oldLine += part.count;
		newLine += part.count;
	}
	return { diff: output.join("\n"), firstChangedLine };
}
