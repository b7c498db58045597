import { homedir } from "node:os";
import { isAbsolute, join, resolve, sep } from "node:path";

/** Expands a leading `~` or `~/` to the home directory. */
export function expandHomePath(input: string, homeDir: string = homedir()): string {
	if (input === "~") return homeDir;
	if (input.startsWith("~/")) return join(homeDir, input.slice(2));
	return input;
}

/** A user-supplied path (settings entry, CLI flag): trimmed, `~` expanded, relative ones resolved against `baseDir`. */
export function resolveInputPath(input: string, baseDir: string, homeDir: string = homedir()): string {
	const expanded = expandHomePath(input.trim(), homeDir);
	return isAbsolute(expanded) ? resolve(expanded) : resolve(baseDir, expanded);
}

export function toPosixPath(path: string): string {
	return sep === "/" ? path : path.split(sep).join("/");
}

/** True when `path` is `root` or lies below it. */
export function isPathInside(path: string, root: string): boolean {
	if (path === root) return true;
	const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
	return path.startsWith(prefix);
}
