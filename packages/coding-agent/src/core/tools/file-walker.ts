import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join, sep } from "node:path";
import { OPERATION_ABORTED } from "./abort.js";
import {
	IGNORE_FILE_NAMES,
	type IgnoreLayer,
	isIgnoredByLayers,
	loadAncestorLayers,
	loadIgnoreLayer,
} from "./ignore-rules.js";

export type WalkEntryKind = "file" | "directory" | "symlink" | "other";

export interface WalkEntry {
	absolutePath: string;
	/** Relative to the walk root, with `/` separators. */
	relativePath: string;
	kind: WalkEntryKind;
}

export interface WalkOptions {
	signal?: AbortSignal;
	/** Directories read at once (they are read on libuv's thread pool). */
	concurrency?: number;
}

interface DirectoryTask {
	absolutePath: string;
	relativePath: string;
	layers: IgnoreLayer[];
}

/** Never descended into, never listed: the repository database. */
const SKIPPED_NAMES = new Set([".git"]);

async function kindOf(entry: Dirent, absolutePath: string): Promise<WalkEntryKind> {
	if (entry.isFile()) return "file";
	if (entry.isDirectory()) return "directory";
	if (entry.isSymbolicLink()) return "symlink";
	if (entry.isBlockDevice() || entry.isCharacterDevice() || entry.isFIFO() || entry.isSocket()) return "other";
	// Some file systems report no type in directory entries.
	try {
		const stats = await lstat(absolutePath);
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
	const concurrency = options.concurrency ?? 16;
	const entries: WalkEntry[] = [];
	const pending: DirectoryTask[] = [{ absolutePath: root, relativePath: "", layers: await loadAncestorLayers(root) }];
	let active = 0;

	const visit = async (task: DirectoryTask) => {
		let dirents: Dirent[];
		try {
			dirents = await readdir(task.absolutePath, { withFileTypes: true });
		} catch {
			return;
		}
		let layers = task.layers;
		if (dirents.some((entry) => (IGNORE_FILE_NAMES as readonly string[]).includes(entry.name))) {
			const layer = await loadIgnoreLayer(task.absolutePath);
			if (layer) layers = [...layers, layer];
		}
		for (const dirent of dirents) {
			if (SKIPPED_NAMES.has(dirent.name)) continue;
			const absolutePath = task.absolutePath.endsWith(sep)
				? task.absolutePath + dirent.name
				: join(task.absolutePath, dirent.name);
			const kind = await kindOf(dirent, absolutePath);
			if (layers.length > 0 && isIgnoredByLayers(layers, absolutePath, kind === "directory")) continue;
			const relativePath = task.relativePath ? `${task.relativePath}/${dirent.name}` : dirent.name;
			entries.push({ absolutePath, relativePath, kind });
			if (kind === "directory") pending.push({ absolutePath, relativePath, layers });
		}
	};

	await new Promise<void>((resolve, reject) => {
		let failed = false;
		const pump = () => {
			if (failed) return;
			if (signal?.aborted) {
				failed = true;
				reject(new Error(OPERATION_ABORTED));
				return;
			}
			while (active < concurrency && pending.length > 0) {
				const task = pending.pop()!;
				active++;
				visit(task).then(
					() => {
						active--;
						pump();
					},
					(error: unknown) => {
						failed = true;
						reject(error);
					},
				);
			}
			if (active === 0 && pending.length === 0) resolve();
		};
		pump();
	});

	entries.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
	return entries;
}
