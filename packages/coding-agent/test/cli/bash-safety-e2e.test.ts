// The built binary in print mode: the model's bash command does not see the provider key the agent was given,
// and the full-output file the model was pointed at is gone once the agent has exited, with every other temporary
// file or directory it made.
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, FAKE_MODEL, FAKE_PROVIDER, runCli } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
const MODEL_ARGS = ["--model", `${FAKE_PROVIDER}/${FAKE_MODEL}`];
let sandbox: CliSandbox | undefined;

afterEach(() => {
	sandbox?.cleanup();
	sandbox = undefined;
});

/** The text of the tool result the model received in its second request. */
function toolResultSentToModel(): string {
	const messages = server.requests[1]?.body.messages ?? [];
	const tool = messages.find((message) => message.role === "tool");
	return typeof tool?.content === "string" ? tool.content : JSON.stringify(tool?.content);
}

describe("agent -p running bash", () => {
	it("keeps the provider key out of the command and removes the full-output file on exit", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const tmp = join(sandbox.root, "tmp");
		mkdirSync(tmp);
		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: 'echo "[$OPENAI_API_KEY]"; seq 1 30000' } }]),
			textReply("done"),
		);
		const result = await runCli(sandbox, ["-p", "run it", ...MODEL_ARGS], {
			env: { TMPDIR: tmp, OPENAI_API_KEY: "sk-e2e-secret" },
			timeoutMs: 60_000,
		});
		expect(result.code).toBe(0);
		const toolResult = toolResultSentToModel();
		expect(toolResult).not.toContain("sk-e2e-secret");
		expect(toolResult).toContain("Note: provider keys were removed from this command's environment (OPENAI_API_KEY)");
		const fullOutputPath = /Full output: (\S+)\]/.exec(toolResult)?.[1];
		expect(fullOutputPath?.startsWith(`${tmp}/agent-bash-`)).toBe(true);
		expect(existsSync(fullOutputPath as string)).toBe(false);
		expect(readdirSync(tmp)).toEqual([]);
	});

	it("leaves no temporary directory behind for a session kept in memory (--no-session)", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const tmp = join(sandbox.root, "tmp");
		mkdirSync(tmp);
		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "echo changed > file.txt" } }]),
			textReply("done"),
		);
		const result = await runCli(sandbox, ["-p", "--no-session", "change it", ...MODEL_ARGS], {
			env: { TMPDIR: tmp },
			timeoutMs: 60_000,
		});
		expect(result.code).toBe(0);
		expect(existsSync(join(sandbox.cwd, "file.txt"))).toBe(true);
		expect(readdirSync(tmp)).toEqual([]);
	});
});
