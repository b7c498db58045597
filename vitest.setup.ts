import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

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
