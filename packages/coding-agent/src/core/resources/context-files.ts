import { dirname, join, resolve } from "node:path";
import { getAgentDir } from "../config/paths.js";
import { DEFAULT_CONTEXT_FILE_BYTES } from "../config/settings-manager.js";
import { readRegularFileSync } from "../tools/regular-file.js";
import { formatSize } from "../tools/truncate.js";
import { describeError, type ResourceDiagnostic } from "./diagnostics.js";
import { isFile, realPathOf } from "./path-probes.js";

/** A project instruction file (`AGENTS.md` / `CLAUDE.md`) as it goes into the system prompt. */
export interface ContextFile {
	/** Absolute path. */
	path: string;
	/** Raw UTF-8 content. */
	content: string;
}

/** In each directory the first of these that exists is taken; only one per directory. */
export const CONTEXT_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

export interface LoadContextFilesOptions {
	cwd?: string;
	agentDir?: string;
	/** Bytes read of each file (settings `limits.contextFileBytes`, default 128 KiB); 0 reads files whole. */
	maxBytes?: number;
}

/** Model-facing: ends a context file cut at `limits.contextFileBytes`. */
export function contextFileTruncatedNotice(path: string, size: number, maxBytes: number): string {
	return `[Context file truncated: ${path} is ${formatSize(size)}; only its first ${formatSize(maxBytes)} are included here (limits.contextFileBytes). Read the file for the rest.]`;
}

/** The first `maxBytes` of a context file, cut after its last complete line, and the notice. */
function cutContextFile(bytes: Buffer, path: string, size: number, maxBytes: number): string {
	const lastNewline = bytes.lastIndexOf(10);
	const kept = lastNewline > 0 ? bytes.subarray(0, lastNewline + 1) : bytes;
	// A cut inside a character leaves a replacement character at most; drop it.
	const text = kept.toString("utf8").replace(/\uFFFD$/, "");
	return `${text}${text.endsWith("\n") ? "" : "\n"}\n${contextFileTruncatedNotice(path, size, maxBytes)}`;
}

function readContextFileOfDirectory(
	dir: string,
	maxBytes: number,
	diagnostics: ResourceDiagnostic[],
): ContextFile | undefined {
	for (const fileName of CONTEXT_FILE_NAMES) {
		const path = join(dir, fileName);
		// A device, FIFO or socket named AGENTS.md is skipped like a missing file (and never opened blocking).
		if (!isFile(path)) continue;
		try {
			const { bytes, truncated, size } = readRegularFileSync(path, maxBytes > 0 ? maxBytes : undefined);
			if (!truncated) return { path, content: bytes.toString("utf8") };
			diagnostics.push({
				type: "warning",
				message: `context file is ${formatSize(size)}; only its first ${formatSize(maxBytes)} are used (limits.contextFileBytes)`,
				path,
			});
			return { path, content: cutContextFile(bytes, path, size, maxBytes) };
		} catch (error) {
			// An unreadable AGENTS.md falls through to CLAUDE.md.
			diagnostics.push({ type: "error", message: `cannot read context file: ${describeError(error)}`, path });
		}
	}
	return undefined;
}

/**
 * Context files: the one in the user directory first, then one per directory from the file-system root down
 * to `cwd` (outermost first, so the most specific instructions come last). A file reached twice (the user
 * directory inside the tree, or a symbolic link) is included once.
 */
export function loadContextFiles(options: LoadContextFilesOptions = {}): {
	files: ContextFile[];
	diagnostics: ResourceDiagnostic[];
} {
	const cwd = resolve(options.cwd ?? process.cwd());
	const agentDir = options.agentDir ?? getAgentDir();
	const maxBytes = options.maxBytes ?? DEFAULT_CONTEXT_FILE_BYTES;
	const diagnostics: ResourceDiagnostic[] = [];
	const files: ContextFile[] = [];
	const seen = new Set<string>();
	const take = (file: ContextFile | undefined): void => {
		if (!file) return;
		const key = realPathOf(file.path);
		if (seen.has(key)) return;
		seen.add(key);
		files.push(file);
	};

	take(readContextFileOfDirectory(agentDir, maxBytes, diagnostics));
	const ancestors: string[] = [];
	for (let dir = cwd; ; dir = dirname(dir)) {
		ancestors.push(dir);
		if (dirname(dir) === dir) break;
	}
	for (const dir of ancestors.reverse()) take(readContextFileOfDirectory(dir, maxBytes, diagnostics));
	return { files, diagnostics };
}

/** `loadContextFiles` without diagnostics: unreadable files are skipped with a warning on stderr. */
export function loadProjectContextFiles(options: LoadContextFilesOptions = {}): ContextFile[] {
	const { files, diagnostics } = loadContextFiles(options);
	for (const diagnostic of diagnostics) console.warn(`Warning: ${diagnostic.message} (${diagnostic.path})`);
	return files;
}
