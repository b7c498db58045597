// The index of the working tree that bash commands are compared against: every tracked path with its size,
// mtime, inode and mode, and the content each file had (stored, so a file a command deletes or rewrites can
// be brought back). Built once by a walk that honours .gitignore/.ignore (also of the directories above),
// skips `.git` and `node_modules`, never follows a symlink and stops at `checkpoints.maxFiles`; afterwards
// refreshed path by path (what the watcher reports) or by subtree (the fallback without a watcher). The temp file of
// an edit or write in progress (atomic-write.ts) is part of that write, never a path of its own: a command running
// beside the write would otherwise be given its creation, and a later one its removal.
import { type Dirent, lstatSync, readdirSync, type Stats } from "node:fs";
import { join, sep } from "node:path";
import type { FileCheckpointState } from "../session/entries.js";
import { isAtomicWriteTempName } from "../tools/atomic-write.js";
import {
	IGNORE_FILE_NAMES,
	type IgnoreLayer,
	isIgnoredByLayers,
	loadAncestorLayers,
	loadIgnoreLayerSync,
} from "../tools/ignore-rules.js";
import { isInsideDir } from "../tools/path-utils.js";
import { runInSlices } from "../tools/time-slicing.js";
import { type BlobStore, hashContent, type PackWriter } from "./blob-store.js";
import {
	fileMode,
	fileStateOf,
	type OpenedFile,
	observePath,
	readFileNoFollow,
	readRegularFileNoFollow,
	sameState,
	unreadState,
} from "./file-state.js";

/** Never walked, never recorded by a scan: repository databases and installed packages. */
export const SKIPPED_DIRECTORY_NAMES: ReadonlySet<string> = new Set([".git", "node_modules"]);

/** A file modified this close to when it was looked at may change again within the same mtime tick. */
const RACY_WINDOW_MS = 50;

export type IndexedEntry =
	| {
			kind: "file";
			size: number;
			mtimeMs: number;
			ino: number;
			mode: number;
			state: FileCheckpointState;
			racy: boolean;
	  }
	| { kind: "link"; target: string }
	| { kind: "dir" };

/** A path that changed between two looks at it. */
export interface ObservedChange {
	path: string;
	before: FileCheckpointState;
	after: FileCheckpointState;
}

export interface TreeIndexOptions {
	/** The working directory's real path. */
	root: string;
	/** Where contents go (the current session's store). */
	store: () => BlobStore;
	maxFileBytes: number;
	/** Files and links tracked at most. */
	maxFiles: number;
	/**
	 * Absolute paths never looked into: the session file, its lock and store, and the session directory when
	 * they are inside the tree.
	 */
	excluded: () => ReadonlySet<string>;
	/** A directory is now tracked (the watcher starts watching it) or no longer is. */
	onDirectoryAdded?: (absoluteDir: string) => void;
	onDirectoryRemoved?: (absoluteDir: string) => void;
	/** The file limit was reached. */
	onFileLimit?: (maxFiles: number) => void;
}

function stateOfEntry(entry: IndexedEntry | undefined): FileCheckpointState {
	if (!entry) return null;
	if (entry.kind === "dir") return { dir: true };
	if (entry.kind === "link") return { link: entry.target };
	return entry.state;
}

function isRacy(stats: Stats, now: number): boolean {
	return now - stats.mtimeMs < RACY_WINDOW_MS;
}

function fileEntry(stats: Stats, state: FileCheckpointState, now: number): IndexedEntry {
	return {
		kind: "file",
		size: stats.size,
		mtimeMs: stats.mtimeMs,
		ino: stats.ino,
		mode: fileMode(stats),
		state,
		racy: isRacy(stats, now),
	};
}

function statMatches(entry: IndexedEntry | undefined, stats: Stats): boolean {
	return (
		entry?.kind === "file" &&
		!entry.racy &&
		entry.size === stats.size &&
		entry.mtimeMs === stats.mtimeMs &&
		entry.ino === stats.ino &&
		entry.mode === fileMode(stats)
	);
}

interface WalkFrame {
	rel: string;
	abs: string;
	layers: IgnoreLayer[];
	entries: Dirent[];
	next: number;
}

export class WorkingTreeIndex {
	readonly entries = new Map<string, IndexedEntry>();
	private fileCount = 0;
	private ancestorLayers: IgnoreLayer[] = [];
	/** Ignore layers in effect inside each tracked directory (inherited plus its own), by relative path. */
	private readonly dirLayers = new Map<string, IgnoreLayer[]>();
	/** Directories whose entries were not all indexed (the file limit): what appears in them is unknown. */
	private readonly incompleteDirs = new Set<string>();
	private limitReported = false;
	private built = false;

	constructor(private readonly options: TreeIndexOptions) {}

	get isBuilt(): boolean {
		return this.built;
	}

	get trackedFiles(): number {
		return this.fileCount;
	}

	get(path: string): IndexedEntry | undefined {
		return this.entries.get(path);
	}

	stateOf(path: string): FileCheckpointState {
		return stateOfEntry(this.entries.get(path));
	}

	/**
	 * The first walk: every tracked file's content goes into one pack of the store. Runs in slices of the event
	 * loop; `signal` stops it (the index stays unbuilt).
	 */
	async build(signal?: AbortSignal): Promise<void> {
		this.ancestorLayers = await loadAncestorLayers(this.options.root);
		// Stopped while the ignore files were read (the session ended at once): the store is not even created.
		signal?.throwIfAborted();
		const store = this.options.store();
		const pack = store.beginPack();
		const frames: WalkFrame[] = [];
		const now = Date.now();
		const openDir = (rel: string, inherited: IgnoreLayer[]) => {
			const frame = this.openDirectory(rel, inherited);
			if (frame) frames.push(frame);
		};
		const step = () => {
			const frame = frames[frames.length - 1] as WalkFrame;
			if (frame.next >= frame.entries.length) {
				frames.pop();
				return;
			}
			const dirent = frame.entries[frame.next++] as Dirent;
			const rel = frame.rel ? `${frame.rel}/${dirent.name}` : dirent.name;
			if (this.fileCount >= this.options.maxFiles && !dirent.isDirectory()) {
				this.markIncomplete(frame.rel);
				return;
			}
			const kind = this.trackedKind(dirent, frame);
			if (kind === "dir") {
				this.entries.set(rel, { kind: "dir" });
				openDir(rel, frame.layers);
			} else if (kind === "file") this.indexFile(rel, childPath(frame.abs, dirent.name), pack, now);
			else if (kind === "link") this.indexLink(rel);
		};
		try {
			openDir("", this.ancestorLayers);
			await runInSlices(() => frames.length > 0, step, signal);
			pack.commit();
		} catch (error) {
			pack.abort();
			this.entries.clear();
			this.fileCount = 0;
			throw error;
		}
		this.built = true;
	}

	/**
	 * Looks at each path again (the watcher saw something happen there): its content is read again whatever its
	 * stat says, a new directory is walked, a vanished one drops with everything under it.
	 */
	refreshPaths(paths: Iterable<string>): ObservedChange[] {
		const changes: ObservedChange[] = [];
		const ignoreFilesChanged = new Set<string>();
		for (const path of paths) {
			this.refreshPath(path, changes, true);
			const name = path.slice(path.lastIndexOf("/") + 1);
			if ((IGNORE_FILE_NAMES as readonly string[]).includes(name)) ignoreFilesChanged.add(parentOf(path));
		}
		// New ignore rules: files they now ignore leave the index, files they no longer ignore join it, neither as a
		// change of the command's (the file itself did not change).
		for (const dir of ignoreFilesChanged) {
			this.dirLayers.clear();
			this.rescanSubtree(dir, { silent: true });
		}
		return changes;
	}

	/**
	 * Compares a whole subtree with the index by stat (the fallback without a watcher, or after ignore rules
	 * changed). `silent`: the index follows the tree, but nothing is reported.
	 */
	rescanSubtree(dir: string, options: { silent?: boolean } = {}): ObservedChange[] {
		const changes: ObservedChange[] = [];
		const seen = new Set<string>();
		const now = Date.now();
		const sink = options.silent ? [] : changes;
		const visit = (rel: string, inherited: IgnoreLayer[]) => {
			const frame = this.openDirectory(rel, inherited);
			if (!frame) return;
			for (const dirent of frame.entries) {
				const childRel = rel ? `${rel}/${dirent.name}` : dirent.name;
				const kind = this.trackedKind(dirent, frame);
				if (kind === undefined) continue;
				const previous = this.entries.get(childRel);
				if (!previous && kind !== "dir" && this.fileCount >= this.options.maxFiles) {
					this.markIncomplete(rel);
					continue;
				}
				seen.add(childRel);
				if (kind === "dir") {
					if (previous?.kind !== "dir") this.replace(childRel, { kind: "dir" }, sink, options.silent);
					visit(childRel, frame.layers);
				} else if (kind === "link") {
					this.refreshPath(childRel, sink, false, options.silent);
				} else {
					let stats: Stats | undefined;
					try {
						stats = lstatSync(this.absolute(childRel));
					} catch {
						continue;
					}
					if (statMatches(previous, stats)) continue;
					this.refreshFile(childRel, stats, sink, now, options.silent);
				}
			}
		};
		const base = this.entries.get(dir);
		if (dir === "" || base?.kind === "dir") visit(dir, this.layersFor(parentOf(dir)));
		const prefix = dir === "" ? "" : `${dir}/`;
		for (const path of [...this.entries.keys()]) {
			if (!path.startsWith(prefix) || seen.has(path)) continue;
			const entry = this.entries.get(path);
			// Gone already with a directory above it.
			if (!entry || this.isUnderIncomplete(path)) continue;
			this.forget(path, entry, sink, options.silent);
		}
		return changes;
	}

	/** Records what an exact recording (a tool's write, a restore) saw, so the next scan does not report it. */
	noteWritten(path: string, absolutePath: string, state: FileCheckpointState): void {
		if (this.isExcludedPath(path)) return;
		if (state === null) {
			const entry = this.entries.get(path);
			if (entry) this.forget(path, entry, [], true);
			return;
		}
		let stats: Stats | undefined;
		try {
			stats = lstatSync(absolutePath, { throwIfNoEntry: false });
		} catch {
			stats = undefined;
		}
		if (!stats) return;
		const previous = this.entries.get(path);
		if (!previous && !("dir" in state) && this.fileCount >= this.options.maxFiles) return;
		if ("dir" in state) {
			if (!previous) this.replace(path, { kind: "dir" }, [], true);
			return;
		}
		const entry: IndexedEntry =
			"link" in state ? { kind: "link", target: state.link } : fileEntry(stats, state, Date.now());
		this.replace(path, entry, [], true);
	}

	/** Whether the scan would look at `path` (not ignored, not under a skipped or excluded directory). */
	isTracked(path: string, isDirectory: boolean): boolean {
		if (this.isExcludedPath(path)) return false;
		const parent = parentOf(path);
		if (path !== "" && !this.isDirectoryWalked(parent)) return false;
		const name = path.slice(path.lastIndexOf("/") + 1);
		if (isDirectory && SKIPPED_DIRECTORY_NAMES.has(name)) return false;
		if (!isDirectory && isAtomicWriteTempName(name)) return false;
		return !isIgnoredByLayers(this.layersFor(parent), this.absolute(path), isDirectory);
	}

	private absolute(path: string): string {
		return path === "" ? this.options.root : join(this.options.root, ...path.split("/"));
	}

	private isExcludedPath(path: string): boolean {
		const absolute = this.absolute(path);
		for (const excluded of this.options.excluded()) if (isInsideDir(absolute, excluded)) return true;
		return false;
	}

	/** Whether the walk goes into `dir` (every directory between the root and it tracked). */
	private isDirectoryWalked(dir: string): boolean {
		return dir === "" || this.entries.get(dir)?.kind === "dir";
	}

	private isUnderIncomplete(path: string): boolean {
		return this.incompleteDirs.has(parentOf(path));
	}

	private markIncomplete(dir: string): void {
		this.incompleteDirs.add(dir);
		if (this.limitReported) return;
		this.limitReported = true;
		this.options.onFileLimit?.(this.options.maxFiles);
	}

	/** The ignore layers that apply to the entries of `dir` (computed once per directory). */
	private layersFor(dir: string): IgnoreLayer[] {
		const known = this.dirLayers.get(dir);
		if (known) return known;
		const inherited = dir === "" ? this.ancestorLayers : this.layersFor(parentOf(dir));
		const own = loadIgnoreLayerSync(this.absolute(dir));
		const layers = own ? [...inherited, own] : inherited;
		this.dirLayers.set(dir, layers);
		return layers;
	}

	private openDirectory(rel: string, inherited: IgnoreLayer[]): WalkFrame | undefined {
		const abs = this.absolute(rel);
		// Watched before it is listed: a file created between the listing and the watch is not missed.
		this.options.onDirectoryAdded?.(abs);
		let entries: Dirent[];
		try {
			entries = readdirSync(abs, { withFileTypes: true });
		} catch {
			return undefined;
		}
		let layers = inherited;
		if (entries.some((entry) => (IGNORE_FILE_NAMES as readonly string[]).includes(entry.name))) {
			const layer = loadIgnoreLayerSync(abs);
			if (layer) layers = [...inherited, layer];
		}
		this.dirLayers.set(rel, layers);
		return { rel, abs, layers, entries, next: 0 };
	}

	/** What the walk does with a directory entry: track it as a file, link or directory, or skip it. */
	private trackedKind(dirent: Dirent, frame: WalkFrame): "file" | "link" | "dir" | undefined {
		const isDirectory = dirent.isDirectory();
		if (isDirectory && SKIPPED_DIRECTORY_NAMES.has(dirent.name)) return undefined;
		if (!isDirectory && isAtomicWriteTempName(dirent.name)) return undefined;
		const abs = childPath(frame.abs, dirent.name);
		if (this.options.excluded().has(abs)) return undefined;
		if (frame.layers.length > 0 && isIgnoredByLayers(frame.layers, abs, isDirectory)) return undefined;
		if (isDirectory) return "dir";
		if (dirent.isFile()) return "file";
		if (dirent.isSymbolicLink()) return "link";
		if (dirent.isFIFO() || dirent.isSocket() || dirent.isCharacterDevice() || dirent.isBlockDevice())
			return undefined;
		// Some file systems give no type in directory entries.
		const stats = lstatSync(abs, { throwIfNoEntry: false });
		if (!stats) return undefined;
		if (stats.isDirectory()) return SKIPPED_DIRECTORY_NAMES.has(dirent.name) ? undefined : "dir";
		if (stats.isFile()) return "file";
		return stats.isSymbolicLink() ? "link" : undefined;
	}

	/** A file of the first walk: opened once (its fstat is its stat), its content added to the pack. */
	private indexFile(rel: string, abs: string, pack: PackWriter, now: number): void {
		let opened: OpenedFile;
		try {
			opened = readFileNoFollow(abs, this.options.maxFileBytes);
		} catch {
			// Gone, replaced by a link or a FIFO, or unreadable: an unreadable file is still tracked.
			let stats: Stats | undefined;
			try {
				stats = lstatSync(abs, { throwIfNoEntry: false });
			} catch {
				// Its directory went away or became something else meanwhile.
				return;
			}
			if (stats?.isFile()) this.setEntry(rel, fileEntry(stats, unreadState("unreadable", stats), now));
			return;
		}
		const { stats, content } = opened;
		let state: FileCheckpointState;
		if (content === undefined) {
			state = unreadState("too-large", stats);
		} else {
			const hash = hashContent(content);
			const mode = fileMode(stats);
			state = pack.add(hash, content)
				? { blob: hash, size: content.length, mode }
				: { unrecorded: "store-full", size: content.length, mode, hash, mtimeMs: stats.mtimeMs };
		}
		this.setEntry(rel, fileEntry(stats, state, now));
	}

	private indexLink(rel: string): void {
		const observed = observePath(this.absolute(rel), { maxFileBytes: 0 });
		if (observed.state !== null && "link" in observed.state) {
			this.setEntry(rel, { kind: "link", target: observed.state.link });
		}
	}

	private refreshPath(path: string, changes: ObservedChange[], rehash: boolean, silent = false): void {
		const previous = this.entries.get(path);
		const parent = parentOf(path);
		// Inside a directory the file limit cut short, a path the index lacks may be an old file: not a creation.
		if (!previous && this.incompleteDirs.has(parent)) return;
		const abs = this.absolute(path);
		const stats = lstatSync(abs, { throwIfNoEntry: false });
		const isDirectory = stats?.isDirectory() === true;
		const tracked = stats !== undefined && this.isTracked(path, isDirectory);
		if (!stats || !tracked || !(stats.isFile() || stats.isDirectory() || stats.isSymbolicLink())) {
			// Ignored now (rules changed) is not a deletion; gone is.
			if (previous) this.forget(path, previous, changes, silent || (stats !== undefined && !tracked));
			return;
		}
		if (isDirectory) {
			if (previous?.kind === "dir") return;
			this.replace(path, { kind: "dir" }, changes, silent);
			this.walkNewDirectory(path, changes, silent);
			return;
		}
		if (stats.isSymbolicLink()) {
			const observed = observePath(abs, { maxFileBytes: 0 });
			if (observed.state === null || !("link" in observed.state)) return;
			this.replace(path, { kind: "link", target: observed.state.link }, changes, silent);
			return;
		}
		if (!previous && this.fileCount >= this.options.maxFiles) {
			this.markIncomplete(parent);
			return;
		}
		if (!rehash && statMatches(previous, stats)) return;
		this.refreshFile(path, stats, changes, Date.now(), silent);
	}

	private refreshFile(path: string, stats: Stats, changes: ObservedChange[], now: number, silent = false): void {
		let content: Buffer | undefined;
		let state: FileCheckpointState;
		try {
			content =
				stats.size > this.options.maxFileBytes
					? undefined
					: readRegularFileNoFollow(this.absolute(path), this.options.maxFileBytes);
			state = fileStateOf(content, stats, this.options.store());
		} catch {
			state = unreadState("unreadable", stats);
		}
		this.replace(path, fileEntry(stats, state, now), changes, silent);
	}

	/** A directory that appeared: everything in it is new. */
	private walkNewDirectory(dir: string, changes: ObservedChange[], silent: boolean): void {
		const now = Date.now();
		const visit = (rel: string, inherited: IgnoreLayer[]) => {
			const frame = this.openDirectory(rel, inherited);
			if (!frame) return;
			for (const dirent of frame.entries) {
				const childRel = `${rel}/${dirent.name}`;
				const kind = this.trackedKind(dirent, frame);
				if (kind === undefined) continue;
				if (kind === "dir") {
					this.replace(childRel, { kind: "dir" }, changes, silent);
					visit(childRel, frame.layers);
					continue;
				}
				if (this.fileCount >= this.options.maxFiles) {
					this.markIncomplete(rel);
					continue;
				}
				if (kind === "link") {
					this.refreshPath(childRel, changes, true, silent);
					continue;
				}
				const stats = lstatSync(this.absolute(childRel), { throwIfNoEntry: false });
				if (stats?.isFile()) this.refreshFile(childRel, stats, changes, now, silent);
			}
		};
		visit(dir, this.layersFor(parentOf(dir)));
	}

	/** Sets the entry of `path`, reporting the change unless silent or unchanged. */
	private replace(path: string, entry: IndexedEntry, changes: ObservedChange[], silent = false): void {
		const before = stateOfEntry(this.entries.get(path));
		const after = stateOfEntry(entry);
		this.setEntry(path, entry);
		if (!silent && !sameState(before, after)) changes.push({ path, before, after });
	}

	/** Drops `path` (and, for a directory, everything under it) from the index, reporting deletions. */
	private forget(path: string, entry: IndexedEntry, changes: ObservedChange[], silent = false): void {
		if (entry.kind === "dir") {
			const prefix = `${path}/`;
			// Deepest first, so a restore recreates directories before their files.
			const below = [...this.entries.keys()]
				.filter((key) => key.startsWith(prefix))
				.sort()
				.reverse();
			for (const key of below) {
				const child = this.entries.get(key) as IndexedEntry;
				this.deleteEntry(key);
				if (child.kind === "dir") {
					this.dirLayers.delete(key);
					this.incompleteDirs.delete(key);
					this.options.onDirectoryRemoved?.(this.absolute(key));
				}
				if (!silent) changes.push({ path: key, before: stateOfEntry(child), after: null });
			}
			this.dirLayers.delete(path);
			this.incompleteDirs.delete(path);
			this.options.onDirectoryRemoved?.(this.absolute(path));
		}
		this.deleteEntry(path);
		if (!silent) changes.push({ path, before: stateOfEntry(entry), after: null });
	}

	private setEntry(path: string, entry: IndexedEntry): void {
		const previous = this.entries.get(path);
		if (previous && previous.kind !== "dir") this.fileCount--;
		if (entry.kind !== "dir") this.fileCount++;
		this.entries.set(path, entry);
	}

	private deleteEntry(path: string): void {
		const previous = this.entries.get(path);
		if (!previous) return;
		if (previous.kind !== "dir") this.fileCount--;
		this.entries.delete(path);
	}
}

function childPath(dir: string, name: string): string {
	return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** The directory holding `path` ("" for the root). */
export function parentOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash === -1 ? "" : path.slice(0, slash);
}
