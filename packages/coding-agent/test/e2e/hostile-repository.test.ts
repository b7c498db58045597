// A repository that tries to hang or exhaust the agent as it starts: every file the agent reads from a project
// (settings, context files, prompt templates, skills, ignore files, MCP configuration, .git/HEAD) is a FIFO,
// which blocks whoever opens it until a writer appears, or a link to a device that never ends.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, runCli } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply } from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox | undefined;

afterEach(() => {
	sandbox?.cleanup();
	sandbox = undefined;
});

function fifo(path: string): void {
	mkdirSync(join(path, ".."), { recursive: true });
	execFileSync("mkfifo", [path]);
}

describe("a repository made of FIFOs and devices", () => {
	it("neither hangs nor floods agent -p: the answer comes, the odd files are reported or skipped", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const { cwd } = sandbox;
		for (const path of [
			".agent/settings.json",
			".agent/prompts/review.md",
			".agent/skills/deploy/SKILL.md",
			".gitignore",
			".mcp.json",
			".git/HEAD",
			"CLAUDE.md",
		]) {
			fifo(join(cwd, path));
		}
		symlinkSync("/dev/zero", join(cwd, "AGENTS.md"));
		server.enqueue(textReply("still here"));
		const result = await runCli(sandbox, ["-p", "hi"], { timeoutMs: 30_000 });
		expect(result.signal).toBeNull();
		expect(result.stdout).toBe("still here\n");
		expect(result.code).toBe(0);
		// The project's settings file is named as unreadable, not silently taken as empty.
		expect(result.stderr).toContain(join(cwd, ".agent", "settings.json"));
		// Nothing of /dev/zero reached the model.
		expect(JSON.stringify(server.requests[0]?.body).length).toBeLessThan(200_000);
	});
});
