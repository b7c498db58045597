import { randomBytes } from "node:crypto";
import { chown, open, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

function errorCode(error: unknown): string | undefined {
	return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Writes `content` so that readers see either the old or the new file, never a partial one: a temp file in
 * the same directory, given the original's mode (and owner, when we may), then renamed over the target. A
 * symlink is followed, so the link stays a link. When the directory does not let us create the temp file
 * but the file itself is writable, the file is written in place.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
	let target = path;
	try {
		target = await realpath(path);
	} catch {
		// new file, or a dangling link: write the path as given
	}
	let existing: { mode: number; uid: number; gid: number } | undefined;
	try {
		const stats = await stat(target);
		existing = { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid };
	} catch (error) {
		if (errorCode(error) !== "ENOENT") throw error;
	}

	const tempPath = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
	let handle: Awaited<ReturnType<typeof open>>;
	try {
		handle = await open(tempPath, "wx", existing?.mode ?? 0o666);
	} catch (error) {
		const code = errorCode(error);
		if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
			await writeFile(target, content);
			return;
		}
		throw error;
	}
	try {
		try {
			await handle.writeFile(content);
			// open() applied the umask; give the new file exactly the original's mode.
			if (existing) await handle.chmod(existing.mode);
		} finally {
			await handle.close();
		}
		if (existing && (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.())) {
			await chown(tempPath, existing.uid, existing.gid).catch(() => {});
		}
		await rename(tempPath, target);
	} catch (error) {
		await rm(tempPath, { force: true });
		throw error;
	}
}
