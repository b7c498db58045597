// Opening only regular files. A device (`/dev/zero`, `/dev/urandom`) never ends, so reading it whole grows
// memory without limit; opening a FIFO blocks until a writer appears — in a libuv worker thread for the async
// API (four of them exist, so a few such opens starve every later fs call) or the main thread for the sync one.
// The type is checked after following symlinks (a committed `README.md -> /dev/urandom`), before opening, and
// again on the opened descriptor: the open uses O_NONBLOCK, which returns at once for a FIFO, so a path
// swapped for a FIFO between the check and the open is caught by the fstat instead of blocking.
import { closeSync, constants, fstatSync, openSync, read, readSync, type Stats, statSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

// Absent on Windows, where opening a named pipe does not wait for a writer.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const READ_FLAGS = constants.O_RDONLY | O_NONBLOCK;

/** What a file is, as the error messages of the tools name it; undefined for a regular file. */
export function describeNonRegularFile(stats: Stats): string | undefined {
	if (stats.isFile()) return undefined;
	if (stats.isDirectory()) return "a directory";
	if (stats.isCharacterDevice()) return "a character device";
	if (stats.isBlockDevice()) return "a block device";
	if (stats.isFIFO()) return "a FIFO (named pipe)";
	if (stats.isSocket()) return "a socket";
	return "not a regular file";
}

/** Thrown for a path that is not a regular file; each tool turns it into its own model-facing message. */
export class NotRegularFileError extends Error {
	readonly code = "ENOTREG";
	constructor(
		readonly path: string,
		/** e.g. "a character device" (see `describeNonRegularFile`). */
		readonly fileType: string,
	) {
		super(`${path} is ${fileType}, not a regular file`);
		this.name = "NotRegularFileError";
	}
}

export function isNotRegularFileError(error: unknown): error is NotRegularFileError {
	return error instanceof NotRegularFileError;
}

function assertRegular(path: string, stats: Stats): void {
	const fileType = describeNonRegularFile(stats);
	if (fileType) throw new NotRegularFileError(path, fileType);
}

export interface OpenedRegularFile {
	handle: FileHandle;
	/** fstat of the opened descriptor. */
	stats: Stats;
}

/**
 * Opens `path` for reading with O_NONBLOCK and checks the opened descriptor: the second half of
 * `openRegularFile`, for callers that already checked the path (and for testing the race it closes).
 */
export async function openCheckedRegularFile(path: string): Promise<OpenedRegularFile> {
	const handle = await open(path, READ_FLAGS);
	try {
		// Synchronous: the descriptor is open, its inode at hand.
		const stats = fstatSync(handle.fd);
		assertRegular(path, stats);
		return { handle, stats };
	} catch (error) {
		await handle.close();
		throw error;
	}
}

/**
 * Opens a regular file for reading (symlinks followed); rejects `NotRegularFileError` for anything else
 * without ever blocking on it. The caller closes the handle.
 */
export async function openRegularFile(path: string): Promise<OpenedRegularFile> {
	// Synchronous: one stat is quicker than a round trip through libuv's threads.
	assertRegular(path, statSync(path));
	return openCheckedRegularFile(path);
}

/**
 * The bytes at the start of a file read (or written) synchronously: the stat, the open, the fstat and the close are
 * one system call each, and so is a read of up to this much. A round trip through libuv's threads costs the agent
 * more than that (removing the read tool's last one took 0.3–0.5 ms off a turn); data past it goes through them, so
 * a large file or a slow mount does not stall the event loop for long.
 */
export const SYNC_IO_BYTES = 64 * 1024;

/** Reads at most `maxBytes` of a regular file. Rejects `NotRegularFileError` for anything else. */
export async function readRegularFile(path: string, maxBytes = Number.POSITIVE_INFINITY): Promise<Buffer> {
	const { fd, stats } = openRegularFileSync(path);
	try {
		return await readFromFd(fd, Math.min(stats.size, maxBytes), maxBytes);
	} finally {
		closeSync(fd);
	}
}

/** Reads from offset 0 up to end of file or `maxBytes` (the file may have grown or shrunk since its fstat). */
async function readFromFd(fd: number, expectedSize: number, maxBytes: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let total = 0;
	let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(expectedSize + 1, maxBytes, 1024 * 1024)));
	while (total < maxBytes) {
		const wanted = Math.min(buffer.length, maxBytes - total);
		const bytesRead = await readChunk(fd, buffer.subarray(0, wanted), total);
		if (bytesRead === 0) break;
		chunks.push(buffer.subarray(0, bytesRead));
		total += bytesRead;
		if (bytesRead === buffer.length) buffer = Buffer.allocUnsafe(Math.min(buffer.length * 2, 1024 * 1024));
		else buffer = buffer.subarray(bytesRead);
	}
	return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}

/**
 * Reads into all of `buffer` from byte `position`; resolves the bytes read. Synchronously within the file's first
 * SYNC_IO_BYTES, through libuv's threads past them.
 */
export async function readChunk(fd: number, buffer: Buffer, position: number): Promise<number> {
	if (position + buffer.length <= SYNC_IO_BYTES) return readSync(fd, buffer, 0, buffer.length, position);
	return new Promise((resolve, reject) => {
		read(fd, buffer, 0, buffer.length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead)));
	});
}

export interface OpenedRegularFileSync {
	/** Opened for reading; the caller closes it. */
	fd: number;
	/** fstat of the opened descriptor. */
	stats: Stats;
}

/**
 * Synchronous `openRegularFile`. Throws `NotRegularFileError` for anything but a regular file, fs errors as they
 * are.
 */
export function openRegularFileSync(path: string): OpenedRegularFileSync {
	assertRegular(path, statSync(path));
	return openCheckedRegularFileSync(path);
}

/**
 * The second half of `openRegularFileSync`, for callers that know the path's type already (a directory walk's
 * entry types): the O_NONBLOCK open and the fstat check.
 */
export function openCheckedRegularFileSync(path: string): OpenedRegularFileSync {
	const fd = openSync(path, READ_FLAGS);
	try {
		const stats = fstatSync(fd);
		assertRegular(path, stats);
		return { fd, stats };
	} catch (error) {
		closeSync(fd);
		throw error;
	}
}

/**
 * Synchronous `readRegularFile` for code that reads many small files or runs before anything is async
 * (ignore files, context files): at most `maxBytes`, with `truncated` when the file holds more and `size` as
 * fstat saw it. Throws `NotRegularFileError` for anything but a regular file, fs errors as they are.
 */
export function readRegularFileSync(
	path: string,
	maxBytes = Number.POSITIVE_INFINITY,
): { bytes: Buffer; truncated: boolean; size: number } {
	const { fd, stats } = openRegularFileSync(path);
	try {
		const limit = Math.min(maxBytes, Number.MAX_SAFE_INTEGER);
		const chunks: Buffer[] = [];
		let total = 0;
		// One byte past the limit tells whether there is more.
		let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(stats.size, limit) + 1));
		for (;;) {
			const wanted = Math.min(buffer.length, limit + 1 - total);
			if (wanted <= 0) break;
			const bytesRead = readSync(fd, buffer, 0, wanted, total);
			if (bytesRead === 0) break;
			chunks.push(buffer.subarray(0, bytesRead));
			total += bytesRead;
			buffer = Buffer.allocUnsafe(Math.min(64 * 1024, Math.max(1, limit + 1 - total)));
		}
		const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
		const truncated = total > limit;
		return { bytes: truncated ? all.subarray(0, limit) : all, truncated, size: Math.max(stats.size, total) };
	} finally {
		closeSync(fd);
	}
}

/** The most a configuration or resource file (settings, skills, templates, themes, ignore files) may hold. */
export const SMALL_TEXT_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** Thrown for a configuration or resource file past its size limit. */
export class FileTooLargeError extends Error {
	readonly code = "EFBIG";
	constructor(
		readonly path: string,
		readonly maxBytes: number,
	) {
		super(`${path} is larger than ${maxBytes} bytes; it was not read`);
		this.name = "FileTooLargeError";
	}
}

/**
 * Reads a small text file that a repository may control (its settings, skills, prompt templates, ignore files,
 * `.git/HEAD`): a regular file of at most `maxBytes`, as UTF-8. A FIFO, a device or a link to one is refused at
 * once (`NotRegularFileError`), a larger file with `FileTooLargeError`; fs errors (ENOENT) pass through.
 */
export function readSmallTextFileSync(path: string, maxBytes = SMALL_TEXT_FILE_MAX_BYTES): string {
	const { bytes, truncated } = readRegularFileSync(path, maxBytes);
	if (truncated) throw new FileTooLargeError(path, maxBytes);
	return bytes.toString("utf8");
}
