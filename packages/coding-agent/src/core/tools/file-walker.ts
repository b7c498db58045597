import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { sep } from "node:path";
import { throwIfAborted } from "./abort.js";
import {
	IGNORE_FILE_NAMES,
	type IgnoreLayer,
	isIgnoredByLayers,
	loadAncestorLayers,
	loadIgnoreLayerSync,
} from "./ignore-rules.js";
import { runInSlices } from "./time-slicing.js";

export type WalkEntryKind = "file" | "directory" | "symlink" | "other";

export interface WalkEntry {
	absolutePath: string;
	/** Relative to the walk root, with `/` separators. */
	relativePath: string;
	kind: WalkEntryKind;
}

export interface WalkOptions {
	signal?: AbortSignal;
}

interface DirectoryTask {
	absolutePath: string;
	relativePath: string;
	layers: IgnoreLayer[];
}

/** Never descended into, never listed: the repository database. */
const SKIPPED_NAMES = new Set([".git"]);

function kindOf(entry: Dirent, absolutePath: string): WalkEntryKind {
	if (entry.isFile()) return "file";
	if (entry.isDirectory()) return "directory";
	if (entry.isSymbolicLink()) return "symlink";
	if (entry.isBlockDevice() || entry.isCharacterDevice() || entry.isFIFO() || entry.isSocket()) return "other";
	// Some file systems report no type in directory entries.
	try {
		const stats = lstatSync(absolutePath);
		if (stats.isFile()) return "file";
		if (stats.isDirectory()) return "directory";
		if (stats.isSymbolicLink()) return "symlink";
	} catch {
		// vanished
	}
	return "other";
}

/**
 * Every entry under `root`, sorted by relative path, the way rg and fd walk a tree: hidden files included,
 * `.git` skipped, `.gitignore` and `.ignore` honoured in every directory (nested ones included, and those
 * of the directories above `root`) whether or not the tree is a git repository, symlinks listed but not
 * followed. Unreadable directories are skipped.
 */
export async function walkDirectory(root: string, options: WalkOptions = {}): Promise<WalkEntry[]> {
	const { signal } = options;
	throwIfAborted(signal);
	const entries: WalkEntry[] = [];
	const pending: DirectoryTask[] = [{ absolutePath: root, relativePath: "", layers: await loadAncestorLayers(root) }];

	const visit = (task: DirectoryTask) => {
		let dirents: Dirent[];
		try {
			dirents = readdirSync(task.absolutePath, { withFileTypes: true });
		} catch {
			return;
		}
		let layers = task.layers;
		if (dirents.some((entry) => (IGNORE_FILE_NAMES as readonly string[]).includes(entry.name))) {
			const layer = loadIgnoreLayerSync(task.absolutePath);
			if (layer) layers = [...layers, layer];
		}
		const prefix = task.absolutePath.endsWith(sep) ? task.absolutePath : task.absolutePath + sep;
		for (const dirent of dirents) {
			if (SKIPPED_NAMES.has(dirent.name)) continue;
			const absolutePath = prefix + dirent.name;
			const kind = kindOf(dirent, absolutePath);
			if (layers.length > 0 && isIgnoredByLayers(layers, absolutePath, kind === "directory")) continue;
			const relativePath = task.relativePath ? `${task.relativePath}/${dirent.name}` : dirent.name;
			entries.push({ absolutePath, relativePath, kind });
			if (kind === "directory") pending.push({ absolutePath, relativePath, layers });
		}
	};
	await runInSlices(
		() => pending.length > 0,
		() => visit(pending.pop()!),
		signal,
	);

	entries.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
	return entries;
}
