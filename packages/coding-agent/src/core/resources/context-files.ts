import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { getAgentDir } from "../config/paths.js";
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
}

function readContextFileOfDirectory(dir: string, diagnostics: ResourceDiagnostic[]): ContextFile | undefined {
	for (const fileName of CONTEXT_FILE_NAMES) {
		const path = join(dir, fileName);
		if (!isFile(path)) continue;
		try {
			return { path, content: readFileSync(path, "utf8") };
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

	take(readContextFileOfDirectory(agentDir, diagnostics));
	const ancestors: string[] = [];
	for (let dir = cwd; ; dir = dirname(dir)) {
		ancestors.push(dir);
		if (dirname(dir) === dir) break;
	}
	for (const dir of ancestors.reverse()) take(readContextFileOfDirectory(dir, diagnostics));
	return { files, diagnostics };
}

/** `loadContextFiles` without diagnostics: unreadable files are skipped with a warning on stderr. */
export function loadProjectContextFiles(options: LoadContextFilesOptions = {}): ContextFile[] {
	const { files, diagnostics } = loadContextFiles(options);
	for (const diagnostic of diagnostics) console.warn(`Warning: ${diagnostic.message} (${diagnostic.path})`);
	return files;
}
