// Temporary files and directories this process creates (bash full-output files, checkpoint stores of sessions
// kept in memory, file-watch barriers, bash launchers). Their owner removes them when it is done; whatever is still
// here when the process exits — an SDK program that never disposes its session, a mode that ends with
// `process.exit`, a signal before a mode took over — is removed by one `exit` hook. A process killed outright
// (SIGKILL, the OOM killer) leaves them behind: each is named after the process that made it, and a process that
// made any sweeps, as it exits, those whose maker is gone: then no command waits for it or shares the CPU with it,
// and it always finishes (a sweep in the background can be cut short by the exit).
import { randomBytes } from "node:crypto";
import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OWN_START_TIME, processEnded } from "./process-identity.js";

const live = new Set<string>();
let exitHookInstalled = false;
/** The temporary directories this process made paths in (`$TMPDIR` may change), swept at exit. */
const sweepAtExit = new Set<string>();

/**
 * What this code makes, each named `<prefix><pid>.<start time>-<random>` (start time 0 where unknown): the
 * directories of `makeTempDir` and the files of `tempFilePath`.
 */
const OWNED_DIR = /^agent-(?:launcher|checkpoints|checkpoint-barrier)-(\d+)\.(\d+)-[A-Za-z0-9]{6}$/;
const OWNED_FILE = /^agent-bash-(\d+)\.(\d+)-[0-9a-f]{16}\.log$/;

/**
 * How old a directory or file of a gone process must be before a sweep removes it. A day: a process in another PID
 * namespace that shares this temp directory looks gone from here, and its paths stay until they are this old (a temp
 * cleaner such as systemd-tmpfiles takes 10 days, owner or not).
 */
export const STALE_TEMP_PATH_MS = 24 * 60 * 60 * 1000;

/** Registers a path created by the caller for removal at exit, unless `removeTempPath` removes it first. */
export function trackTempPath(path: string): void {
	live.add(path);
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on("exit", () => {
		for (const path of live) rmSync(path, { recursive: true, force: true });
		live.clear();
		for (const root of sweepAtExit) {
			try {
				sweepStaleTempPaths(root);
			} catch {
				// Gone, or unreadable: nothing to sweep there.
			}
		}
	});
}

/**
 * Creates a private directory (0700) under the system's temporary directory, removed at exit at the latest. The
 * process then also sweeps, as it exits, what killed processes left there.
 */
export function makeTempDir(prefix: string): string {
	const dir = mkdtempSync(join(sweptTempDir(), `${prefix}${process.pid}.${OWN_START_TIME ?? 0}-`));
	trackTempPath(dir);
	return dir;
}

/**
 * A new path for a temporary file, `<tmpdir>/<prefix><pid>.<start time>-<16 hex digits><suffix>`, for the caller to
 * create (exclusively) and track. The process then sweeps at exit as after `makeTempDir`.
 */
export function tempFilePath(prefix: "agent-bash-", suffix: ".log"): string {
	return join(
		sweptTempDir(),
		`${prefix}${process.pid}.${OWN_START_TIME ?? 0}-${randomBytes(8).toString("hex")}${suffix}`,
	);
}

/** The system's temporary directory now, to be swept at exit. */
function sweptTempDir(): string {
	const root = tmpdir();
	sweepAtExit.add(root);
	return root;
}

/** Removes a tracked (or any) temporary path now. */
export function removeTempPath(path: string): void {
	rmSync(path, { recursive: true, force: true });
	live.delete(path);
}

/**
 * Removes the directories `makeTempDir` made and the files `tempFilePath` named in `root` whose process is gone (by
 * pid and start time), that this user owns and that have not changed for `STALE_TEMP_PATH_MS`. Returns their names.
 */
export function sweepStaleTempPaths(root: string): string[] {
	const removed: string[] = [];
	for (const name of readdirSync(root)) {
		const dirOwner = OWNED_DIR.exec(name);
		const owner = dirOwner ?? OWNED_FILE.exec(name);
		if (!owner) continue;
		if (!processEnded(Number(owner[1]), owner[2] === "0" ? undefined : owner[2])) continue;
		const path = join(root, name);
		const stats = lstatSync(path, { throwIfNoEntry: false });
		if (!stats || (dirOwner ? !stats.isDirectory() : !stats.isFile()) || stats.uid !== process.getuid?.()) continue;
		if (Date.now() - stats.mtimeMs < STALE_TEMP_PATH_MS) continue;
		try {
			rmSync(path, { recursive: true, force: true });
			removed.push(name);
		} catch {
			// Removed meanwhile, or not ours to remove after all: the next sweep tries again.
		}
	}
	return removed;
}
