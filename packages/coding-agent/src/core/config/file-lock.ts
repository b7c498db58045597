// Advisory lock files naming their holder: `<file>.lock` holds the pid (and, on Linux, the process start time)
// of the process that owns `<file>`. A lock whose holder is gone — killed with -9, or a pid reused by another
// program — is taken over, so a crash never blocks a file forever.
import { randomUUID } from "node:crypto";
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { OWN_START_TIME, processEnded } from "../process-identity.js";

/** What a lock file says about its holder. */
export interface LockHolder {
	pid: number;
	/** Unique per acquisition, so a process can tell its own lock from a dead namesake's. */
	token: string;
	/** Kernel start time of the holder (Linux `/proc/<pid>/stat` field 22), to detect pid reuse. */
	startTime?: string;
	acquiredAt: string;
}

export class FileLockedError extends Error {
	constructor(
		message: string,
		readonly lockPath: string,
		readonly holder: LockHolder | undefined,
	) {
		super(message);
		this.name = "FileLockedError";
	}
}

export interface FileLock {
	readonly lockPath: string;
	readonly holder: LockHolder;
	/** Removes the lock file if it is still ours. Idempotent. */
	release(): void;
}

const heldLocks = new Map<string, FileLock>();
let exitHookInstalled = false;

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on("exit", () => {
		for (const lock of [...heldLocks.values()]) lock.release();
	});
}

function parseHolder(text: string): LockHolder | undefined {
	try {
		const value = JSON.parse(text) as Partial<LockHolder>;
		if (typeof value.pid !== "number" || typeof value.token !== "string") return undefined;
		return {
			pid: value.pid,
			token: value.token,
			acquiredAt: typeof value.acquiredAt === "string" ? value.acquiredAt : "",
			...(typeof value.startTime === "string" ? { startTime: value.startTime } : {}),
		};
	} catch {
		return undefined;
	}
}

function readHolder(lockPath: string): { text: string; holder: LockHolder | undefined } | undefined {
	try {
		const text = readFileSync(lockPath, "utf8");
		return { text, holder: parseHolder(text) };
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
}

/** Whether the process named in a lock file still runs (and is the same process, not a reused pid). */
export function isLockHolderAlive(holder: LockHolder): boolean {
	if (holder.pid === process.pid) {
		for (const lock of heldLocks.values()) if (lock.holder.token === holder.token) return true;
		return false;
	}
	return !processEnded(holder.pid, holder.startTime);
}

function createLock(lockPath: string, holder: LockHolder): FileLock {
	const lock: FileLock = {
		lockPath,
		holder,
		release() {
			if (heldLocks.get(lockPath) !== lock) return;
			heldLocks.delete(lockPath);
			try {
				if (readHolder(lockPath)?.holder?.token === holder.token) unlinkSync(lockPath);
			} catch {
				// Already gone or unreadable: nothing of ours to remove.
			}
		},
	};
	heldLocks.set(lockPath, lock);
	installExitHook();
	return lock;
}

/** Moves a dead holder's lock aside, checking that what was moved is the lock judged dead. */
function removeStaleLock(lockPath: string, staleText: string): void {
	const aside = `${lockPath}.stale-${randomUUID()}`;
	try {
		renameSync(lockPath, aside);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
		throw error;
	}
	let movedText: string | undefined;
	try {
		movedText = readFileSync(aside, "utf8");
	} catch {
		movedText = undefined;
	}
	if (movedText !== staleText) {
		// Another process took the stale lock over between our read and our rename: give it back.
		try {
			linkSync(aside, lockPath);
		} catch {
			// A third process holds it now; the moved lock's owner will find it missing on release.
		}
	}
	try {
		unlinkSync(aside);
	} catch {
		// Best effort.
	}
}

export type LockAttempt = { lock: FileLock; heldBy?: undefined } | { lock?: undefined; heldBy: LockHolder | undefined };

/**
 * One attempt to take `lockPath`. Returns the holder when a live process has it. File-system errors other
 * than "exists" (read-only directory, permissions) are thrown for the caller to report.
 */
export function tryAcquireFileLock(lockPath: string): LockAttempt {
	const existing = heldLocks.get(lockPath);
	if (existing) return { heldBy: existing.holder };
	for (let attempt = 0; attempt < 5; attempt++) {
		const holder: LockHolder = {
			pid: process.pid,
			token: randomUUID(),
			acquiredAt: new Date().toISOString(),
			...(OWN_START_TIME !== undefined ? { startTime: OWN_START_TIME } : {}),
		};
		// Written aside and hard-linked into place: the lock appears atomically, already naming its holder.
		const staging = `${lockPath}.${holder.token}.tmp`;
		writeFileSync(staging, JSON.stringify(holder), { mode: 0o600 });
		try {
			linkSync(staging, lockPath);
			return { lock: createLock(lockPath, holder) };
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		} finally {
			try {
				unlinkSync(staging);
			} catch {
				// Best effort.
			}
		}
		const current = readHolder(lockPath);
		if (!current) continue;
		// Locks appear fully written (see above), so one that names no holder is debris: taken over like a dead one.
		if (current.holder && isLockHolderAlive(current.holder)) return { heldBy: current.holder };
		removeStaleLock(lockPath, current.text);
	}
	return { heldBy: readHolder(lockPath)?.holder };
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread; only for the short retries of a lock around a read-modify-write of a small file. */
function blockFor(ms: number): void {
	Atomics.wait(sleepCell, 0, 0, ms);
}

/**
 * Takes `lockPath`, retrying while a live process holds it (for short critical sections such as rewriting
 * auth.json). Retries are short and jittered so a busy holder cannot starve a waiter. Throws FileLockedError
 * when it stays held for `timeoutMs`.
 */
export function acquireFileLock(
	lockPath: string,
	options: { timeoutMs?: number; describe?: (holder: LockHolder | undefined) => string } = {},
): FileLock {
	const deadline = Date.now() + (options.timeoutMs ?? 5000);
	let heldBy: LockHolder | undefined;
	for (;;) {
		const result = tryAcquireFileLock(lockPath);
		if (result.lock) return result.lock;
		heldBy = result.heldBy;
		if (Date.now() >= deadline) break;
		blockFor(5 + Math.floor(Math.random() * 20));
	}
	const message =
		options.describe?.(heldBy) ??
		`${lockPath} is held by another process${heldBy ? ` (pid ${heldBy.pid})` : ""}; remove it if that process is gone.`;
	throw new FileLockedError(message, lockPath, heldBy);
}
