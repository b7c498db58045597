import { existsSync, statSync } from "node:fs";
import { relative, sep } from "node:path";
import type { AgentTool } from "@agent/agent-core";
import { LeanType, type Static } from "@agent/ai";
import { runAbortable, throwIfAborted } from "./abort.js";
import { type FindEngineChoice, runFindSearch } from "./find-search.js";
import { resolveToCwd } from "./path-utils.js";
import { optionalNumber, optionalString, requireString, toPositiveInteger } from "./tool-arguments.js";
import { DEFAULT_MAX_BYTES, formatSize, type TruncationResult, truncateHead } from "./truncate.js";
import { assertInsideWorkspace } from "./workspace-confinement.js";

export type { FindEngineChoice } from "./find-search.js";

const DEFAULT_FIND_LIMIT = 1000;
/** Passed to custom `glob` operations, which have no ignore files of their own. */
const CUSTOM_GLOB_IGNORE = ["**/node_modules/**", "**/.git/**"];

export const FIND_TOOL_DESCRIPTION = `Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to ${DEFAULT_FIND_LIMIT} results or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`;

export const findSchema = LeanType.Object({
	pattern: LeanType.String({
		description: "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'",
	}),
	path: LeanType.Optional(LeanType.String({ description: "Directory to search in (default: current directory)" })),
	limit: LeanType.Optional(LeanType.Number({ description: "Maximum number of results (default: 1000)" })),
});

export type FindToolInput = Static<typeof findSchema>;

export interface FindToolDetails {
	truncation?: TruncationResult;
	resultLimitReached?: number;
}

/** A file search backend other than the local fd / built-in walker (remote machine, container, …). */
export interface FindOperations {
	exists: (absolutePath: string) => Promise<boolean> | boolean;
	/** Paths (absolute, or relative to `cwd`) of entries matching `pattern` under `cwd`. */
	glob: (pattern: string, cwd: string, options: { ignore: string[]; limit: number }) => Promise<string[]> | string[];
}

export interface FindToolOptions {
	/** With `glob`, the search goes through these operations instead of fd / the built-in walker. */
	operations?: FindOperations;
	/** `auto` (default) uses fd when installed and able to honour ignore files, else the built-in walker. */
	engine?: FindEngineChoice;
	/** Refuse paths outside the working directory (after resolving `..` and symlinks). Default false. */
	confineToCwd?: boolean;
}

function relativeToSearch(path: string, searchPath: string): string {
	const isDirectory = path.endsWith("/");
	let relativePath = path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) ? relative(searchPath, path) : path;
	if (sep !== "/") relativePath = relativePath.split(sep).join("/");
	return isDirectory && !relativePath.endsWith("/") ? `${relativePath}/` : relativePath;
}

function formatResults(
	paths: string[],
	limitNotice: string | undefined,
	limit: number,
): { text: string; details: FindToolDetails | undefined } {
	if (paths.length === 0) return { text: "No files found matching pattern", details: undefined };
	const truncation = truncateHead(paths.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
	const notices: string[] = [];
	const details: FindToolDetails = {};
	if (limitNotice) {
		notices.push(limitNotice);
		details.resultLimitReached = limit;
	}
	if (truncation.truncated) {
		notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
		details.truncation = truncation;
	}
	const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
	return { text, details: notices.length > 0 ? details : undefined };
}

export function createFindTool(
	cwd: string,
	options: FindToolOptions = {},
): AgentTool<typeof findSchema, FindToolDetails | undefined> {
	const customOps = options.operations;
	return {
		name: "find",
		label: "find",
		description: FIND_TOOL_DESCRIPTION,
		parameters: findSchema,
		async execute(_toolCallId, params, signal) {
			const pattern = requireString(params, "find", "pattern");
			const path = optionalString(params, "find", "path");
			const limit = toPositiveInteger(optionalNumber(params, "find", "limit"), DEFAULT_FIND_LIMIT);
			throwIfAborted(signal);
			const searchPath = resolveToCwd(path || ".", cwd);
			if (options.confineToCwd) assertInsideWorkspace(searchPath, cwd, path || ".");

			if (customOps) {
				return runAbortable(signal, async () => {
					if (!(await customOps.exists(searchPath))) throw new Error(`Path not found: ${searchPath}`);
					const found = await customOps.glob(pattern, searchPath, { ignore: CUSTOM_GLOB_IGNORE, limit });
					const paths = found.slice(0, limit).map((entry) => relativeToSearch(entry, searchPath));
					const limitNotice = found.length >= limit ? `${limit} results limit reached` : undefined;
					const { text, details } = formatResults(paths, limitNotice, limit);
					return { content: [{ type: "text", text }], details };
				});
			}

			if (!existsSync(searchPath)) throw new Error(`Path not found: ${searchPath}`);
			if (!statSync(searchPath).isDirectory()) throw new Error(`Not a directory: ${searchPath}`);
			const result = await runFindSearch({ pattern, searchPath, limit, signal }, options.engine);
			throwIfAborted(signal);
			const limitNotice = result.limitReached
				? `${limit} results limit reached. Use limit=${limit * 2} for more, or refine pattern`
				: undefined;
			const { text, details } = formatResults(result.paths, limitNotice, limit);
			return { content: [{ type: "text", text }], details };
		},
	};
}

/** The find tool for the process's working directory. */
export const findTool = createFindTool(process.cwd());
