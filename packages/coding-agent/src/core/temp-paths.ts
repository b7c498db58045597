// Temporary files and directories this process creates (bash full-output files, checkpoint stores of sessions
// kept in memory, file-watch barriers). Their owner removes them when it is done; whatever is still here when
// the process exits — an SDK program that never disposes its session, a mode that ends with `process.exit`, a
// signal before a mode took over — is removed by one `exit` hook. Only a SIGKILL leaves them behind.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const live = new Set<string>();
let exitHookInstalled = false;

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

/** Creates a private directory (0700) under the system's temporary directory, removed at exit at the latest. */
export function makeTempDir(prefix: string): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	trackTempPath(dir);
	return dir;
}

/** Removes a tracked (or any) temporary path now. */
export function removeTempPath(path: string): void {
	rmSync(path, { recursive: true, force: true });
	live.delete(path);
}
