// Where checkpoint data lives and how recorded paths are written: relative to the working directory (its real
// path) with `/` separators, or absolute for files outside it.
import { rmSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { isInsideDir, realpathOfNearestExisting } from "../tools/path-utils.js";

/** The checkpoint store of a session file: `<file without .jsonl>.checkpoints/` beside it. */
export function checkpointStoreDirFor(sessionFile: string): string {
	const base = sessionFile.endsWith(".jsonl") ? sessionFile.slice(0, -".jsonl".length) : sessionFile;
	return `${base}.checkpoints`;
}

/** Deletes a session's checkpoint store (when the session file itself is deleted). */
export function removeCheckpointStore(sessionFile: string): void {
	rmSync(checkpointStoreDirFor(sessionFile), { recursive: true, force: true });
}

/** Maps paths between the file system and their recorded form, for one working directory. */
export class RecordPaths {
	/** The working directory's real path. */
	readonly root: string;

	constructor(cwd: string) {
		this.root = realpathOfNearestExisting(cwd);
	}

	/**
	 * The recorded path of the file a tool writes at `absolutePath`: symlinks resolved (a write through a link
	 * changes its target), relative to the root when inside it.
	 */
	recordPathOf(absolutePath: string): string {
		return this.toRecordPath(realpathOfNearestExisting(absolutePath));
	}

	/** `realPath` (already resolved) in recorded form. */
	toRecordPath(realPath: string): string {
		if (!isInsideDir(realPath, this.root)) return realPath;
		const rel = relative(this.root, realPath);
		return sep === "/" ? rel : rel.split(sep).join("/");
	}

	/** The absolute path a recorded path names. */
	toAbsolute(recordPath: string): string {
		return isAbsolute(recordPath) ? recordPath : join(this.root, ...recordPath.split("/"));
	}

	isInside(recordPath: string): boolean {
		return !isAbsolute(recordPath);
	}
}
