// Installs never leave a half-written package behind: the new files are assembled in a staging directory next
// to their destination (same file system, so the final step is a rename), checked, and only then moved into
// place; the old version, if any, is moved aside first and put back if the move fails.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isPathInside } from "../resources/input-paths.js";

const STAGING_DIR_NAME = ".staging";

/** Keeps what is installed below `root` out of git: the project's `.agent/npm` and `.agent/git` are not shared. */
export function ensureGitIgnore(root: string): void {
	mkdirSync(root, { recursive: true });
	const path = join(root, ".gitignore");
	if (!existsSync(path)) writeFileSync(path, "*\n!.gitignore\n", "utf8");
}

/** A fresh, empty directory in `<root>/.staging/`, for one install. */
export function createStagingDir(root: string): string {
	const dir = join(root, STAGING_DIR_NAME, `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`);
	mkdirSync(dir, { recursive: true });
	return dir;
}

/** Removes a staging directory (and `<root>/.staging` once it is empty). */
export function removeStagingDir(dir: string): void {
	rmSync(dir, { recursive: true, force: true });
	const parent = dirname(dir);
	try {
		if (readdirSync(parent).length === 0) rmSync(parent, { recursive: true, force: true });
	} catch {
		// Another install may be using it, or it is gone already.
	}
}

/**
 * Puts `staged` at `target`, replacing what was there. The old directory is renamed aside (into the staging
 * area) before the new one is renamed in, and renamed back if that fails; it is deleted only at the end.
 */
export function moveIntoPlace(staged: string, target: string, stagingRoot: string): void {
	mkdirSync(dirname(target), { recursive: true });
	let aside: string | undefined;
	if (existsSync(target)) {
		aside = join(createStagingDir(stagingRoot), "previous");
		renameSync(target, aside);
	}
	try {
		renameSync(staged, target);
	} catch (error) {
		if (aside) renameSync(aside, target);
		throw error;
	}
	if (aside) removeStagingDir(dirname(aside));
}

/**
 * Deletes an installed package directory and the parents it leaves empty, up to (not including) `root`.
 * Renamed into the staging area first, so an interrupted delete never leaves half a package where it loads.
 */
export function removeInstalledDirectory(target: string, root: string): void {
	if (!existsSync(target)) return;
	const trash = join(createStagingDir(root), "removed");
	renameSync(target, trash);
	removeStagingDir(dirname(trash));
	const stop = resolve(root);
	let current = dirname(resolve(target));
	while (current !== stop && isPathInside(current, stop)) {
		try {
			if (readdirSync(current).length > 0) break;
			rmSync(current, { recursive: true, force: true });
		} catch {
			break;
		}
		current = dirname(current);
	}
}
