import { existsSync, readdirSync, statSync } from "node:fs";
import type { AgentTool } from "@agent/agent-core";
import { LeanType, type Static } from "@agent/ai";
import { runAbortable, throwIfAborted } from "./abort.js";
import { resolveToCwd } from "./path-utils.js";
import { optionalNumber, optionalString, toPositiveInteger } from "./tool-arguments.js";
import { DEFAULT_MAX_BYTES, formatSize, type TruncationResult, truncateHead } from "./truncate.js";
import { assertInsideWorkspace } from "./workspace-confinement.js";

const DEFAULT_LS_LIMIT = 500;

export const LS_TOOL_DESCRIPTION = `List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes dotfiles. Output is truncated to ${DEFAULT_LS_LIMIT} entries or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`;

export const lsSchema = LeanType.Object({
	path: LeanType.Optional(LeanType.String({ description: "Directory to list (default: current directory)" })),
	limit: LeanType.Optional(LeanType.Number({ description: "Maximum number of entries to return (default: 500)" })),
});

export type LsToolInput = Static<typeof lsSchema>;

export interface LsToolDetails {
	truncation?: TruncationResult;
	entryLimitReached?: number;
}

/** File system access of the ls tool; replace it to list remote or container directories. */
export interface LsOperations {
	exists: (absolutePath: string) => Promise<boolean> | boolean;
	/** Follows symlinks; throws for entries that cannot be stat'ed (e.g. dangling links). */
	stat: (absolutePath: string) => Promise<{ isDirectory(): boolean }> | { isDirectory(): boolean };
	readdir: (absolutePath: string) => Promise<string[]> | string[];
}

export interface LsToolOptions {
	operations?: LsOperations;
	/** Refuse paths outside the working directory (after resolving `..` and symlinks). Default false. */
	confineToCwd?: boolean;
}

export const localLsOperations: LsOperations = {
	exists: existsSync,
	stat: statSync,
	readdir: (absolutePath) => readdirSync(absolutePath),
};

function joinPath(dir: string, name: string): string {
	return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

export function createLsTool(
	cwd: string,
	options: LsToolOptions = {},
): AgentTool<typeof lsSchema, LsToolDetails | undefined> {
	const ops = options.operations ?? localLsOperations;
	return {
		name: "ls",
		label: "ls",
		description: LS_TOOL_DESCRIPTION,
		parameters: lsSchema,
		async execute(_toolCallId, params, signal) {
			const path = optionalString(params, "ls", "path");
			const limit = toPositiveInteger(optionalNumber(params, "ls", "limit"), DEFAULT_LS_LIMIT);
			throwIfAborted(signal);
			const dirPath = resolveToCwd(path || ".", cwd);
			if (options.confineToCwd) assertInsideWorkspace(dirPath, cwd, path || ".");

			return runAbortable(signal, async () => {
				if (!(await ops.exists(dirPath))) throw new Error(`Path not found: ${dirPath}`);
				if (!(await ops.stat(dirPath)).isDirectory()) throw new Error(`Not a directory: ${dirPath}`);
				let entries: string[];
				try {
					entries = await ops.readdir(dirPath);
				} catch (error) {
					throw new Error(`Cannot read directory: ${error instanceof Error ? error.message : String(error)}`);
				}
				entries.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

				const listed: string[] = [];
				let entryLimitReached: number | undefined;
				for (const entry of entries) {
					if (listed.length >= limit) {
						entryLimitReached = limit;
						break;
					}
					throwIfAborted(signal);
					try {
						const stats = await ops.stat(joinPath(dirPath, entry));
						listed.push(stats.isDirectory() ? `${entry}/` : entry);
					} catch {
						// unreadable or dangling entry: skipped
					}
				}
				if (listed.length === 0)
					return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };

				const truncation = truncateHead(listed.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
				const notices: string[] = [];
				const details: LsToolDetails = {};
				if (entryLimitReached !== undefined) {
					notices.push(`${limit} entries limit reached. Use limit=${limit * 2} for more`);
					details.entryLimitReached = entryLimitReached;
				}
				if (truncation.truncated) {
					notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
					details.truncation = truncation;
				}
				const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
				return { content: [{ type: "text", text }], details: notices.length > 0 ? details : undefined };
			});
		},
	};
}

/** The ls tool for the process's working directory. */
export const lsTool = createLsTool(process.cwd());
