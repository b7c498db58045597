// Temporary directories (src/core/temp-paths.ts): each is named after the process that made it, and directories of
// processes that are gone, a day old or more, are swept by the next process that makes one.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OWN_START_TIME } from "../../src/core/process-identity.js";
import { makeTempDir, removeTempPath, STALE_TEMP_DIR_MS, sweepStaleTempDirs } from "../../src/core/temp-paths.js";
import { useTempDir } from "../helpers/tools-fixtures.js";

const root = useTempDir("agent-temp-paths-");

/** A pid no process has any more: a child that has exited and been waited for. */
function goneProcessPid(): number {
	return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString());
}

function makeDir(name: string, ageMs: number): string {
	const path = join(root(), name);
	mkdirSync(path);
	const at = (Date.now() - ageMs) / 1000;
	utimesSync(path, at, at);
	return path;
}

// Linux: start times come from /proc.
describe.skipIf(process.platform !== "linux")("temporary directories", () => {
	it("are named after the process that made them", () => {
		const dir = makeTempDir("agent-launcher-");
		try {
			expect(dir.split("/").pop()).toMatch(
				new RegExp(`^agent-launcher-${process.pid}\\.${OWN_START_TIME ?? 0}-[A-Za-z0-9]{6}$`),
			);
		} finally {
			removeTempPath(dir);
		}
	});

	it("are swept when their process is gone and they are a day old, and only then", async () => {
		const gone = goneProcessPid();
		const running = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
		const day = STALE_TEMP_DIR_MS;
		const stale = [
			makeDir(`agent-launcher-${gone}.12345-abcDEF`, day + 60_000),
			makeDir(`agent-checkpoints-${gone}.0-abc123`, 2 * day),
			makeDir(`agent-checkpoint-barrier-${gone}.77-zzzzzz`, 3 * day),
			// This process's pid, another process's start time: a killed process that had the pid before.
			makeDir(`agent-launcher-${process.pid}.1-reused`, 2 * day),
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
		];
		const removed = await sweepStaleTempDirs(root()).finally(() => running.kill());
		expect(removed.sort()).toEqual(stale.map((path) => path.split("/").pop()).sort());
		for (const path of stale) expect(existsSync(path)).toBe(false);
		for (const path of kept) expect(existsSync(path)).toBe(true);
		expect(readdirSync(root()).length).toBe(kept.length);
	});
});
