import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { OPERATION_ABORTED } from "./abort.js";
import { visitDirectory } from "./file-walker.js";
import { createGrepGlobFilter } from "./glob-match.js";
import type { GrepMatch, GrepSearchRequest, GrepSearchResult } from "./grep-search.js";

// Most source files fit; reading into one reused buffer saves an allocation and a stat per file.
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/** The file's bytes, or undefined when it cannot be read. Small files come back as a view of a shared buffer, valid until the next call. */
function readFileBytes(path: string): Buffer | undefined {
	let fd: number;
	try {
		fd = openSync(path, "r");
	} catch {
		return undefined;
	}
	try {
		// Read from the current position (null), so readFileSync below continues where this read stopped.
		const length = readSync(fd, READ_BUFFER, 0, READ_BUFFER.length, null);
		if (length < READ_BUFFER.length) return READ_BUFFER.subarray(0, length);
		return Buffer.concat([Buffer.from(READ_BUFFER), readFileSync(fd)]);
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
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
	const searchFile = (filePath: string) => {
		const bytes = readFileBytes(filePath);
		if (!bytes || bytes.includes(0)) return;
		const text = bytes.toString("utf8");
		for (const lineNumber of matchingLines(text, lineRegex, wholeTextRegex, limit + 1 - matches.length)) {
			if (matches.length >= limit) {
				limitReached = true;
				return;
			}
			matches.push({ filePath, lineNumber });
			fileContents.set(filePath, text);
		}
	};

	if (!request.isDirectory) {
		searchFile(request.searchPath);
	} else {
		const globFilter = request.glob ? createGrepGlobFilter(request.glob) : undefined;
		// The walk is in path order, so the first `limit` matches are always the same ones, and it stops there.
		await visitDirectory(
			request.searchPath,
			(entry) => {
				if (entry.kind === "file" && (!globFilter || globFilter(entry.relativePath)))
					searchFile(entry.absolutePath);
				return !limitReached;
			},
			{ signal },
		);
	}
	return { matches, limitReached, fileContents };
}
