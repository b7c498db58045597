import { statSync } from "node:fs";
import { basename, relative, sep } from "node:path";
import type { AgentTool } from "@agent/agent-core";
import { LeanType, type Static } from "@agent/ai";
import { throwIfAborted } from "./abort.js";
import { findExternalTool } from "./external-tools.js";
import { type FileLine, readLinesOfFile } from "./file-lines.js";
import { searchWithBuiltinGrep } from "./grep-builtin.js";
import { searchWithRipgrep } from "./grep-ripgrep.js";
import {
	type GrepEngineChoice,
	type GrepSearchRequest,
	type GrepSearchResult,
	RG_UNAVAILABLE_MESSAGE,
} from "./grep-search.js";
import { resolveToCwd } from "./path-utils.js";
import { readRegularFile } from "./regular-file.js";
import { optionalBoolean, optionalNumber, optionalString, requireString, toPositiveInteger } from "./tool-arguments.js";
import {
	DEFAULT_MAX_BYTES,
	formatSize,
	GREP_MAX_LINE_LENGTH,
	type TruncationResult,
	truncateHead,
	truncateLine,
} from "./truncate.js";
import { assertInsideWorkspace } from "./workspace-confinement.js";

export type { GrepEngineChoice } from "./grep-search.js";

const DEFAULT_GREP_LIMIT = 100;

export const GREP_TOOL_DESCRIPTION = `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to ${DEFAULT_GREP_LIMIT} matches or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`;

export const grepSchema = LeanType.Object({
	pattern: LeanType.String({ description: "Search pattern (regex or literal string)" }),
	path: LeanType.Optional(
		LeanType.String({ description: "Directory or file to search (default: current directory)" }),
	),
	glob: LeanType.Optional(
		LeanType.String({ description: "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'" }),
	),
	ignoreCase: LeanType.Optional(LeanType.Boolean({ description: "Case-insensitive search (default: false)" })),
	literal: LeanType.Optional(
		LeanType.Boolean({ description: "Treat pattern as literal string instead of regex (default: false)" }),
	),
	context: LeanType.Optional(
		LeanType.Number({ description: "Number of lines to show before and after each match (default: 0)" }),
	),
	limit: LeanType.Optional(LeanType.Number({ description: "Maximum number of matches to return (default: 100)" })),
});

export type GrepToolInput = Static<typeof grepSchema>;

export interface GrepToolDetails {
	truncation?: TruncationResult;
	matchLimitReached?: number;
	linesTruncated?: boolean;
}

/** File access used to check the search path and to show matched lines. */
export interface GrepOperations {
	/** Throws if the path does not exist. */
	isDirectory: (absolutePath: string) => Promise<boolean> | boolean;
	readFile: (absolutePath: string) => Promise<string> | string;
	/**
	 * Ours: the lines `lineNumbers` (1-based) of a file, each cut to `maxLineBytes`, read without loading the
	 * whole file; lines past its end are absent. When present it is used instead of `readFile` to show matches.
	 */
	readLines?: (
		absolutePath: string,
		lineNumbers: ReadonlySet<number>,
		maxLineBytes: number,
	) => Promise<Map<number, FileLine>>;
}

export interface GrepToolOptions {
	operations?: GrepOperations;
	/** `auto` (default) uses rg when installed, else the built-in engine; `rg` requires rg. */
	engine?: GrepEngineChoice;
	/** Refuse paths outside the working directory (after resolving `..` and symlinks). Default false. */
	confineToCwd?: boolean;
}

/** Bytes of each shown line that are read: enough for the 500 characters shown. */
const SHOWN_LINE_MAX_BYTES = 4096;

export const localGrepOperations: GrepOperations = {
	isDirectory: (absolutePath) => statSync(absolutePath).isDirectory(),
	readFile: async (absolutePath) => (await readRegularFile(absolutePath)).toString("utf8"),
	readLines: readLinesOfFile,
};

/** Runs the search with the engine chosen (rg when available under `auto`). */
export function runGrepSearch(
	request: GrepSearchRequest,
	engine: GrepEngineChoice = "auto",
): Promise<GrepSearchResult> {
	if (engine === "builtin") return searchWithBuiltinGrep(request);
	const rgPath = findExternalTool("rg");
	if (rgPath) return searchWithRipgrep(rgPath, request);
	if (engine === "rg") return Promise.reject(new Error(RG_UNAVAILABLE_MESSAGE));
	return searchWithBuiltinGrep(request);
}

/** The lines around each match in `file`, from `readLines` or the whole text; null when unreadable. */
async function loadShownLines(
	filePath: string,
	wanted: ReadonlySet<number>,
	result: GrepSearchResult,
	ops: GrepOperations,
): Promise<Map<number, FileLine> | null> {
	try {
		const known = result.fileContents?.get(filePath);
		if (known === undefined && ops.readLines) return await ops.readLines(filePath, wanted, SHOWN_LINE_MAX_BYTES);
		const text = known ?? (await ops.readFile(filePath));
		// Lines are counted at "\n" as rg counts them; a CR is dropped from each line when shown.
		const lines = text.replace(/\r\n/g, "\n").split("\n");
		const shown = new Map<number, FileLine>();
		for (const n of wanted) if (n <= lines.length) shown.set(n, { text: lines[n - 1], cut: false });
		return shown;
	} catch {
		return null;
	}
}

/** `<path>:<n>: text` for matches and `<path>-<n>- text` for context; blocks are not merged. */
async function formatMatches(
	result: GrepSearchResult,
	request: GrepSearchRequest,
	context: number,
	ops: GrepOperations,
): Promise<{ lines: string[]; linesTruncated: boolean }> {
	const wantedByFile = new Map<string, Set<number>>();
	for (const match of result.matches) {
		let wanted = wantedByFile.get(match.filePath);
		if (!wanted) {
			wanted = new Set();
			wantedByFile.set(match.filePath, wanted);
		}
		for (let n = Math.max(1, match.lineNumber - context); n <= match.lineNumber + context; n++) wanted.add(n);
	}
	const shownByFile = new Map<string, Map<number, FileLine> | null>();
	for (const [filePath, wanted] of wantedByFile) {
		shownByFile.set(filePath, await loadShownLines(filePath, wanted, result, ops));
	}
	const displayPath = (filePath: string) =>
		request.isDirectory ? relative(request.searchPath, filePath).split(sep).join("/") : basename(filePath);

	const output: string[] = [];
	let linesTruncated = false;
	for (const match of result.matches) {
		const shownPath = displayPath(match.filePath);
		const lines = shownByFile.get(match.filePath);
		if (!lines) {
			output.push(`${shownPath}:${match.lineNumber}: (unable to read file)`);
			continue;
		}
		// Lines past the end of the file are absent: the block ends there.
		for (let n = Math.max(1, match.lineNumber - context); n <= match.lineNumber + context; n++) {
			const line = lines.get(n);
			if (!line) break;
			const shown = line.text.replace(/\r/g, "");
			let { text, wasTruncated } = truncateLine(shown);
			if (line.cut && !wasTruncated) {
				text = `${shown}... [truncated]`;
				wasTruncated = true;
			}
			if (wasTruncated) linesTruncated = true;
			output.push(n === match.lineNumber ? `${shownPath}:${n}: ${text}` : `${shownPath}-${n}- ${text}`);
		}
	}
	return { lines: output, linesTruncated };
}

export function createGrepTool(
	cwd: string,
	options: GrepToolOptions = {},
): AgentTool<typeof grepSchema, GrepToolDetails | undefined> {
	const ops = options.operations ?? localGrepOperations;
	return {
		name: "grep",
		label: "grep",
		description: GREP_TOOL_DESCRIPTION,
		parameters: grepSchema,
		async execute(_toolCallId, params, signal) {
			const pattern = requireString(params, "grep", "pattern");
			const path = optionalString(params, "grep", "path");
			const glob = optionalString(params, "grep", "glob");
			const ignoreCase = optionalBoolean(params, "grep", "ignoreCase") ?? false;
			const literal = optionalBoolean(params, "grep", "literal") ?? false;
			const contextArg = optionalNumber(params, "grep", "context");
			const context = contextArg !== undefined && contextArg > 0 ? Math.floor(contextArg) : 0;
			const limit = toPositiveInteger(optionalNumber(params, "grep", "limit"), DEFAULT_GREP_LIMIT);
			throwIfAborted(signal);

			const searchPath = resolveToCwd(path || ".", cwd);
			if (options.confineToCwd) assertInsideWorkspace(searchPath, cwd, path || ".");
			let isDirectory: boolean;
			try {
				isDirectory = await ops.isDirectory(searchPath);
			} catch {
				throw new Error(`Path not found: ${searchPath}`);
			}

			const request: GrepSearchRequest = {
				pattern,
				searchPath,
				isDirectory,
				ignoreCase,
				literal,
				glob: glob || undefined,
				limit,
				signal,
			};
			const result = await runGrepSearch(request, options.engine);
			throwIfAborted(signal);
			if (result.matches.length === 0)
				return { content: [{ type: "text", text: "No matches found" }], details: undefined };

			const formatted = await formatMatches(result, request, context, ops);
			const truncation = truncateHead(formatted.lines.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
			const notices: string[] = [];
			const details: GrepToolDetails = {};
			if (result.limitReached) {
				notices.push(`${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern`);
				details.matchLimitReached = limit;
			}
			if (truncation.truncated) {
				notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
				details.truncation = truncation;
			}
			if (formatted.linesTruncated) {
				notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
				details.linesTruncated = true;
			}
			const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
			return { content: [{ type: "text", text }], details: notices.length > 0 ? details : undefined };
		},
	};
}

/** The grep tool for the process's working directory. */
export const grepTool = createGrepTool(process.cwd());
