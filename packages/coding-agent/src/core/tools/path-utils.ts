import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

// Spaces that models and macOS file names use in place of U+0020.
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const NARROW_NO_BREAK_SPACE = "\u202F";

/**
 * Expands a path as a model writes it: strips one leading `@` (some models prefix paths with it), turns
 * Unicode spaces into ASCII spaces, and expands `~` / `~/…` to the home directory.
 */
export function expandPath(path: string, home: string = homedir()): string {
	let expanded = path.startsWith("@") ? path.slice(1) : path;
	expanded = expanded.replace(UNICODE_SPACES, " ");
	if (expanded === "~") return home;
	if (expanded.startsWith("~/")) return join(home, expanded.slice(2));
	return expanded;
}

/** Expands `path` and resolves it against `cwd` unless it is already absolute. */
export function resolveToCwd(path: string, cwd: string): string {
	const expanded = expandPath(path);
	return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/**
 * `resolveToCwd`, then — when that path does not exist — the spellings macOS uses for the same name:
 * narrow no-break space before AM/PM in screenshot names, NFD-decomposed names, U+2019 for `'`
 * ("Capture d’écran"), and NFD with U+2019. Returns the first that exists, otherwise the plain resolution.
 */
export function resolveReadPath(path: string, cwd: string, exists: (p: string) => boolean = existsSync): string {
	const resolved = resolveToCwd(path, cwd);
	if (exists(resolved)) return resolved;
	const variants = [
		resolved.replace(/ (AM|PM)\./g, `${NARROW_NO_BREAK_SPACE}$1.`),
		resolved.normalize("NFD"),
		resolved.replace(/'/g, "\u2019"),
		resolved.normalize("NFD").replace(/'/g, "\u2019"),
	];
	for (const variant of variants) {
		if (variant !== resolved && exists(variant)) return variant;
	}
	return resolved;
}

// libc's realpath: one call instead of Node's lstat of every component. Node's own on Windows, where the native one
// differs for some drives (subst, RAM disks).
const realpath = process.platform === "win32" ? realpathSync : realpathSync.native;

/** Follows symlinks of the longest existing prefix of `path`; the rest is appended as written. */
export function realpathOfNearestExisting(path: string): string {
	const missing: string[] = [];
	let current = path;
	for (;;) {
		try {
			return missing.length === 0 ? realpath(current) : join(realpath(current), ...missing.reverse());
		} catch {
			const parent = dirname(current);
			if (parent === current) return path;
			missing.push(basename(current));
			current = parent;
		}
	}
}

/** Whether `child` is `parent` or lies under it (both absolute and normalized). */
export function isInsideDir(child: string, parent: string): boolean {
	const rel = relative(parent, child);
	return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}
