import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { describeError, type ResourceDiagnostic } from "./diagnostics.js";
import { IgnoreRules } from "./ignore-rules.js";

export interface ScannedEntry {
	name: string;
	path: string;
	kind: "file" | "directory";
}

/**
 * The entries of `dir` that resource discovery considers: names starting with `.` and `node_modules` are
 * skipped, symbolic links are followed (a broken one is reported), entries matched by `ignoreRules` are left
 * out. Sorted by name so that discovery order — and so which of two colliding resources wins — does not
 * depend on the file system.
 */
export function listVisibleEntries(
	dir: string,
	diagnostics: ResourceDiagnostic[],
	ignoreRules?: IgnoreRules,
): ScannedEntry[] {
	let dirents: Dirent[];
	try {
		dirents = readdirSync(dir, { withFileTypes: true });
	} catch (error) {
		diagnostics.push({ type: "error", message: `cannot read directory: ${describeError(error)}`, path: dir });
		return [];
	}
	const entries: ScannedEntry[] = [];
	for (const dirent of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
		if (dirent.name.startsWith(".") || dirent.name === "node_modules") continue;
		const path = join(dir, dirent.name);
		let kind: ScannedEntry["kind"] | undefined;
		if (dirent.isSymbolicLink()) {
			try {
				const stats = statSync(path);
				kind = stats.isDirectory() ? "directory" : stats.isFile() ? "file" : undefined;
			} catch {
				diagnostics.push({ type: "warning", message: "broken symbolic link", path });
				continue;
			}
		} else {
			kind = dirent.isDirectory() ? "directory" : dirent.isFile() ? "file" : undefined;
		}
		if (!kind) continue;
		if (ignoreRules?.isIgnored(path, kind === "directory")) continue;
		entries.push({ name: dirent.name, path, kind });
	}
	return entries;
}

/**
 * How a skills directory is read:
 * - `resource` (auto-discovered directories, settings entries, packages): every `*.md` at the root, and every
 *   `SKILL.md` below it at any depth, including below another skill's directory.
 * - `explicit` (`--skill <dir>`, `loadSkillsFromDir`): a directory holding `SKILL.md` is that one skill and is
 *   not searched further; otherwise its root `*.md` files, and `SKILL.md` files in subdirectories.
 */
export type SkillScanMode = "resource" | "explicit";

export function collectSkillFiles(root: string, mode: SkillScanMode, diagnostics: ResourceDiagnostic[]): string[] {
	const files: string[] = [];
	const ignoreRules = new IgnoreRules(root);
	const visitedDirectories = new Set<string>();

	const walk = (dir: string, isRoot: boolean): void => {
		// Symbolic links may point back up the tree; visit every real directory once.
		let realDir: string;
		try {
			realDir = realpathSync(dir);
		} catch {
			realDir = dir;
		}
		if (visitedDirectories.has(realDir)) return;
		visitedDirectories.add(realDir);

		ignoreRules.addDirectory(dir);
		const entries = listVisibleEntries(dir, diagnostics, ignoreRules);
		if (mode === "explicit") {
			const skillFile = entries.find((entry) => entry.kind === "file" && entry.name === "SKILL.md");
			if (skillFile) {
				files.push(skillFile.path);
				return;
			}
		}
		for (const entry of entries) {
			if (entry.kind === "directory") {
				walk(entry.path, false);
			} else if (isRoot ? entry.name.endsWith(".md") : entry.name === "SKILL.md") {
				files.push(entry.path);
			}
		}
	};

	walk(root, true);
	return files;
}

/** The direct `*<extension>` files of a directory (prompt templates, themes): no recursion. */
export function collectDirectFiles(dir: string, extension: string, diagnostics: ResourceDiagnostic[]): string[] {
	const ignoreRules = new IgnoreRules(dir);
	ignoreRules.addDirectory(dir);
	return listVisibleEntries(dir, diagnostics, ignoreRules)
		.filter((entry) => entry.kind === "file" && entry.name.endsWith(extension))
		.map((entry) => entry.path);
}
