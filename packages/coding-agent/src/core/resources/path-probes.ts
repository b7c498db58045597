// Asking the file system about a path without throwing: a missing or unreadable path is simply not a file.
import { realpathSync, statSync } from "node:fs";

export function isFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

export function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** `path` with symbolic links resolved, or `path` as given when that fails (a missing file, a dangling link). */
export function realPathOf(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}
