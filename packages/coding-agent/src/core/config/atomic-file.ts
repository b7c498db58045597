// Replacing a small file whole so that neither a reader nor a crash ever sees half of it (auth.json, the
// settings.json a migration rewrites, a migrated session file).
import { randomUUID } from "node:crypto";
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes `text` to a temp file beside `path` (created with `mode`, then set to exactly `mode` whatever the umask),
 * fsyncs it and renames it over `path`. On failure the temp file is removed and the error rethrown.
 */
export function replaceFileAtomically(path: string, text: string, mode: number): void {
	const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
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
