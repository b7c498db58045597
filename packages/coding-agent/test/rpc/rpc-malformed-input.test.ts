// Bad input never stops the server: every line gets an answer and the next command is served (docs/rpc.md "Errors").
import { afterEach, describe, expect, it } from "vitest";
import type { RpcClient } from "../../src/modes/rpc/rpc-client.js";
import { type CliSandbox, createCliSandbox, startRpcAgent } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply } from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let client: RpcClient;

afterEach(async () => {
	await client?.stop();
	sandbox?.cleanup();
});

async function start(): Promise<RpcClient> {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	client = await startRpcAgent(sandbox, ["--no-session"]);
	return client;
}

/** Sends a raw line and resolves with the next response record (the only one, when sent alone). */
function rawResponse(agent: RpcClient, line: string): Promise<Record<string, unknown>> {
	return new Promise((resolve) => {
		const stop = agent.onResponse((response) => {
			stop();
			resolve(response as unknown as Record<string, unknown>);
		});
		agent.sendRaw(line);
	});
}

describe("lines that are not commands", () => {
	it("answers bad JSON with a parse error and keeps serving", async () => {
		const agent = await start();
		const response = await rawResponse(agent, "not json");
		expect(Object.keys(response)).toEqual(["type", "command", "success", "error"]);
		expect(response).toMatchObject({ type: "response", command: "parse", success: false });
		expect(response.error).toMatch(/^Failed to parse command: Unexpected token/);
		expect((await agent.getState()).isStreaming).toBe(false);
	});

	it("answers an empty line with a parse error", async () => {
		const agent = await start();
		expect(await rawResponse(agent, "")).toEqual({
			type: "response",
			command: "parse",
			success: false,
			error: "Failed to parse command: Unexpected end of JSON input",
		});
	});

	it("answers null, a number and an array as not being command objects", async () => {
		const agent = await start();
		for (const [line, kind] of [
			["null", "null"],
			["42", "a number"],
			["[1]", "an array"],
		]) {
			expect(await rawResponse(agent, line as string)).toEqual({
				type: "response",
				command: "parse",
				success: false,
				error: `Failed to parse command: expected a JSON object with a "type", got ${kind}`,
			});
		}
	});

	it("answers an object without a string type with a parse error carrying its id", async () => {
		const agent = await start();
		expect(await rawResponse(agent, '{"id":"x1","message":"hi"}')).toEqual({
			id: "x1",
			type: "response",
			command: "parse",
			success: false,
			error: 'Failed to parse command: missing "type" (a string naming the command)',
		});
	});

	it("answers an unknown command with its own id and type", async () => {
		const agent = await start();
		expect(await agent.send({ id: "u1", type: "bogus" } as never)).toEqual({
			id: "u1",
			type: "response",
			command: "bogus",
			success: false,
			error: "Unknown command: bogus",
		});
	});

	it("answers a command missing a required field with that command's own error", async () => {
		const agent = await start();
		expect(await agent.send({ id: "m1", type: "prompt" } as never)).toEqual({
			id: "m1",
			type: "response",
			command: "prompt",
			success: false,
			error: 'Missing required field "message" (string)',
		});
	});

	it("ignores extension_ui_response lines for unknown dialogs (no response at all)", async () => {
		const agent = await start();
		const responses: unknown[] = [];
		agent.onResponse((response) => responses.push(response));
		agent.sendRaw('{"type":"extension_ui_response","id":"nobody","value":"x"}');
		await agent.getState();
		expect(responses).toHaveLength(1);
	});
});

describe("framing", () => {
	it("keeps U+2028 and U+2029 inside a prompt intact, to the model and back", async () => {
		const agent = await start();
		const text = "line\u2028separator\u2029paragraph";
		server.enqueue(textReply(`echo: ${text}`));
		await agent.promptAndWait(text, { timeoutMs: 10_000 });
		expect(server.requests[0]!.body.messages.at(-1)!.content).toEqual([{ type: "text", text }]);
		expect(await agent.getLastAssistantText()).toBe(`echo: ${text}`);
		expect(agent.invalidLines).toEqual([]);
	});

	it("accepts CRLF line endings and several commands in one write", async () => {
		const agent = await start();
		const responses: Record<string, unknown>[] = [];
		const both = new Promise<void>((resolve) => {
			agent.onResponse((response) => {
				responses.push(response as unknown as Record<string, unknown>);
				if (responses.length === 2) resolve();
			});
		});
		agent.sendRaw('{"id":"c1","type":"get_state"}\r\n{"id":"c2","type":"get_commands"}\r\n');
		await both;
		expect(responses.map((r) => [r.id, r.success])).toEqual(
			expect.arrayContaining([
				["c1", true],
				["c2", true],
			]),
		);
	});

	it("writes nothing but JSON records on stdout", async () => {
		const agent = await start();
		const lines: string[] = [];
		agent.onLine((line) => lines.push(line));
		server.enqueue(textReply("ok"));
		await agent.promptAndWait("hi", { timeoutMs: 10_000 });
		agent.sendRaw("garbage");
		await agent.getState();
		expect(lines.length).toBeGreaterThan(5);
		for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
		expect(agent.invalidLines).toEqual([]);
	});
});
