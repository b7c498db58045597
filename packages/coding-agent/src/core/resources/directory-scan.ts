import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import {
	type IgnoreFileOptions,
	type IgnoreLayer,
	isIgnoredByLayers,
	loadIgnoreLayerSync,
} from "../tools/ignore-rules.js";
import { describeError, type ResourceDiagnostic } from "./diagnostics.js";

/** Unlike the tools, resource discovery honours fd's ignore file and matches regardless of case (as the reference). */
const RESOURCE_IGNORE_FILES: IgnoreFileOptions = { names: [".gitignore", ".ignore", ".fdignore"], ignoreCase: true };

/** `inherited` (the layers of the directories above, outermost first) plus the layer of `dir`'s own ignore files. */
export function withIgnoreFilesOf(dir: string, inherited: readonly IgnoreLayer[] = []): readonly IgnoreLayer[] {
	const own = loadIgnoreLayerSync(dir, RESOURCE_IGNORE_FILES);
	return own ? [...inherited, own] : inherited;
}

export interface ScannedEntry {
	name: string;
	path: string;
	kind: "file" | "directory";
}

/**
 * The entries of `dir` that resource discovery considers: names starting with `.` and `node_modules` are
 * skipped, symbolic links are followed (a broken one is reported), entries the ignore-file layers ignore are
 * left out. Sorted by name so that discovery order — and so which of two colliding resources wins — does not
 * depend on the file system.
 */
export function listVisibleEntries(
	dir: string,
	diagnostics: ResourceDiagnostic[],
	ignoreLayers: readonly IgnoreLayer[] = [],
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
		if (isIgnoredByLayers(ignoreLayers, path, kind === "directory")) continue;
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
	const visitedDirectories = new Set<string>();

	// An ignored directory is not entered, so nothing below it can be re-included by a deeper ignore file.
	const walk = (dir: string, isRoot: boolean, inheritedLayers: readonly IgnoreLayer[]): void => {
		// Symbolic links may point back up the tree; visit every real directory once.
		let realDir: string;
		try {
			realDir = realpathSync(dir);
		} catch {
			realDir = dir;
		}
		if (visitedDirectories.has(realDir)) return;
		visitedDirectories.add(realDir);

		const ignoreLayers = withIgnoreFilesOf(dir, inheritedLayers);
		const entries = listVisibleEntries(dir, diagnostics, ignoreLayers);
		if (mode === "explicit") {
			const skillFile = entries.find((entry) => entry.kind === "file" && entry.name === "SKILL.md");
			if (skillFile) {
				files.push(skillFile.path);
				return;
			}
		}
		for (const entry of entries) {
			if (entry.kind === "directory") {
				walk(entry.path, false, ignoreLayers);
			} else if (isRoot ? entry.name.endsWith(".md") : entry.name === "SKILL.md") {
				files.push(entry.path);
			}
		}
	};

	walk(root, true, []);
	return files;
}

/** The direct `*<extension>` files of a directory (prompt templates, themes): no recursion. */
export function collectDirectFiles(dir: string, extension: string, diagnostics: ResourceDiagnostic[]): string[] {
	return listVisibleEntries(dir, diagnostics, withIgnoreFilesOf(dir))
		.filter((entry) => entry.kind === "file" && entry.name.endsWith(extension))
		.map((entry) => entry.path);
}
