// Who changed which file. Edit and write calls are recorded exactly: the file is read before and after the
// call while the call holds the file's mutation queue. A bash command (the tool or `!cmd`) is a window: the
// working tree is settled (compared with the index) when it opens and when it closes, and what changed in
// between is the command's. Calls run in parallel (up to 8), so each change is attributed to every command
// window that was open while it could have happened; it is recorded with the last of them to report its
// result, so no point of the session claims a change that might have come later. Changes seen while no
// command runs are someone else's: the index follows them, nothing is recorded.
import { lstatSync } from "node:fs";
import { dirname } from "node:path";
import type { FileCheckpointChange, FileCheckpointSource, FileCheckpointState } from "../session/entries.js";
import { withFileMutationQueue } from "../tools/file-mutation-queue.js";
import type { BlobStore } from "./blob-store.js";
import { RecordPaths } from "./checkpoint-paths.js";
import { type Observation, observePath, sameState } from "./file-state.js";
import { type ObservedChange, WorkingTreeIndex } from "./tree-index.js";
import { isWatchingSupported, TreeWatcher } from "./tree-watcher.js";

export interface CheckpointLimits {
	maxFileBytes: number;
	maxFiles: number;
	/** Use file-system notifications where available; false rescans the tree around every command. */
	watch: boolean;
}

export interface RecorderOptions {
	cwd: string;
	limits: () => CheckpointLimits;
	/** The current session's store. */
	store: () => BlobStore;
	/** Absolute paths a scan never looks into (the session file, its lock and store). */
	excluded: () => ReadonlySet<string>;
	notice: (message: string) => void;
}

interface PendingChange extends ObservedChange {
	seq: number;
	source: FileCheckpointSource;
	/** Keys (tool call ids, user command keys) whose result may report this change. */
	candidates: Set<string>;
	/** All of them, for the entry's `toolCallIds`. */
	origin: string[];
}

/** Changes ready to be written as one entry, just before the result of `key`. */
export interface ReleasedChanges {
	source: FileCheckpointSource;
	files: FileCheckpointChange[];
	/** The keys the changes were attributed to. */
	keys: string[];
}

export function fileLimitNotice(maxFiles: number, root: string): string {
	return `File checkpoints track the first ${maxFiles.toLocaleString("en-US")} files of ${root} (checkpoints.maxFiles); what bash changes in the others is not recorded.`;
}

export function watchingStoppedNotice(reason: string): string {
	return `File checkpoints stopped watching the working tree: ${reason}. Each bash command now rescans the tree, which is slower.`;
}

/** Merges the changes of one path into one: the first `before`, the last `after`. No-op changes drop out. */
export function mergeChanges(changes: readonly (ObservedChange & { seq: number })[]): FileCheckpointChange[] {
	const byPath = new Map<string, FileCheckpointChange>();
	for (const change of [...changes].sort((a, b) => a.seq - b.seq)) {
		const known = byPath.get(change.path);
		if (known) {
			known.after = change.after;
			known.seq = change.seq;
		} else {
			byPath.set(change.path, { path: change.path, before: change.before, after: change.after, seq: change.seq });
		}
	}
	return [...byPath.values()].filter((change) => !sameState(change.before, change.after));
}

export class CheckpointRecorder {
	readonly paths: RecordPaths;
	private index: WorkingTreeIndex | undefined;
	private watcher: TreeWatcher | undefined;
	private indexing: Promise<WorkingTreeIndex | undefined> | undefined;
	private readonly buildAbort = new AbortController();
	private readonly openWindows = new Set<string>();
	/** Windows open at some moment since the last settle: the candidates of what the next settle finds. */
	private touchedWindows = new Set<string>();
	private pending: PendingChange[] = [];
	private readonly inFlight = new Map<string, number>();
	private seq = 1;
	private disposed = false;

	constructor(private readonly options: RecorderOptions) {
		this.paths = new RecordPaths(options.cwd);
	}

	/** The sequence number the next change gets (at least `next`). */
	continueSequenceFrom(next: number): void {
		this.seq = Math.max(this.seq, next);
	}

	/** Starts building the index of the working tree in the background (once). */
	prepare(): void {
		void this.ensureIndex();
	}

	/** The index once built; undefined when it cannot be (disposed, the walk failed). */
	ensureIndex(): Promise<WorkingTreeIndex | undefined> {
		this.indexing ??= this.buildIndex();
		return this.indexing;
	}

	/** Changes not yet written, by the keys they wait for (for tests and diagnostics). */
	get pendingCount(): number {
		return this.pending.length;
	}

	get isWatching(): boolean {
		return this.watcher !== undefined && !this.watcher.isBroken;
	}

	/**
	 * Runs an edit or write call (`run`) on `absolutePath` and records what it did to the file (and to the
	 * directories it created), attributed to `key` alone.
	 */
	async recordFileWrite<T>(
		key: string,
		source: FileCheckpointSource,
		absolutePath: string,
		run: () => Promise<T>,
	): Promise<T> {
		const path = this.paths.recordPathOf(absolutePath);
		const realPath = this.paths.toAbsolute(path);
		return withFileMutationQueue(absolutePath, async () => {
			const createdDirs = missingAncestors(realPath).map((dir) => this.paths.toRecordPath(dir));
			const touched = [path, ...createdDirs];
			for (const item of touched) this.markInFlight(item);
			let before: FileCheckpointState | undefined;
			try {
				before = this.observeBefore(path, realPath);
			} catch {
				before = undefined;
			}
			try {
				return await run();
			} finally {
				try {
					this.recordWrite(key, source, path, realPath, before, createdDirs);
				} finally {
					for (const item of touched) this.unmarkInFlight(item);
				}
			}
		});
	}

	/** Runs a command (`run`) as a window: what changes in the tree while it runs is attributed to `key`. */
	async recordCommand<T>(key: string, source: FileCheckpointSource, run: () => Promise<T>): Promise<T> {
		const index = await this.ensureIndex();
		if (!index) return run();
		await this.settle(source);
		this.openWindows.add(key);
		this.touchedWindows.add(key);
		try {
			return await run();
		} finally {
			await this.settle(source);
			this.openWindows.delete(key);
			this.touchedWindows.delete(key);
		}
	}

	/**
	 * The result of `key` is about to be written: the changes that now have no other candidate, merged per path.
	 * Undefined when there are none.
	 */
	release(key: string): ReleasedChanges | undefined {
		const released: PendingChange[] = [];
		this.pending = this.pending.filter((change) => {
			if (!change.candidates.delete(key)) return true;
			if (change.candidates.size > 0) return true;
			released.push(change);
			return false;
		});
		if (released.length === 0) return undefined;
		const files = mergeChanges(released);
		if (files.length === 0) return undefined;
		const keys = [...new Set(released.flatMap((change) => change.origin))];
		const own = released.find((change) => change.origin.includes(key)) ?? released[0];
		return { source: (own as PendingChange).source, files, keys };
	}

	/** Forgets changes not yet written (the session was replaced; their results will not come). */
	dropPending(): void {
		this.pending = [];
	}

	/** A restore (or another exact writer) is about to change these paths: a scan must not attribute them. */
	markInFlight(path: string): void {
		this.inFlight.set(path, (this.inFlight.get(path) ?? 0) + 1);
	}

	unmarkInFlight(path: string): void {
		const count = (this.inFlight.get(path) ?? 1) - 1;
		if (count <= 0) this.inFlight.delete(path);
		else this.inFlight.set(path, count);
	}

	/** After a restore wrote `path`: the index knows, so the next settle does not report it. */
	noteWritten(path: string, state: FileCheckpointState): void {
		if (this.index?.isBuilt && this.paths.isInside(path))
			this.index.noteWritten(path, this.paths.toAbsolute(path), state);
	}

	/** The index's state of `path`, when its stat still matches (no read needed); undefined otherwise. */
	knownState(path: string): FileCheckpointState | undefined {
		const index = this.index;
		if (!index?.isBuilt || !this.paths.isInside(path)) return undefined;
		const entry = index.get(path);
		if (entry?.kind !== "file" || entry.racy) return undefined;
		const stats = lstatSync(this.paths.toAbsolute(path), { throwIfNoEntry: false });
		if (!stats?.isFile()) return undefined;
		const same =
			stats.size === entry.size &&
			stats.mtimeMs === entry.mtimeMs &&
			stats.ino === entry.ino &&
			(stats.mode & 0o7777) === entry.mode;
		return same ? entry.state : undefined;
	}

	nextSeq(): number {
		return this.seq++;
	}

	dispose(): void {
		this.disposed = true;
		this.buildAbort.abort();
		this.watcher?.dispose();
		this.watcher = undefined;
	}

	private async buildIndex(): Promise<WorkingTreeIndex | undefined> {
		if (this.disposed) return undefined;
		const limits = this.options.limits();
		const watching = limits.watch && isWatchingSupported();
		const watcher = watching
			? new TreeWatcher(this.paths.root, (reason) => this.options.notice(watchingStoppedNotice(reason)))
			: undefined;
		const index = new WorkingTreeIndex({
			root: this.paths.root,
			store: this.options.store,
			maxFileBytes: limits.maxFileBytes,
			maxFiles: limits.maxFiles,
			excluded: this.options.excluded,
			...(watcher
				? {
						onDirectoryAdded: (dir: string) => void watcher.add(dir),
						onDirectoryRemoved: (dir: string) => watcher.remove(dir),
					}
				: {}),
			onFileLimit: (maxFiles) => this.options.notice(fileLimitNotice(maxFiles, this.paths.root)),
		});
		this.watcher = watcher;
		try {
			await index.build(this.buildAbort.signal);
		} catch (error) {
			watcher?.dispose();
			this.watcher = undefined;
			if (!this.disposed) {
				this.options.notice(
					`File checkpoints cannot record bash commands: the working tree could not be indexed (${error instanceof Error ? error.message : String(error)}).`,
				);
			}
			return undefined;
		}
		this.index = index;
		return index;
	}

	/** Compares the tree with the index and attributes what changed to the windows open since the last settle. */
	private async settle(source: FileCheckpointSource): Promise<void> {
		const index = this.index;
		if (!index) return;
		let changes: ObservedChange[];
		const watcher = this.watcher;
		if (watcher && !watcher.isBroken) {
			const watched = await watcher.takeChanges();
			changes =
				watched.needsRescan || watcher.isBroken ? index.rescanSubtree("") : index.refreshPaths(watched.paths);
		} else {
			changes = index.rescanSubtree("");
		}
		const candidates = this.touchedWindows;
		this.touchedWindows = new Set(this.openWindows);
		if (candidates.size === 0) return;
		const origin = [...candidates];
		for (const change of changes) {
			// A tool's own write in progress is recorded by that tool.
			if (this.inFlight.has(change.path)) continue;
			this.pending.push({ ...change, seq: this.nextSeq(), source, candidates: new Set(candidates), origin });
		}
	}

	/** A file's state before a write: the index's when its stat matches, else read (and stored) now. */
	private observeBefore(path: string, realPath: string): FileCheckpointState {
		const known = this.knownState(path);
		if (known !== undefined) return known;
		return this.observe(realPath).state;
	}

	private observe(realPath: string): Observation {
		return observePath(realPath, {
			maxFileBytes: this.options.limits().maxFileBytes,
			store: this.options.store(),
			hashLargeFiles: true,
		});
	}

	private recordWrite(
		key: string,
		source: FileCheckpointSource,
		path: string,
		realPath: string,
		before: FileCheckpointState | undefined,
		createdDirs: string[],
	): void {
		const changes: ObservedChange[] = [];
		for (const dir of createdDirs) {
			const state = observePath(this.paths.toAbsolute(dir), { maxFileBytes: 0 }).state;
			if (state === null || !("dir" in state)) continue;
			changes.push({ path: dir, before: null, after: state });
			this.noteWritten(dir, state);
		}
		const after = this.observe(realPath).state;
		this.noteWritten(path, after);
		if (before !== undefined && !sameState(before, after)) changes.push({ path, before, after });
		for (const change of changes) {
			this.pending.push({ ...change, seq: this.nextSeq(), source, candidates: new Set([key]), origin: [key] });
		}
	}
}

/** The directories above `path` that do not exist yet, outermost first. */
function missingAncestors(path: string): string[] {
	const missing: string[] = [];
	let current = dirname(path);
	while (current !== dirname(current) && lstatSync(current, { throwIfNoEntry: false }) === undefined) {
		missing.unshift(current);
		current = dirname(current);
	}
	return missing;
}
