// Putting files back as a point of the session had them. The plan compares each recorded path's target state
// with what is on disk now and with what the agent last recorded: equal to the target is nothing to do;
// different from the last record is a conflict (someone else changed it), and with any conflict nothing is
// written unless forced. Writes never follow a symlink out of place: a path whose directory now goes through a
// link is left alone, and every file is written to a temp name and renamed over the path itself.
import { randomBytes } from "node:crypto";
import {
	chmodSync,
	lstatSync,
	mkdirSync,
	renameSync,
	rmdirSync,
	rmSync,
	symlinkSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import type { FileCheckpointState } from "../session/entries.js";
import { generateDiffString } from "../tools/line-diff.js";
import { realpathOfNearestExisting } from "../tools/path-utils.js";
import type { RecordPaths } from "./checkpoint-paths.js";
import { blobOf, observePath, readRegularFileNoFollow, sameState } from "./file-state.js";
import type { FileRestoreResult } from "./types.js";

export interface RestoreIo {
	paths: RecordPaths;
	maxFileBytes: number;
	/** A stored content (checked against its hash); undefined when missing or damaged. */
	readBlob(hash: string): Buffer | undefined;
	/** Whether a content is stored somewhere it can be read from. */
	hasBlob(hash: string): boolean;
	/** A path's state without reading it, when an index vouches for it. */
	knownState(path: string): FileCheckpointState | undefined;
}

export interface RestoreAction {
	path: string;
	current: FileCheckpointState;
	target: FileCheckpointState;
}

export interface RestorePlan {
	actions: RestoreAction[];
	conflicts: { path: string; current: FileCheckpointState; expected: FileCheckpointState }[];
	unrestorable: string[];
}

function isDir(state: FileCheckpointState): boolean {
	return state !== null && "dir" in state;
}

/** Whether `path`'s directory is where it should be (no symlink on the way to it). */
function isPlainLocation(absolutePath: string): boolean {
	const parent = dirname(absolutePath);
	return realpathOfNearestExisting(parent) === parent;
}

export function currentState(path: string, io: RestoreIo): FileCheckpointState {
	return (
		io.knownState(path) ??
		observePath(io.paths.toAbsolute(path), { maxFileBytes: io.maxFileBytes, hashLargeFiles: true }).state
	);
}

/** What restoring `targets` would do, given what the agent last recorded of each path (`expected`). */
export function planRestore(
	targets: ReadonlyMap<string, FileCheckpointState>,
	expected: ReadonlyMap<string, FileCheckpointState>,
	io: RestoreIo,
): RestorePlan {
	const plan: RestorePlan = { actions: [], conflicts: [], unrestorable: [] };
	for (const [path, target] of targets) {
		const current = currentState(path, io);
		if (sameState(current, target)) continue;
		// A directory that should not exist but does is removed only if empty; never a conflict.
		if (isDir(current) && target === null) {
			plan.actions.push({ path, current, target });
			continue;
		}
		const hash = blobOf(target);
		const restorable =
			target === null || isDir(target) || "link" in target || (hash !== undefined && io.hasBlob(hash));
		if (!restorable || !isPlainLocation(io.paths.toAbsolute(path))) {
			plan.unrestorable.push(path);
			continue;
		}
		const last = expected.get(path) ?? null;
		if (!sameState(current, last) && !(isDir(current) && isDir(last))) {
			plan.conflicts.push({ path, current, expected: last });
			continue;
		}
		plan.actions.push({ path, current, target });
	}
	plan.actions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	return plan;
}

/** A file or link written to a temp name beside `absolutePath`, then renamed over it. */
function writeInPlace(absolutePath: string, target: FileCheckpointState, io: RestoreIo): void {
	if (target === null || "dir" in target || "unrecorded" in target) return;
	mkdirSync(dirname(absolutePath), { recursive: true });
	const temp = join(dirname(absolutePath), `.${basename(absolutePath)}.${randomBytes(4).toString("hex")}.restore`);
	try {
		if ("link" in target) {
			symlinkSync(target.link, temp);
		} else {
			const content = io.readBlob(target.blob);
			if (!content) throw new Error(`the stored content of ${absolutePath} is missing or damaged`);
			writeFileSync(temp, content, { flag: "wx" });
			chmodSync(temp, target.mode);
		}
		renameSync(temp, absolutePath);
	} catch (error) {
		rmSync(temp, { force: true });
		throw error;
	}
}

/** Outcome of applying a plan: what was done, and what could not be. */
export interface AppliedRestore {
	/** Actions carried out, for the restore's own checkpoint. */
	applied: RestoreAction[];
	failed: string[];
}

/** Carries out a plan's actions: removals first (deepest directories last), then directories, then files. */
export function applyRestore(actions: readonly RestoreAction[], io: RestoreIo): AppliedRestore {
	const applied: RestoreAction[] = [];
	const failed: string[] = [];
	const attempt = (action: RestoreAction, run: () => void) => {
		try {
			run();
			applied.push(action);
		} catch {
			failed.push(action.path);
		}
	};
	const absolute = (action: RestoreAction) => io.paths.toAbsolute(action.path);
	// Files and links that must go (absent at that point, or replaced by something of another kind).
	for (const action of actions) {
		const { current, target } = action;
		if (current === null || isDir(current)) continue;
		const replacedInPlace = target !== null && !isDir(target) && !("link" in current) && !("link" in target);
		if (replacedInPlace) continue;
		if (target === null) attempt(action, () => unlinkSync(absolute(action)));
		else rmSync(absolute(action), { force: true });
	}
	// Directories that must go, deepest first; one that still holds files stays.
	const dirRemovals = actions.filter((action) => isDir(action.current) && !isDir(action.target));
	for (const action of [...dirRemovals].sort((a, b) => b.path.length - a.path.length)) {
		try {
			rmdirSync(absolute(action));
			if (action.target === null) applied.push(action);
		} catch {
			if (action.target !== null) failed.push(action.path);
		}
	}
	for (const action of actions) {
		if (!isDir(action.target) || isDir(action.current)) continue;
		attempt(action, () => mkdirSync(absolute(action), { recursive: true }));
	}
	for (const action of actions) {
		const { target } = action;
		if (target === null || isDir(target)) continue;
		if (isDir(action.current) && failed.includes(action.path)) continue;
		attempt(action, () => writeInPlace(absolute(action), target, io));
	}
	return { applied, failed };
}

/** The result lists of a plan (dry run) or of what was applied: files and links only, directories implied. */
export function summarizeRestore(
	actions: readonly RestoreAction[],
	plan: Pick<RestorePlan, "conflicts" | "unrestorable">,
	failed: readonly string[] = [],
): FileRestoreResult {
	const restored: string[] = [];
	const removed: string[] = [];
	for (const action of actions) {
		if (isDir(action.target) || (action.target === null && isDir(action.current))) continue;
		(action.target === null ? removed : restored).push(action.path);
	}
	return {
		restored,
		removed,
		conflicts: plan.conflicts.map((conflict) => conflict.path),
		unrestorable: [...plan.unrestorable, ...failed],
	};
}

function textOf(bytes: Buffer | undefined): string | undefined {
	if (!bytes || bytes.subarray(0, 8000).includes(0)) return undefined;
	try {
		return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
	} catch {
		return undefined;
	}
}

function describeState(state: FileCheckpointState): string {
	if (state === null) return "absent";
	if ("dir" in state) return "a directory";
	if ("link" in state) return `a link to ${state.link}`;
	return `a file of ${state.size} bytes`;
}

/** What changed in a conflicting file since the agent last recorded it (`expected` → `current`). */
export function describeConflict(
	path: string,
	expected: FileCheckpointState,
	current: FileCheckpointState,
	io: RestoreIo,
): string {
	if (current === null) return `${path} was deleted after the agent last recorded it.`;
	if (expected === null) return `${path} was created after the agent last recorded the folder.`;
	const before = "blob" in expected ? textOf(io.readBlob(expected.blob)) : undefined;
	let after: string | undefined;
	if ("blob" in current) {
		try {
			after = textOf(readRegularFileNoFollow(io.paths.toAbsolute(path), io.maxFileBytes));
		} catch {
			after = undefined;
		}
	}
	if (before !== undefined && after !== undefined) {
		const { diff } = generateDiffString(before, after);
		if (diff) return diff;
		if ("mode" in expected && "mode" in current && expected.mode !== current.mode) {
			return `mode ${expected.mode.toString(8)} → ${current.mode.toString(8)}`;
		}
	}
	return `was ${describeState(expected)}, is now ${describeState(current)}`;
}

/** The state a path has after an action that failed partway: read again. */
export function stateAfterFailure(path: string, io: RestoreIo): FileCheckpointState {
	return observePath(io.paths.toAbsolute(path), { maxFileBytes: io.maxFileBytes }).state;
}

/** Whether something exists at `absolutePath` (not following a link). */
export function existsNoFollow(absolutePath: string): boolean {
	return lstatSync(absolutePath, { throwIfNoEntry: false }) !== undefined;
}
