// The checkpoint stores a process uses: the current session's (beside its file, or a temp directory for a
// session in memory), and the ones it used before, so a content read into an earlier session's store (the
// working tree's baseline, a forked session's history) can be copied into the current one when referenced.
import { existsSync } from "node:fs";
import type { FileCheckpointChange, FileCheckpointState } from "../session/entries.js";
import { makeTempDir, removeTempPath } from "../temp-paths.js";
import { BlobStore } from "./blob-store.js";
import { checkpointStoreDirFor } from "./checkpoint-paths.js";
import { blobOf } from "./file-state.js";

export class CheckpointStores {
	private readonly stores = new Map<string, BlobStore>();
	private memoryDir: string | undefined;
	/** Stores whose limit was reported. */
	private readonly reportedFull = new Set<string>();

	constructor(
		private readonly sessionFile: () => string | undefined,
		private readonly maxBytes: () => number,
	) {}

	/** The directory of the current session's store. */
	currentDir(): string {
		const file = this.sessionFile();
		if (file) return checkpointStoreDirFor(file);
		this.memoryDir ??= makeTempDir("agent-checkpoints-");
		return this.memoryDir;
	}

	current(): BlobStore {
		return this.open(this.currentDir());
	}

	/** The store of another session file (a fork's parent), when it exists. */
	ofSessionFile(file: string): BlobStore | undefined {
		const dir = checkpointStoreDirFor(file);
		return existsSync(dir) ? this.open(dir) : undefined;
	}

	/** Whether `hash` can be read from some store. */
	has(hash: string): boolean {
		for (const store of this.all()) if (store.has(hash)) return true;
		return false;
	}

	/** A content from the current store, else from another one (then copied into the current store). */
	read(hash: string): Buffer | undefined {
		const current = this.current();
		const own = current.read(hash);
		if (own) return own;
		for (const store of this.stores.values()) {
			if (store === current) continue;
			const bytes = store.read(hash);
			if (!bytes) continue;
			current.put(bytes);
			return bytes;
		}
		return undefined;
	}

	/**
	 * Makes the current store hold every content `files` refer to (copied from the other stores). A content no
	 * store has any more is recorded as unreadable rather than as a reference that leads nowhere.
	 */
	adopt(files: FileCheckpointChange[]): void {
		const current = this.current();
		const fix = (state: FileCheckpointState): FileCheckpointState => {
			const hash = blobOf(state);
			if (hash === undefined || current.holdsLastingly(hash) || state === null || !("blob" in state)) return state;
			// The current store first: a content only in another process's pack there is copied out of it.
			for (const store of this.all()) {
				if (!store.has(hash)) continue;
				if (current.importFrom(store, [hash]).length === 0) return state;
			}
			return {
				unrecorded: current.usedBytes >= current.maxBytes ? "store-full" : "unreadable",
				size: state.size,
				mode: state.mode,
			};
		};
		for (const change of files) {
			change.before = fix(change.before);
			change.after = fix(change.after);
		}
	}

	/** Copies every content the given hashes name into the current store (a fork's history). */
	importAll(hashes: Iterable<string>): void {
		const current = this.current();
		const missing = [...hashes].filter((hash) => !current.holdsLastingly(hash));
		for (const store of this.all()) {
			if (missing.length === 0) break;
			const failed = new Set(current.importFrom(store, missing));
			missing.splice(0, missing.length, ...missing.filter((hash) => failed.has(hash)));
		}
	}

	/** True the first time the current store is found to have refused a content (its limit). */
	reportFullOnce(): boolean {
		const store = this.current();
		if (!store.hasRefused || this.reportedFull.has(store.dir)) return false;
		this.reportedFull.add(store.dir);
		return true;
	}

	/**
	 * The current session is ending: its store keeps, of the baseline packs this process wrote, only the contents
	 * `referenced` (by the session's entries) names. No other process relies on those packs (`holdsLastingly`).
	 */
	releaseScratch(referenced: ReadonlySet<string>): void {
		const file = this.sessionFile();
		if (!file || !existsSync(file)) return;
		this.stores.get(checkpointStoreDirFor(file))?.releasePacks(referenced);
	}

	/**
	 * The session changed from the one of `previousFile` (undefined: in memory): the baseline packs this process
	 * wrote there move to the current store, with the index that reads them; the previous store keeps of them only
	 * the contents `referenced` (by its session's entries) names.
	 */
	handOver(previousFile: string | undefined, referenced: ReadonlySet<string>): void {
		const file = this.sessionFile();
		if (previousFile === file) return;
		// A session in memory has no file; all of them share the process's temp store.
		const previousDir = previousFile ? checkpointStoreDirFor(previousFile) : this.memoryDir;
		const previous = previousDir === undefined ? undefined : this.stores.get(previousDir);
		previous?.handOverPacks(this.current(), referenced);
	}

	/** Removes stores whose session file was never written, and the in-memory session's store. */
	dispose(): void {
		for (const [dir, store] of this.stores) {
			if (dir === this.memoryDir) continue;
			const file = this.sessionFileOf(dir);
			if (file !== undefined && !existsSync(file)) store.remove();
		}
		if (this.memoryDir) removeTempPath(this.memoryDir);
		this.memoryDir = undefined;
		this.stores.clear();
	}

	private all(): BlobStore[] {
		const current = this.current();
		return [current, ...[...this.stores.values()].filter((store) => store !== current)];
	}

	private open(dir: string): BlobStore {
		let store = this.stores.get(dir);
		if (!store) {
			store = new BlobStore(dir, this.maxBytes());
			this.stores.set(dir, store);
		}
		return store;
	}

	private readonly sessionFiles = new Map<string, string>();

	/** Remembers which session file a store belongs to (for the cleanup of unwritten sessions). */
	noteSessionFile(file: string): void {
		this.sessionFiles.set(checkpointStoreDirFor(file), file);
	}

	private sessionFileOf(dir: string): string | undefined {
		return this.sessionFiles.get(dir);
	}
}
