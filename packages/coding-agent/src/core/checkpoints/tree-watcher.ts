// Which paths of the working tree changed, without scanning it: one file-system watch per tracked directory
// (inotify on Linux). A command's changes are complete once a barrier arrives: an attribute change of a file in a
// private directory watched on the same inotify queue, made after the command ended. The kernel queues events in
// the order the changes happened and libuv delivers them in that order, so every change the command made has
// been reported before the barrier's own event; no timer is involved. Where watching is not available (another
// platform, the inotify watch limit) the caller falls back to scanning.
import { type FSWatcher, utimesSync, watch, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { makeTempDir, removeTempPath } from "../temp-paths.js";

/** How long a barrier may take before watching is declared broken (a safety net, not a synchronisation). */
const BARRIER_FAILURE_MS = 5000;
/** The files whose attribute changes are the barriers. */
const BARRIER_FILES = ["a", "b"] as const;
/** More events than this between two barriers: the kernel queue may have overflowed; rescan instead. */
export const MAX_EVENTS_BETWEEN_BARRIERS = 20_000;

export function isWatchingSupported(): boolean {
	return process.platform === "linux";
}

/** What the watches reported since the last `takeChanges()`. */
export interface WatchedChanges {
	/** Relative paths (with `/`) that something happened to. */
	paths: Set<string>;
	/** Too many events, or a directory's watch failed: the tree must be rescanned. */
	needsRescan: boolean;
}

export class TreeWatcher {
	private readonly watchers = new Map<string, FSWatcher>();
	private paths = new Set<string>();
	private events = 0;
	private needsRescan = false;
	private barrierDir: string | undefined;
	private barrierWatcher: FSWatcher | undefined;
	private barrierCount = 0;
	/** Barriers waiting for their file's event, oldest first, per file. */
	private readonly waiting = new Map<string, (() => void)[]>();
	private broken = false;

	constructor(
		/** The working directory's real path. */
		private readonly root: string,
		/** Called once when watching stops working (the caller falls back to scanning). */
		private readonly onBroken: (reason: string) => void,
	) {}

	get isBroken(): boolean {
		return this.broken;
	}

	/** Starts watching `absoluteDir`. False (and broken) when the system refuses, e.g. at its watch limit. */
	add(absoluteDir: string): boolean {
		if (this.broken) return false;
		if (this.watchers.has(absoluteDir)) return true;
		try {
			const watcher = watch(absoluteDir, { persistent: false }, (_event, name) => this.onEvent(absoluteDir, name));
			watcher.on("error", () => {
				// The directory went away (its parent reports that) or the watch failed: rescan to be sure.
				this.watchers.delete(absoluteDir);
				this.needsRescan = true;
			});
			this.watchers.set(absoluteDir, watcher);
			return true;
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			// A directory that vanished before it could be watched is reported by its parent.
			if (code === "ENOENT" || code === "ENOTDIR") return true;
			this.breakDown(
				code === "ENOSPC"
					? "the system's limit of watched directories was reached (fs.inotify.max_user_watches)"
					: `watching ${absoluteDir} failed (${code ?? String(error)})`,
			);
			return false;
		}
	}

	/** Stops watching `absoluteDir`. */
	remove(absoluteDir: string): void {
		this.watchers.get(absoluteDir)?.close();
		this.watchers.delete(absoluteDir);
	}

	get watchedDirectories(): number {
		return this.watchers.size;
	}

	/** Waits until every change made before this call has been reported, then hands over what was reported. */
	async takeChanges(): Promise<WatchedChanges> {
		await this.barrier();
		const changes = { paths: this.paths, needsRescan: this.needsRescan || this.events > MAX_EVENTS_BETWEEN_BARRIERS };
		this.paths = new Set();
		this.events = 0;
		this.needsRescan = false;
		return changes;
	}

	dispose(): void {
		for (const watcher of this.watchers.values()) watcher.close();
		this.watchers.clear();
		this.barrierWatcher?.close();
		this.barrierWatcher = undefined;
		if (this.barrierDir) removeTempPath(this.barrierDir);
		this.barrierDir = undefined;
		for (const queue of this.waiting.values()) for (const resolve of queue) resolve();
		this.waiting.clear();
	}

	private onEvent(dir: string, name: string | Buffer | null): void {
		this.events++;
		const rel = relative(this.root, dir);
		const dirPath = sep === "/" ? rel : rel.split(sep).join("/");
		if (name === null) {
			// No name: the kernel could not say what changed in the directory.
			this.needsRescan = true;
			return;
		}
		const text = typeof name === "string" ? name : name.toString("utf8");
		this.paths.add(dirPath ? `${dirPath}/${text}` : text);
	}

	private async barrier(): Promise<void> {
		if (this.broken) return;
		if (!this.barrierWatcher) {
			try {
				this.barrierDir = makeTempDir("agent-checkpoint-barrier-");
				for (const name of BARRIER_FILES) writeFileSync(join(this.barrierDir, name), "");
				this.barrierWatcher = watch(this.barrierDir, { persistent: false }, (_event, name) => {
					const key = typeof name === "string" ? name : name ? String(name) : "";
					this.waiting.get(key)?.shift()?.();
				});
			} catch (error) {
				this.breakDown(`the barrier directory could not be watched (${String(error)})`);
				return;
			}
		}
		// Touching a file costs a few microseconds where creating and removing one costs ~0.1 ms. Successive barriers
		// use the two files in turn: the kernel merges an event into an identical one still unread before it.
		const name = BARRIER_FILES[++this.barrierCount % BARRIER_FILES.length];
		const watcher = this.barrierWatcher;
		// The watch must keep the process alive while it is awaited.
		watcher.ref();
		let timer: ReturnType<typeof setTimeout> | undefined;
		try {
			await new Promise<void>((resolve) => {
				const queue = this.waiting.get(name) ?? [];
				this.waiting.set(name, queue);
				queue.push(resolve);
				timer = setTimeout(() => {
					this.breakDown("file-system events stopped arriving");
					resolve();
				}, BARRIER_FAILURE_MS);
				timer.unref();
				try {
					const now = new Date();
					utimesSync(join(this.barrierDir as string, name), now, now);
				} catch (error) {
					// E.g. a temp cleaner removed the directory during a long session.
					this.breakDown(`the barrier could not be written (${String(error)})`);
				}
			});
		} finally {
			if (timer) clearTimeout(timer);
			watcher.unref();
		}
	}

	private breakDown(reason: string): void {
		if (this.broken) return;
		this.broken = true;
		this.dispose();
		this.onBroken(reason);
	}
}
