// Starting and stopping `agent --mode rpc`: EOF shuts down cleanly with everything written, a killed process
// loses at most what was in flight, and startup errors never reach the command loop.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RpcClient } from "../../src/modes/rpc/rpc-client.js";
import { type CliSandbox, createCliSandbox, runCli, startRpcAgent } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply } from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let client: RpcClient | undefined;

afterEach(async () => {
	if (client) await client.stop();
	client = undefined;
	sandbox?.cleanup();
});

async function start(args: string[] = []): Promise<RpcClient> {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	client = await startRpcAgent(sandbox, args);
	return client;
}

function sessionLines(file: string): Record<string, unknown>[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

function messageRoles(file: string): string[] {
	return sessionLines(file)
		.filter((entry) => entry.type === "message")
		.map((entry) => (entry.message as { role: string }).role);
}

describe("end of input", () => {
	it("exits 0 after EOF with the session file written", async () => {
		const agent = await start();
		server.enqueue(textReply("stored"));
		await agent.promptAndWait("keep this", { timeoutMs: 10_000 });
		const file = (await agent.getState()).sessionFile!;
		const exit = await agent.stop();
		client = undefined;
		expect(exit).toEqual({ code: 0, signal: null });
		const lines = sessionLines(file);
		expect(lines[0]).toMatchObject({ type: "session", version: 3 });
		expect(messageRoles(file)).toEqual(["user", "assistant"]);
	});

	it("finishes a prompt whose input ended right after it, then exits 0", async () => {
		const agent = await start();
		server.enqueue(textReply("finished after EOF"));
		const file = (await agent.getState()).sessionFile!;
		void agent.send({ type: "prompt", message: "then close" });
		const exit = await agent.stop(15_000);
		client = undefined;
		expect(exit.code).toBe(0);
		expect(messageRoles(file)).toEqual(["user", "assistant"]);
		expect(readFileSync(file, "utf8")).toContain("finished after EOF");
	});

	it("flushes settings changed just before EOF", async () => {
		const agent = await start();
		void agent.send({ type: "set_steering_mode", mode: "all" });
		await agent.stop();
		client = undefined;
		const settings = JSON.parse(readFileSync(join(sandbox.agentDir, "settings.json"), "utf8"));
		expect(settings.steeringMode).toBe("all");
	});
});

describe("being killed", () => {
	it("loses at most the message in flight: earlier messages are on disk after SIGKILL", async () => {
		const agent = await start();
		server.enqueue(textReply("first answer"), { kind: "hang" });
		await agent.promptAndWait("first", { timeoutMs: 10_000 });
		const file = (await agent.getState()).sessionFile!;
		await agent.send({ type: "prompt", message: "second" });
		await server.waitForRequests(2);
		process.kill(agent.pid!, "SIGKILL");
		await agent.waitForExit();
		client = undefined;
		// The second user message is written when its run starts; nothing is lost or torn.
		expect(messageRoles(file).slice(0, 2)).toEqual(["user", "assistant"]);
		for (const line of readFileSync(file, "utf8").trimEnd().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
	});

	it("SIGTERM aborts the run, keeps the session and exits 143", async () => {
		const agent = await start();
		server.enqueue(textReply("first answer"), { kind: "hang" });
		await agent.promptAndWait("first", { timeoutMs: 10_000 });
		const file = (await agent.getState()).sessionFile!;
		await agent.send({ type: "prompt", message: "interrupted one" });
		await server.waitForRequests(2);
		process.kill(agent.pid!, "SIGTERM");
		const exit = await agent.waitForExit();
		client = undefined;
		expect(exit).toEqual({ code: 143, signal: null });
		expect(messageRoles(file).slice(0, 3)).toEqual(["user", "assistant", "user"]);
		expect(readFileSync(file, "utf8")).toContain("interrupted one");
	});
});

describe("startup", () => {
	it("rejects @file arguments with exit 1 before serving", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(join(sandbox.cwd, "a.md"), "x");
		const result = await runCli(sandbox, ["--mode", "rpc", "@a.md"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe("Error: @file arguments are not supported in RPC mode\n");
		expect(result.stdout).toBe("");
	});

	it("exits 1 with setup help when no model is available", async () => {
		sandbox = createCliSandbox();
		const result = await runCli(sandbox, ["--mode", "rpc"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^No models available\./);
		expect(result.stdout).toBe("");
	});

	it("warns about a broken models.json on stderr only, keeping stdout for protocol records", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(join(sandbox.agentDir, "models.json"), '{"providers": {');
		// The file is rejected as a whole, so a built-in model (with a key from the environment) is the session's.
		const result = await runCli(sandbox, ["--mode", "rpc"], {
			stdin: '{"id":"1","type":"get_state"}\n',
			env: { ANTHROPIC_API_KEY: "test-key" },
		});
		expect(result.code).toBe(0);
		expect(result.stderr).toMatch(/^Warning: Failed to parse models\.json: .*\n\nFile: .*models\.json\n$/);
		expect(JSON.parse(result.stdout.trim())).toMatchObject({ id: "1", success: true });
	});

	it("ignores positional messages and does not read stdin as a prompt", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const result = await runCli(sandbox, ["--mode", "rpc", "hello"], { stdin: '{"id":"1","type":"get_state"}\n' });
		expect(result.code).toBe(0);
		expect(server.requests).toHaveLength(0);
		const response = JSON.parse(result.stdout.trim()) as { id: string; success: boolean };
		expect(response).toMatchObject({ id: "1", success: true });
		// Nothing was said to a model, so nothing was written.
		const dirs = readdirSync(join(sandbox.agentDir, "sessions"));
		expect(readdirSync(join(sandbox.agentDir, "sessions", dirs[0]!))).toEqual([]);
	});
});
