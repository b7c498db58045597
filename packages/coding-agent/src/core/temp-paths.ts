// Temporary files and directories this process creates (bash full-output files, checkpoint stores of sessions
// kept in memory, file-watch barriers, bash launchers). Their owner removes them when it is done; whatever is still
// here when the process exits — an SDK program that never disposes its session, a mode that ends with
// `process.exit`, a signal before a mode took over — is removed by one `exit` hook. A process killed outright
// (SIGKILL, the OOM killer) leaves its directories behind: each is named after the process that made it, and the
// first directory another process makes starts a sweep of those whose maker is gone.
import { mkdtempSync, rmSync } from "node:fs";
import { lstat, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OWN_START_TIME, processEnded } from "./process-identity.js";

const live = new Set<string>();
let exitHookInstalled = false;
let swept = false;

/** The directories `makeTempDir` makes: `<prefix><pid>.<start time>-XXXXXX` (start time 0 where unknown). */
const OWNED_DIR = /^agent-(?:launcher|checkpoints|checkpoint-barrier)-(\d+)\.(\d+)-[A-Za-z0-9]{6}$/;

/**
 * How old a directory of a gone process must be before a sweep removes it. A day: a process in another PID namespace
 * that shares this temp directory looks gone from here, and its directories stay until they are this old (a
 * temp cleaner such as systemd-tmpfiles takes 10 days, owner or not).
 */
export const STALE_TEMP_DIR_MS = 24 * 60 * 60 * 1000;

/** Registers a path created by the caller for removal at exit, unless `removeTempPath` removes it first. */
export function trackTempPath(path: string): void {
	live.add(path);
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on("exit", () => {
		for (const path of live) rmSync(path, { recursive: true, force: true });
		live.clear();
	});
}

/**
 * Creates a private directory (0700) under the system's temporary directory, removed at exit at the latest. The
 * first one of a process also sweeps, in the background, the directories that killed processes left.
 */
export function makeTempDir(prefix: string): string {
	const root = tmpdir();
	if (!swept) {
		swept = true;
		void sweepStaleTempDirs(root).catch(() => {});
	}
	const dir = mkdtempSync(join(root, `${prefix}${process.pid}.${OWN_START_TIME ?? 0}-`));
	trackTempPath(dir);
	return dir;
}

/** Removes a tracked (or any) temporary path now. */
export function removeTempPath(path: string): void {
	rmSync(path, { recursive: true, force: true });
	live.delete(path);
}

/**
 * Removes the directories `makeTempDir` made in `root` whose process is gone (by pid and start time), that this
 * user owns and that have not changed for `STALE_TEMP_DIR_MS`. Returns their names.
 */
export async function sweepStaleTempDirs(root: string): Promise<string[]> {
	const removed: string[] = [];
	for (const name of await readdir(root)) {
		const owner = OWNED_DIR.exec(name);
		if (!owner) continue;
		if (!processEnded(Number(owner[1]), owner[2] === "0" ? undefined : owner[2])) continue;
		const path = join(root, name);
		const stats = await lstat(path).catch(() => undefined);
		if (!stats?.isDirectory() || stats.uid !== process.getuid?.()) continue;
		if (Date.now() - stats.mtimeMs < STALE_TEMP_DIR_MS) continue;
		await rm(path, { recursive: true, force: true });
		removed.push(name);
	}
	return removed;
}
