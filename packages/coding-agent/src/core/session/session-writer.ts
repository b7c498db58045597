// Writing one session file: append-only lines under a lock naming this process, and the atomic rewrite a
// migration needs. Every append is one write call of whole lines, so a kill -9 loses at most the line in flight.
import { closeSync, fstatSync, mkdirSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { type FileLock, FileLockedError, type LockHolder, tryAcquireFileLock } from "../config/file-lock.js";
import { replaceFileAtomically } from "../tools/atomic-write.js";

/** Another process (or another session object of this process) has the session file open for writing. */
export class SessionLockedError extends FileLockedError {
	constructor(
		readonly sessionFile: string,
		lockPath: string,
		holder: LockHolder | undefined,
	) {
		const who =
			holder === undefined
				? "another process"
				: holder.pid === process.pid
					? "another session of this process"
					: `another agent process (pid ${holder.pid})`;
		super(
			`Session file ${sessionFile} is already open in ${who}. Appending from two processes would interleave ` +
				`their entries, so it was not opened for writing. Close the other one, or continue in a new or forked session. ` +
				`If no such process is running, delete ${lockPath}.`,
			lockPath,
			holder,
		);
		this.name = "SessionLockedError";
	}
}

/** Why the session file could not be written. The in-memory session keeps working meanwhile. */
export interface SessionPersistenceError {
	sessionFile: string;
	/** errno code such as ENOSPC, EROFS or EACCES, when the failure came from the file system. */
	code?: string;
	message: string;
}

export function lockPathFor(sessionFile: string): string {
	return `${sessionFile}.lock`;
}

function errnoCode(error: unknown): string | undefined {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	return typeof code === "string" ? code : undefined;
}

export function describePersistenceError(sessionFile: string, error: unknown): SessionPersistenceError {
	const code = errnoCode(error);
	const reason =
		code === "ENOSPC"
			? "the disk is full"
			: code === "EROFS"
				? "the file system is read-only"
				: code === "EACCES" || code === "EPERM"
					? "permission denied"
					: error instanceof Error
						? error.message
						: String(error);
	return {
		sessionFile,
		...(code ? { code } : {}),
		message:
			`Could not write session file ${sessionFile}: ${reason}. The session continues in memory and ` +
			"unsaved entries are written as soon as writing works again.",
	};
}

function writeAll(fd: number, data: Buffer): void {
	let offset = 0;
	while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
}

function lastByteOf(fd: number): number | undefined {
	const { size } = fstatSync(fd);
	if (size === 0) return undefined;
	const byte = Buffer.alloc(1);
	readSync(fd, byte, 0, 1, size - 1);
	return byte[0];
}

const NEWLINE = 0x0a;

/** Appends to, and when migrating rewrites, one session file while holding its lock. */
export class SessionFileWriter {
	private lock: FileLock | undefined;
	/** Set when the file may end in a partial line (a crash, or a failed write): checked before the next append. */
	private mayEndMidLine: boolean;

	constructor(
		readonly sessionFile: string,
		options: { mayEndMidLine?: boolean } = {},
	) {
		this.mayEndMidLine = options.mayEndMidLine ?? false;
	}

	get isLocked(): boolean {
		return this.lock !== undefined;
	}

	/**
	 * Takes the file's lock. Throws SessionLockedError when a live process holds it; file-system errors
	 * (a read-only directory) are thrown as they are.
	 */
	acquireLock(): void {
		if (this.lock) return;
		mkdirSync(dirname(this.sessionFile), { recursive: true });
		const lockPath = lockPathFor(this.sessionFile);
		const attempt = tryAcquireFileLock(lockPath);
		if (!attempt.lock) throw new SessionLockedError(this.sessionFile, lockPath, attempt.heldBy);
		this.lock = attempt.lock;
	}

	releaseLock(): void {
		this.lock?.release();
		this.lock = undefined;
	}

	markMayEndMidLine(): void {
		this.mayEndMidLine = true;
	}

	/** Appends whole lines in one write call. Throws on failure (after which the file may end mid-line). */
	append(text: string): void {
		if (text.length === 0) return;
		this.acquireLock();
		let fd: number | undefined;
		try {
			fd = openSync(this.sessionFile, "a+", 0o600);
			let data = Buffer.from(text, "utf8");
			// Never glue a new line onto a partial one: that would make both unreadable.
			if (this.mayEndMidLine) {
				const last = lastByteOf(fd);
				if (last !== undefined && last !== NEWLINE) data = Buffer.concat([Buffer.from("\n"), data]);
			}
			writeAll(fd, data);
			this.mayEndMidLine = false;
		} catch (error) {
			this.mayEndMidLine = true;
			throw error;
		} finally {
			if (fd !== undefined) closeSync(fd);
		}
	}

	/**
	 * Replaces the whole file atomically (temp file, fsync, rename), keeping its permissions. Used only by
	 * migrations; the caller passes every line, unusable ones verbatim.
	 */
	rewrite(text: string): void {
		this.acquireLock();
		let mode = 0o600;
		try {
			mode = statSync(this.sessionFile).mode & 0o777;
		} catch {
			// New file: private by default.
		}
		replaceFileAtomically(this.sessionFile, text, mode);
		this.mayEndMidLine = false;
	}
}
