import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll } from "vitest";

// Property tests run the same cases every time, so a landed suite stays green; FC_SEED replays or explores
// other cases ("random" draws a fresh seed), FC_RUNS runs more of them.
const seedSetting = process.env.FC_SEED ?? "20261121";
fc.configureGlobal({
	seed: seedSetting === "random" ? Date.now() ^ (Math.random() * 0x100000000) : Number(seedSetting),
	numRuns: Number(process.env.FC_RUNS ?? 100),
});

// Each test file gets its own temporary directory, removed after the file: what a test, or the code under test
// when a test stops it half-way, leaves in `os.tmpdir()` does not pile up in the machine's /tmp. Leaks of the
// product itself are tested where they matter (removal at exit, with TMPDIR pointed at a directory the test
// inspects).
process.env.AGENT_TEST_SYSTEM_TMPDIR ??= tmpdir();
const systemTmp = process.env.AGENT_TEST_SYSTEM_TMPDIR;
const fileTmp = mkdtempSync(join(systemTmp, "agent-test-"));
process.env.TMPDIR = fileTmp;
afterAll(() => {
	process.env.TMPDIR = systemTmp;
	rmSync(fileTmp, { recursive: true, force: true });
});
