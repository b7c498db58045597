import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";

/** Follows symlinks of the longest existing prefix of `path`; the rest is appended as written. */
export function realpathOfNearestExisting(path: string): string {
	const missing: string[] = [];
	let current = path;
	for (;;) {
		try {
			return join(realpathSync(current), ...missing.reverse());
		} catch {
			const parent = dirname(current);
			if (parent === current) return path;
			missing.push(basename(current));
			current = parent;
		}
	}
}

function isInside(child: string, parent: string): boolean {
	const rel = relative(parent, child);
	return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/**
 * With workspace confinement on, refuses an absolute path that — after resolving `..` and symlinks — lies
 * outside `cwd`. `displayPath` is the path as the model wrote it.
 */
export function assertInsideWorkspace(absolutePath: string, cwd: string, displayPath: string): void {
	const root = realpathOfNearestExisting(cwd);
	const target = realpathOfNearestExisting(absolutePath);
	if (isInside(target, root)) return;
	throw new Error(
		`Path is outside the working directory: ${displayPath} resolves to ${target}, which is not inside ${root}. Only paths inside the working directory can be used.`,
	);
}
