// What a path is right now, as a checkpoint records it. Only regular files are opened, without following a
// symlink and without blocking (O_NONBLOCK, then fstat), so a FIFO or device put in a file's place is never
// read; links are recorded by their target.
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, type Stats } from "node:fs";
import type { FileCheckpointState } from "../session/entries.js";
import { type BlobStore, hashContent } from "./blob-store.js";

const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Permission bits kept with a file (the executable bit of a script matters when it is restored). */
export function fileMode(stats: Pick<Stats, "mode">): number {
	return stats.mode & 0o7777;
}

/** A regular file opened without following a link: its fstat, and its content when within `maxBytes`. */
export interface OpenedFile {
	stats: Stats;
	/** Undefined when the file holds more than `maxBytes`. */
	content: Buffer | undefined;
}

/** Opens and reads a regular file (O_NOFOLLOW, O_NONBLOCK, then fstat); throws for anything else. */
export function readFileNoFollow(path: string, maxBytes: number): OpenedFile {
	const fd = openSync(path, constants.O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
	try {
		const stats = fstatSync(fd);
		if (!stats.isFile()) throw new Error(`${path} is not a regular file`);
		if (stats.size > maxBytes) return { stats, content: undefined };
		// One byte more than fstat said tells whether the file grew meanwhile.
		let buffer = Buffer.allocUnsafe(Math.min(stats.size, maxBytes) + 1);
		let total = 0;
		for (;;) {
			const n = readSync(fd, buffer, total, buffer.length - total, total);
			if (n === 0) break;
			total += n;
			if (total > maxBytes) return { stats, content: undefined };
			if (total === buffer.length) {
				const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
				buffer.copy(grown, 0, 0, total);
				buffer = grown;
			}
		}
		return { stats, content: buffer.subarray(0, total) };
	} finally {
		closeSync(fd);
	}
}

/** Reads a regular file, at most `maxBytes` (undefined when it holds more); throws for anything else. */
export function readRegularFileNoFollow(path: string, maxBytes: number): Buffer | undefined {
	return readFileNoFollow(path, maxBytes).content;
}

export interface ObserveOptions {
	maxFileBytes: number;
	/** Contents go here; without a store they are only hashed. */
	store?: BlobStore;
	/**
	 * Hash a file too large to keep (reading it once more): an exact recording knows its versions apart even
	 * when they have the same size and modification time.
	 */
	hashLargeFiles?: boolean;
}

/** Files larger than this are never hashed, only told apart by size, mode and mtime. */
const MAX_HASHED_BYTES = 1024 * 1024 * 1024;

/** SHA-256 of a regular file read in chunks (no symlink followed); undefined when it cannot be read. */
export function hashRegularFileNoFollow(path: string): string | undefined {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
	} catch {
		return undefined;
	}
	try {
		const stats = fstatSync(fd);
		if (!stats.isFile() || stats.size > MAX_HASHED_BYTES) return undefined;
		const hash = createHash("sha256");
		const buffer = Buffer.allocUnsafe(1024 * 1024);
		let position = 0;
		for (;;) {
			const n = readSync(fd, buffer, 0, buffer.length, position);
			if (n === 0) break;
			hash.update(buffer.subarray(0, n));
			position += n;
		}
		return hash.digest("hex");
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
	}
}

export interface Observation {
	state: FileCheckpointState;
	/** lstat of the path (undefined when absent). */
	stats?: Stats;
	/** The content, when it was read (a regular file within the size limit). */
	content?: Buffer;
}

/** A file whose content was not read: told apart from other versions by size, mode and mtime. */
export function unreadState(reason: "too-large" | "unreadable", stats: Stats): FileCheckpointState {
	return { unrecorded: reason, size: stats.size, mode: fileMode(stats), mtimeMs: stats.mtimeMs };
}

/** A regular file's state from its content: stored (or only hashed without a store), or why it was not. */
export function fileStateOf(
	content: Buffer | undefined,
	stats: Stats,
	store: BlobStore | undefined,
): FileCheckpointState {
	const mode = fileMode(stats);
	if (content === undefined) return unreadState("too-large", stats);
	if (!store) return { blob: hashContent(content), size: content.length, mode };
	const put = store.put(content);
	if ("full" in put) {
		return {
			unrecorded: "store-full",
			size: content.length,
			mode,
			hash: hashContent(content),
			mtimeMs: stats.mtimeMs,
		};
	}
	return { blob: put.hash, size: content.length, mode };
}

/** The path's state now: absent, a file (its content stored when a store is given), a link or a directory. */
export function observePath(absolutePath: string, options: ObserveOptions): Observation {
	let stats: Stats | undefined;
	try {
		stats = lstatSync(absolutePath, { throwIfNoEntry: false });
	} catch {
		return { state: null };
	}
	if (!stats) return { state: null };
	if (stats.isDirectory()) return { state: { dir: true }, stats };
	if (stats.isSymbolicLink()) {
		try {
			return { state: { link: readlinkSync(absolutePath) }, stats };
		} catch {
			return { state: null };
		}
	}
	// FIFOs, sockets and devices are not files a checkpoint keeps.
	if (!stats.isFile()) return { state: null, stats };
	let content: Buffer | undefined;
	try {
		content = readRegularFileNoFollow(absolutePath, options.maxFileBytes);
	} catch {
		return { state: unreadState("unreadable", stats), stats };
	}
	let state = fileStateOf(content, stats, options.store);
	if (content === undefined && options.hashLargeFiles && state !== null && "unrecorded" in state) {
		const hash = hashRegularFileNoFollow(absolutePath);
		if (hash !== undefined) state = { ...state, hash };
	}
	return content === undefined ? { state, stats } : { state, stats, content };
}

/** The content's hash, when known (stored, or read but not kept). */
function contentHash(state: Exclude<FileCheckpointState, null | { link: string } | { dir: true }>): string | undefined {
	return "blob" in state ? state.blob : state.hash;
}

/** Whether two states are the same file content (and mode), link or directory. */
export function sameState(a: FileCheckpointState, b: FileCheckpointState): boolean {
	if (a === null || b === null) return a === b;
	if ("dir" in a || "dir" in b) return "dir" in a && "dir" in b;
	if ("link" in a || "link" in b) return "link" in a && "link" in b && a.link === b.link;
	if (a.mode !== b.mode || a.size !== b.size) return false;
	const hashA = contentHash(a);
	const hashB = contentHash(b);
	if (hashA !== undefined && hashB !== undefined) return hashA === hashB;
	// A content that was not read: the version is told by its modification time.
	const mtimeA = "mtimeMs" in a ? a.mtimeMs : undefined;
	const mtimeB = "mtimeMs" in b ? b.mtimeMs : undefined;
	return mtimeA !== undefined && mtimeA === mtimeB;
}

/** The blob hashes a state refers to. */
export function blobOf(state: FileCheckpointState): string | undefined {
	return state !== null && "blob" in state ? state.blob : undefined;
}
