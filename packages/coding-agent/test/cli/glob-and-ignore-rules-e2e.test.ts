// The built binary leaves the glob matcher (picomatch) and the ignore-file matcher (ignore) out of its bundle and
// requires them on first use: globs, ignore files and path rules still apply wherever they are used.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, FAKE_MODEL, FAKE_PROVIDER, runCli } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
const MODEL_ARGS = ["--model", `${FAKE_PROVIDER}/${FAKE_MODEL}`];
let sandbox: CliSandbox;

afterEach(() => {
	sandbox?.cleanup();
});

function writeFiles(root: string, files: Record<string, string>): void {
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), content);
	}
}

/** The content of the tool result the model got in its second request. */
function toolResultText(): string {
	const tool = server.requests[1]?.body.messages.find((message) => message.role === "tool");
	return typeof tool?.content === "string" ? tool.content : JSON.stringify(tool?.content);
}

describe("in the built binary", () => {
	it("find matches its glob and leaves out what an ignore file with path patterns ignores", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		// No fd on PATH: the built-in walker matches the glob and reads the ignore file itself.
		const emptyPath = join(sandbox.root, "empty-path");
		mkdirSync(emptyPath);
		writeFiles(sandbox.cwd, {
			".gitignore": "/build/\nnotes/*.draft.md\n",
			"README.md": "",
			"notes/plan.md": "",
			"notes/plan.draft.md": "",
			"build/out.md": "",
			"src/index.ts": "",
		});
		server.enqueue(toolCallReply([{ name: "find", arguments: { pattern: "*.md" } }]), textReply("done"));
		const args = ["-p", "--no-session", "--tools", "find", "list", ...MODEL_ARGS];
		const result = await runCli(sandbox, args, { env: { PATH: emptyPath } });
		expect(result.code, result.stderr).toBe(0);
		expect(toolResultText().split("\n").sort()).toEqual(["README.md", "notes/plan.md"]);
	});

	it("a deny rule's path glob refuses a read under it", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFiles(sandbox.cwd, { "secret/deep/key.txt": "hunter2" });
		server.enqueue(toolCallReply([{ name: "read", arguments: { path: "secret/deep/key.txt" } }]), textReply("done"));
		const args = ["-p", "--no-session", "--deny", "Read(secret/**/*.txt)", "read it", ...MODEL_ARGS];
		const result = await runCli(sandbox, args);
		expect(result.code, result.stderr).toBe(0);
		expect(toolResultText()).toContain("Permission denied");
		expect(toolResultText()).not.toContain("hunter2");
	});

	it("skills are left out by a settings pattern and by an ignore file in their directory", async () => {
		sandbox = createCliSandbox({
			modelServerUrl: server.baseUrl,
			settings: { skills: ["!pdf-*"] },
		});
		const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nSteps.\n`;
		writeFiles(sandbox.agentDir, {
			"skills/.gitignore": "old-*/\n",
			"skills/pdf-tools/SKILL.md": skill("pdf-tools"),
			"skills/old-review/SKILL.md": skill("old-review"),
			"skills/review/SKILL.md": skill("review"),
		});
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, ["-p", "--no-session", "hi", ...MODEL_ARGS]);
		expect(result.code, result.stderr).toBe(0);
		const systemPrompt = JSON.stringify(server.requests[0]?.body.messages[0]);
		expect(systemPrompt).toContain("The review skill.");
		expect(systemPrompt).not.toContain("The pdf-tools skill.");
		expect(systemPrompt).not.toContain("The old-review skill.");
	});
});
