import { isInsideDir, realpathOfNearestExisting } from "./path-utils.js";

/**
 * With workspace confinement on, refuses an absolute path that — after resolving `..` and symlinks — lies
 * outside `cwd`. `displayPath` is the path as the model wrote it.
 */
export function assertInsideWorkspace(absolutePath: string, cwd: string, displayPath: string): void {
	const root = realpathOfNearestExisting(cwd);
	const target = realpathOfNearestExisting(absolutePath);
	if (isInsideDir(target, root)) return;
	throw new Error(
		`Path is outside the working directory: ${displayPath} resolves to ${target}, which is not inside ${root}. Only paths inside the working directory can be used.`,
	);
}
