// Where AuthStorage keeps auth.json's text (the reference's backend shape): read it under a lock, optionally
// replace it. The file backend is the one auth.json writer: 0600 in a 0700 directory, `auth.json.lock`, atomic
// replacement; `AuthStorage.create(path)` uses it, `AuthStorage.fromStorage(backend)` takes any backend.
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { replaceFileAtomically } from "../tools/atomic-write.js";
import { acquireFileLock, type FileLock, tryAcquireFileLock } from "./file-lock.js";
import { getAuthPath } from "./paths.js";

/** What a locked section returns: its result, and the new text of the store when it changes it. */
export interface AuthLockResult<T> {
	result: T;
	next?: string;
}

export interface AuthStorageBackend {
	/** Runs `fn` with the stored text (undefined when there is none) under the store's lock. */
	withLock<T>(fn: (current: string | undefined) => AuthLockResult<T>): T;
	withLockAsync<T>(fn: (current: string | undefined) => Promise<AuthLockResult<T>>): Promise<T>;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
/** A token refresh waits this many times (backing off up to 2 s) for another agent's refresh. */
const ASYNC_LOCK_ATTEMPTS = 12;

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

export class FileAuthStorageBackend implements AuthStorageBackend {
	constructor(readonly authPath: string = getAuthPath()) {}

	/** Creates the file (`{}`, 0600, directory 0700) when it is missing; never touches an existing one. */
	ensureFile(): void {
		try {
			mkdirSync(dirname(this.authPath), { recursive: true, mode: DIR_MODE });
			const fd = openSync(this.authPath, "wx", FILE_MODE);
			try {
				writeSync(fd, "{}");
			} finally {
				closeSync(fd);
			}
		} catch {
			// Exists already, or cannot be created: reading it reports what matters.
		}
	}

	/** The file's text without taking the lock (writers replace it atomically, so a read is never torn). */
	read(): string | undefined {
		try {
			return readFileSync(this.authPath, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
			throw error;
		}
	}

	withLock<T>(fn: (current: string | undefined) => AuthLockResult<T>): T {
		mkdirSync(dirname(this.authPath), { recursive: true, mode: DIR_MODE });
		const lock = acquireFileLock(this.lockPath(), {
			describe: (holder) =>
				`Could not save credentials: ${this.authPath} is being written by another process${holder ? ` (pid ${holder.pid})` : ""}.`,
		});
		try {
			const { result, next } = fn(this.read());
			if (next !== undefined) this.write(next);
			return result;
		} finally {
			lock.release();
		}
	}

	/**
	 * Waits for the lock (another agent may be refreshing the same token). When it cannot be had — an unwritable
	 * directory, or a holder that keeps it — `fn` runs without it rather than failing the request.
	 */
	async withLockAsync<T>(fn: (current: string | undefined) => Promise<AuthLockResult<T>>): Promise<T> {
		const lock = await this.acquireLockAsync();
		try {
			const { result, next } = await fn(this.read());
			if (next !== undefined) this.write(next);
			return result;
		} finally {
			lock?.release();
		}
	}

	private lockPath(): string {
		return `${this.authPath}.lock`;
	}

	private write(text: string): void {
		mkdirSync(dirname(this.authPath), { recursive: true, mode: DIR_MODE });
		replaceFileAtomically(this.authPath, text, FILE_MODE);
	}

	private async acquireLockAsync(): Promise<FileLock | undefined> {
		for (let attempt = 0; attempt < ASYNC_LOCK_ATTEMPTS; attempt++) {
			try {
				const result = tryAcquireFileLock(this.lockPath());
				if (result.lock) return result.lock;
			} catch {
				return undefined;
			}
			await delay(Math.min(100 * 2 ** attempt, 2000));
		}
		return undefined;
	}
}

/** Text held in memory only (tests, embedders that store credentials elsewhere). */
export class InMemoryAuthStorageBackend implements AuthStorageBackend {
	private value: string | undefined;

	withLock<T>(fn: (current: string | undefined) => AuthLockResult<T>): T {
		const { result, next } = fn(this.value);
		if (next !== undefined) this.value = next;
		return result;
	}

	async withLockAsync<T>(fn: (current: string | undefined) => Promise<AuthLockResult<T>>): Promise<T> {
		const { result, next } = await fn(this.value);
		if (next !== undefined) this.value = next;
		return result;
	}
}
