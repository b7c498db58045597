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

interface DirectoryFrame {
	absolutePath: string;
	relativePath: string;
	layers: IgnoreLayer[];
	entries: Dirent[];
	next: number;
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

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Visits every entry under `root` the way rg and fd walk a tree: hidden files included, `.git` skipped,
 * `.gitignore` and `.ignore` honoured in every directory (nested ones included, and those of the
 * directories above `root`) whether or not the tree is a git repository, symlinks reported but not
 * followed, unreadable directories skipped. Entries come depth-first with each directory's entries sorted,
 * i.e. in `comparePaths` order, so a caller that has what it needs can stop early by returning false.
 */
export async function visitDirectory(
	root: string,
	visit: (entry: WalkEntry) => boolean | undefined,
	options: WalkOptions = {},
): Promise<void> {
	const { signal } = options;
	throwIfAborted(signal);
	const frames: DirectoryFrame[] = [];
	let stopped = false;

	const open = (absolutePath: string, relativePath: string, inherited: IgnoreLayer[]) => {
		let entries: Dirent[];
		try {
			entries = readdirSync(absolutePath, { withFileTypes: true });
		} catch {
			return;
		}
		let layers = inherited;
		if (entries.some((entry) => (IGNORE_FILE_NAMES as readonly string[]).includes(entry.name))) {
			const layer = loadIgnoreLayerSync(absolutePath);
			if (layer) layers = [...layers, layer];
		}
		frames.push({ absolutePath, relativePath, layers, entries: entries.sort(byName), next: 0 });
	};

	const step = () => {
		const frame = frames[frames.length - 1];
		if (frame.next >= frame.entries.length) {
			frames.pop();
			return;
		}
		const dirent = frame.entries[frame.next++];
		if (SKIPPED_NAMES.has(dirent.name)) return;
		const prefix = frame.absolutePath.endsWith(sep) ? frame.absolutePath : frame.absolutePath + sep;
		const absolutePath = prefix + dirent.name;
		const kind = kindOf(dirent, absolutePath);
		if (frame.layers.length > 0 && isIgnoredByLayers(frame.layers, absolutePath, kind === "directory")) return;
		const relativePath = frame.relativePath ? `${frame.relativePath}/${dirent.name}` : dirent.name;
		if (visit({ absolutePath, relativePath, kind }) === false) {
			stopped = true;
			return;
		}
		if (kind === "directory") open(absolutePath, relativePath, frame.layers);
	};

	open(root, "", await loadAncestorLayers(root));
	await runInSlices(() => !stopped && frames.length > 0, step, signal);
}

/** Every entry under `root` (see `visitDirectory`), in `comparePaths` order. */
export async function walkDirectory(root: string, options: WalkOptions = {}): Promise<WalkEntry[]> {
	const entries: WalkEntry[] = [];
	await visitDirectory(
		root,
		(entry) => {
			entries.push(entry);
			return true;
		},
		options,
	);
	return entries;
}
