// Temporary directories and files (src/core/temp-paths.ts): each is named after the process that made it, and those
// of processes that are gone, a day old or more, are swept by the next process that makes one.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OWN_START_TIME } from "../../src/core/process-identity.js";
import {
	makeTempDir,
	removeTempPath,
	STALE_TEMP_PATH_MS,
	sweepStaleTempPaths,
	tempFilePath,
} from "../../src/core/temp-paths.js";
import { useTempDir } from "../helpers/tools-fixtures.js";

const root = useTempDir("agent-temp-paths-");

/** A pid no process has any more: a child that has exited and been waited for. */
function goneProcessPid(): number {
	return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString());
}

function makeDir(name: string, ageMs: number, kind: "directory" | "file" = "directory"): string {
	const path = join(root(), name);
	if (kind === "directory") mkdirSync(path);
	else writeFileSync(path, "output of a command\n", { mode: 0o600 });
	const at = (Date.now() - ageMs) / 1000;
	utimesSync(path, at, at);
	return path;
}

// Linux: start times come from /proc.
describe.skipIf(process.platform !== "linux")("temporary directories and files", () => {
	it("are named after the process that made them", () => {
		const dir = makeTempDir("agent-launcher-");
		try {
			expect(dir.split("/").pop()).toMatch(
				new RegExp(`^agent-launcher-${process.pid}\\.${OWN_START_TIME ?? 0}-[A-Za-z0-9]{6}$`),
			);
		} finally {
			removeTempPath(dir);
		}
		expect(tempFilePath("agent-bash-", ".log").split("/").pop()).toMatch(
			new RegExp(`^agent-bash-${process.pid}\\.${OWN_START_TIME ?? 0}-[0-9a-f]{16}\\.log$`),
		);
	});

	it("are swept when their process is gone and they are a day old, and only then", () => {
		const gone = goneProcessPid();
		const running = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
		const day = STALE_TEMP_PATH_MS;
		const stale = [
			makeDir(`agent-launcher-${gone}.12345-abcDEF`, day + 60_000),
			makeDir(`agent-checkpoints-${gone}.0-abc123`, 2 * day),
			makeDir(`agent-checkpoint-barrier-${gone}.77-zzzzzz`, 3 * day),
			// This process's pid, another process's start time: a killed process that had the pid before.
			makeDir(`agent-launcher-${process.pid}.1-reused`, 2 * day),
			// A bash command's full output.
			makeDir(`agent-bash-${gone}.12345-0123456789abcdef.log`, 2 * day, "file"),
		];
		const kept = [
			// Its process runs: this one, another one (start time unknown).
			makeDir(`agent-checkpoints-${process.pid}.${OWN_START_TIME ?? 0}-keep01`, 2 * day),
			makeDir(`agent-launcher-${running.pid}.0-keep02`, 2 * day),
			// Gone, but changed within the day.
			makeDir(`agent-launcher-${gone}.12345-recent`, day - 60_000),
			// Not a name this code makes.
			makeDir(`agent-other-${gone}.12345-abcdef`, 2 * day),
			makeDir(`agent-launcher-${gone}-abcdef`, 2 * day),
			// Full-output files: of a running process; named the old way; a directory with a file's name.
			makeDir(`agent-bash-${process.pid}.${OWN_START_TIME ?? 0}-0123456789abcdef.log`, 2 * day, "file"),
			makeDir("agent-bash-0123456789abcdef.log", 2 * day, "file"),
			makeDir(`agent-bash-${gone}.12345-fedcba9876543210.log`, 2 * day),
		];
		let removed: string[];
		try {
			removed = sweepStaleTempPaths(root());
		} finally {
			running.kill();
		}
		expect(removed.sort()).toEqual(stale.map((path) => path.split("/").pop()).sort());
		for (const path of stale) expect(existsSync(path)).toBe(false);
		for (const path of kept) expect(existsSync(path)).toBe(true);
		expect(readdirSync(root()).length).toBe(kept.length);
	});
});
