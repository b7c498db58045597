import { closeSync, readSync } from "node:fs";
import { OPERATION_ABORTED } from "./abort.js";
import { visitDirectory } from "./file-walker.js";
import { createGrepGlobFilter } from "./glob-match.js";
import type { GrepMatch, GrepSearchRequest, GrepSearchResult } from "./grep-search.js";
import { openCheckedRegularFileSync, openRegularFileSync } from "./regular-file.js";
import { incompleteTailLength } from "./utf8.js";

// Most source files fit; reading into one reused buffer saves an allocation and a stat per file.
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
/**
 * Larger files are searched in windows of this many bytes (cut after a newline), so a 2 GB log costs a
 * bounded amount of memory. A single line longer than this is searched in window-sized pieces: a match that
 * straddles two pieces of such a line is missed.
 */
const SEARCH_WINDOW_BYTES = 1024 * 1024;
// Allocated on the first large file; searching one file is synchronous, so one buffer serves every search.
let windowBuffer: Buffer | undefined;

function countNewlines(bytes: Buffer): number {
	let count = 0;
	for (let index = bytes.indexOf(10); index !== -1; index = bytes.indexOf(10, index + 1)) count++;
	return count;
}

/**
 * A descriptor of a regular file, or undefined: like rg, the search skips devices, FIFOs and sockets silently
 * (never opening one in a way that waits), and files it cannot open. `isFileEntry`: the walk's directory entry
 * already says "file", so only the non-blocking open and its fstat check remain.
 */
function openForSearch(path: string, isFileEntry: boolean): number | undefined {
	try {
		return (isFileEntry ? openCheckedRegularFileSync(path) : openRegularFileSync(path)).fd;
	} catch {
		return undefined;
	}
}

type LineMatcher = (text: string, max: number) => number[];

/**
 * Line numbers (1-based) of the matching lines of a regular file, at most `max`, and its text when it was
 * small enough to read in one piece; undefined for a file that is unreadable, not a regular file, or binary
 * (a NUL byte in its first 64KB). A NUL byte further on ends the search there, as in rg.
 */
function searchFile(
	path: string,
	isFileEntry: boolean,
	match: LineMatcher,
	max: number,
): { lines: number[]; text?: string } | undefined {
	const fd = openForSearch(path, isFileEntry);
	if (fd === undefined) return undefined;
	try {
		const length = readSync(fd, READ_BUFFER, 0, READ_BUFFER.length, 0);
		const head = READ_BUFFER.subarray(0, length);
		if (head.includes(0)) return undefined;
		if (length < READ_BUFFER.length) {
			const text = head.toString("utf8");
			return { lines: match(text, max), text };
		}
		return searchInWindows(fd, Buffer.from(head), match, max);
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
	}
}

function searchInWindows(fd: number, head: Buffer, match: LineMatcher, max: number): { lines: number[] } | undefined {
	const found: number[] = [];
	windowBuffer ??= Buffer.allocUnsafe(SEARCH_WINDOW_BYTES);
	const window = windowBuffer;
	let carry = head;
	let position = head.length;
	let lineOffset = 0;
	for (;;) {
		const bytesRead = readSync(fd, window, 0, window.length, position);
		const chunk = window.subarray(0, bytesRead);
		// Binary data: stop here, keeping what matched before it (as rg quits at a NUL byte).
		if (chunk.includes(0)) return { lines: found };
		position += bytesRead;
		const atEnd = bytesRead === 0;
		const data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
		let segmentEnd: number;
		if (atEnd) {
			segmentEnd = data.length;
		} else {
			const lastNewline = data.lastIndexOf(10);
			if (lastNewline !== -1) {
				segmentEnd = lastNewline + 1;
			} else if (data.length >= SEARCH_WINDOW_BYTES) {
				// One line longer than the window: search this piece of it, cut at a character boundary.
				segmentEnd = data.length - incompleteTailLength(data);
			} else {
				carry = Buffer.from(data);
				continue;
			}
		}
		const segment = data.subarray(0, segmentEnd);
		carry = Buffer.from(data.subarray(segmentEnd));
		for (const line of match(segment.toString("utf8"), max - found.length)) {
			const lineNumber = lineOffset + line;
			// A long line searched in pieces is reported once.
			if (found[found.length - 1] !== lineNumber) found.push(lineNumber);
		}
		lineOffset += countNewlines(segment);
		if (found.length >= max || atEnd) return { lines: found };
	}
}

const POSIX_CLASSES: Record<string, string> = {
	alnum: "0-9A-Za-z",
	alpha: "A-Za-z",
	blank: " \\t",
	digit: "0-9",
	lower: "a-z",
	punct: "!-\\/:-@\\[-`{-~",
	space: "\\s",
	upper: "A-Z",
	word: "\\w",
	xdigit: "0-9A-Fa-f",
};

/** Rewrites the parts of ripgrep's (Rust) regex syntax that JavaScript spells differently. */
function translateRustRegex(pattern: string): { source: string; ignoreCase: boolean } {
	let source = pattern;
	let ignoreCase = false;
	if (source.startsWith("(?i)")) {
		source = source.slice(4);
		ignoreCase = true;
	}
	source = source
		.replace(/\[:(\w+):\]/g, (whole, name: string) => POSIX_CLASSES[name] ?? whole)
		.replace(/\\p([A-Z])/g, "\\p{$1}")
		.replace(/\\A/g, "^")
		.replace(/\\z/g, "$");
	return { source, ignoreCase };
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The search pattern as a JavaScript regex, or an error the model can act on. */
export function compileSearchPattern(pattern: string, options: { ignoreCase: boolean; literal: boolean }): RegExp {
	if (options.literal) return new RegExp(escapeRegExp(pattern), options.ignoreCase ? "iu" : "u");
	const { source, ignoreCase } = translateRustRegex(pattern);
	const flags = options.ignoreCase || ignoreCase ? "i" : "";
	try {
		return new RegExp(source, `${flags}u`);
	} catch {
		// Unicode mode rejects escapes such as \- or \_ that ripgrep accepts.
		try {
			return new RegExp(source, flags);
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			throw new Error(
				`regex parse error: ${reason}\nUse literal=true to search for the text as written, or escape regex special characters.`,
			);
		}
	}
}

/** Line numbers (1-based) of the lines of `text` that match, at most `max`. */
function matchingLines(text: string, lineRegex: RegExp, wholeTextRegex: RegExp, max: number): number[] {
	// A line that matches is also a match in the whole text, so most files are ruled out in one native scan.
	if (!wholeTextRegex.test(text)) return [];
	const found: number[] = [];
	let lineNumber = 1;
	let start = 0;
	while (start <= text.length && found.length < max) {
		let end = text.indexOf("\n", start);
		if (end === -1) end = text.length;
		if (lineRegex.test(text.slice(start, end))) found.push(lineNumber);
		lineNumber++;
		start = end + 1;
		// A trailing newline ends the last line; it does not start another.
		if (start === text.length) break;
	}
	return found;
}

/**
 * Searches like `rg --hidden`: the tree walked with ignore files honoured, binary files (a NUL byte)
 * skipped, each line tested on its own. Reports matches in path order.
 */
export async function searchWithBuiltinGrep(request: GrepSearchRequest): Promise<GrepSearchResult> {
	const { signal, limit } = request;
	if (signal?.aborted) throw new Error(OPERATION_ABORTED);
	const lineRegex = compileSearchPattern(request.pattern, request);
	const wholeTextRegex = new RegExp(lineRegex.source, `${lineRegex.flags}m`);

	const fileContents = new Map<string, string>();
	const matches: GrepMatch[] = [];
	let limitReached = false;
	const match: LineMatcher = (text, max) => matchingLines(text, lineRegex, wholeTextRegex, max);
	const searchOne = (filePath: string, isFileEntry: boolean) => {
		const result = searchFile(filePath, isFileEntry, match, limit + 1 - matches.length);
		if (!result) return;
		for (const lineNumber of result.lines) {
			if (matches.length >= limit) {
				limitReached = true;
				return;
			}
			matches.push({ filePath, lineNumber });
			if (result.text !== undefined) fileContents.set(filePath, result.text);
		}
	};

	if (!request.isDirectory) {
		searchOne(request.searchPath, false);
	} else {
		const globFilter = request.glob ? createGrepGlobFilter(request.glob) : undefined;
		// The walk is in path order, so the first `limit` matches are always the same ones, and it stops there.
		await visitDirectory(
			request.searchPath,
			(entry) => {
				if (entry.kind === "file" && (!globFilter || globFilter(entry.relativePath)))
					searchOne(entry.absolutePath, true);
				return !limitReached;
			},
			{ signal },
		);
	}
	return { matches, limitReached, fileContents };
}
