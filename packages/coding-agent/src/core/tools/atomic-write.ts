// Replacing a file whole so that neither a reader nor a crash ever sees half of it: the one temp-file-and-rename
// writer of the package. `writeFileAtomic` is the tools' (edit, write; keeps mode and owner, checks for a
// concurrent change, follows symlinks) and the settings files'; `replaceFileAtomically` is the synchronous one
// for small files of our own with a fixed mode (auth.json, trusted projects, a migrated session file).
import { randomBytes } from "node:crypto";
import {
	chmodSync,
	chownSync,
	closeSync,
	fchmodSync,
	fsyncSync,
	openSync,
	realpathSync,
	renameSync,
	rmSync,
	statSync,
	unlinkSync,
	write,
	writeSync,
} from "node:fs";
import { writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { describeNonRegularFile, NotRegularFileError, readRegularFile, SYNC_IO_BYTES } from "./regular-file.js";

/** A fresh hidden temp file name in `target`'s directory, so the rename stays on one file system. */
function tempPathBeside(target: string): string {
	return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
}

const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

/** Whether a file name is one `tempPathBeside` makes (a write in progress, renamed or removed when it ends). */
export function isAtomicWriteTempName(name: string): boolean {
	return TEMP_NAME.test(name);
}

function errorCode(error: unknown): string | undefined {
	return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * What a file was when a writer looked at it, to tell whether someone else changed it since: its bytes (edit
 * read them anyway), its identity and timestamps (write, which reads nothing), or that it did not exist.
 */
export type FileVersion =
	| { kind: "missing" }
	| { kind: "stat"; dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }
	| { kind: "content"; content: Uint8Array };

/** Thrown when the file no longer matches the expected version just before it would be replaced. */
export class FileChangedError extends Error {
	readonly code = "EFILECHANGED";
	constructor(readonly path: string) {
		super(`${path} was changed by someone else while it was being written`);
		this.name = "FileChangedError";
	}
}

export function isFileChangedError(error: unknown): error is FileChangedError {
	return error instanceof FileChangedError;
}

/** The file's current identity and timestamps (symlinks followed), or `missing`. */
export async function captureFileVersion(path: string): Promise<FileVersion> {
	try {
		const stats = statSync(path, { bigint: true });
		return {
			kind: "stat",
			dev: stats.dev,
			ino: stats.ino,
			size: stats.size,
			mtimeNs: stats.mtimeNs,
			ctimeNs: stats.ctimeNs,
		};
	} catch (error) {
		if (errorCode(error) === "ENOENT") return { kind: "missing" };
		throw error;
	}
}

async function matchesVersion(path: string, expected: FileVersion): Promise<boolean> {
	if (expected.kind === "content") {
		let size: number;
		try {
			size = statSync(path).size;
		} catch {
			return false;
		}
		// An append or truncation shows in the size; otherwise compare the bytes (timestamps are too coarse to
		// see a same-size rewrite within one clock tick).
		if (size !== expected.content.length) return false;
		const current = await readRegularFile(path, expected.content.length + 1).catch(() => undefined);
		return current?.equals(expected.content) === true;
	}
	const current = await captureFileVersion(path);
	if (expected.kind === "missing" || current.kind !== "stat") return current.kind === expected.kind;
	return (
		current.dev === expected.dev &&
		current.ino === expected.ino &&
		current.size === expected.size &&
		current.mtimeNs === expected.mtimeNs &&
		current.ctimeNs === expected.ctimeNs
	);
}

/** How a write checks that the file is still what the writer saw (edit and write operations take it too). */
export interface FileWriteOptions {
	/**
	 * The file as the caller last saw it. Just before the new content replaces the file (the temp file already
	 * written), the file is compared with it; if someone else changed it, nothing is replaced and
	 * `FileChangedError` is thrown. A change in the instant between that check and the rename can still be lost,
	 * and so is anything written through a descriptor opened on the old file before the rename.
	 */
	expected?: FileVersion;
}

/**
 * Writes `content` so that readers see either the old or the new file, never a partial one: a temp file in
 * the same directory, given the original's mode (and owner, when we may), then renamed over the target. A
 * symlink is followed, so the link stays a link. When the directory does not let us create the temp file
 * but the file itself is writable, the file is written in place. An existing target that is not a regular
 * file (a device, FIFO, socket or directory, also behind a symlink) is refused with `NotRegularFileError`.
 */
export async function writeFileAtomic(
	path: string,
	content: string | Uint8Array,
	options: FileWriteOptions = {},
): Promise<void> {
	// Every step but a large content's data is one system call, made synchronously: a round trip through libuv's
	// threads costs more than the call (see SYNC_IO_BYTES). That took ~1 ms off an edit turn.
	let target = path;
	try {
		target = realpathSync.native(path);
	} catch {
		// new file, or a dangling link: write the path as given
	}
	let existing: { mode: number; uid: number; gid: number } | undefined;
	try {
		const stats = statSync(target);
		const fileType = describeNonRegularFile(stats);
		if (fileType) throw new NotRegularFileError(path, fileType);
		existing = { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid };
	} catch (error) {
		if (errorCode(error) !== "ENOENT") throw error;
	}

	const tempPath = tempPathBeside(target);
	let fd: number;
	try {
		fd = openSync(tempPath, "wx", existing?.mode ?? 0o666);
	} catch (error) {
		const code = errorCode(error);
		if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
			if (options.expected && !(await matchesVersion(target, options.expected))) throw new FileChangedError(path);
			await writeFile(target, content);
			return;
		}
		throw error;
	}
	try {
		try {
			await writeAll(fd, typeof content === "string" ? Buffer.from(content, "utf8") : content);
			// open() applied the umask; give the new file exactly the original's mode.
			if (existing) fchmodSync(fd, existing.mode);
		} finally {
			closeSync(fd);
		}
		if (existing && (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.())) {
			try {
				chownSync(tempPath, existing.uid, existing.gid);
			} catch {
				// not ours to give away: the new file keeps our ownership
			}
		}
		if (options.expected && !(await matchesVersion(target, options.expected))) throw new FileChangedError(path);
		renameSync(tempPath, target);
	} catch (error) {
		rmSync(tempPath, { force: true });
		throw error;
	}
}

/** Writes all of `bytes` at the descriptor's position: the first SYNC_IO_BYTES at once, the rest through libuv. */
async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
	let offset = bytes.length === 0 ? 0 : writeSync(fd, bytes, 0, Math.min(bytes.length, SYNC_IO_BYTES));
	while (offset < bytes.length) {
		offset += await new Promise<number>((resolve, reject) => {
			write(fd, bytes, offset, bytes.length - offset, null, (error, written) =>
				error ? reject(error) : resolve(written),
			);
		});
	}
}

/**
 * Writes `text` to a temp file beside `path` (created with `mode`, then set to exactly `mode` whatever the umask),
 * fsyncs it and renames it over `path`. On failure the temp file is removed and the error rethrown.
 */
export function replaceFileAtomically(path: string, text: string, mode: number): void {
	const temp = tempPathBeside(path);
	try {
		const fd = openSync(temp, "wx", mode);
		try {
			const data = Buffer.from(text, "utf8");
			let offset = 0;
			while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
		chmodSync(temp, mode);
		renameSync(temp, path);
	} catch (error) {
		try {
			unlinkSync(temp);
		} catch {
			// Never created, or already renamed.
		}
		throw error;
	}
}
