// A prompt turn over ACP, end to end: the updates an editor sees (message chunks, tool calls with kind,
// locations and a diff for an edit, usage), the stop reason, and cancellation mid-turn.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestError, SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox } from "../helpers/cli-sandbox.js";
import { errorReply, startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";
import { AcpTestClient, chunkText } from "./acp-test-client.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let client: AcpTestClient | undefined;

afterEach(async () => {
	client?.kill();
	client = undefined;
	sandbox?.cleanup();
});

async function startSession(): Promise<{ agent: AcpTestClient; sessionId: string }> {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	client = await AcpTestClient.start(sandbox);
	await client.initialize();
	const { sessionId } = await client.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
	// Commands are announced right after session/new; wait so they cannot interleave with the turn's updates.
	await client.waitForUpdate((n) => n.update.sessionUpdate === "available_commands_update");
	return { agent: client, sessionId };
}

function turnUpdates(agent: AcpTestClient, sessionId: string): SessionUpdate[] {
	return agent.updatesOf(sessionId).filter((update) => update.sessionUpdate !== "available_commands_update");
}

/** The kinds of updates in order, runs of the same kind collapsed. */
function kindSequence(updates: readonly SessionUpdate[]): string[] {
	const kinds: string[] = [];
	for (const update of updates) {
		const kind =
			update.sessionUpdate === "tool_call_update"
				? `tool_call_update:${update.status ?? "-"}`
				: update.sessionUpdate;
		if (kinds[kinds.length - 1] !== kind) kinds.push(kind);
	}
	return kinds;
}

describe("a turn with an edit", () => {
	it("streams text, the tool call from pending to completed with a diff, then the answer; stops with end_turn", async () => {
		const { agent, sessionId } = await startSession();
		const file = join(sandbox.cwd, "notes.txt");
		writeFileSync(file, "alpha\nbeta\ngamma\n");
		server.enqueue(
			toolCallReply(
				[{ name: "edit", id: "call_edit", arguments: { path: "notes.txt", oldText: "beta", newText: "BETA" } }],
				"Let me edit.",
			),
			textReply("Done."),
		);

		const response = await agent.agent.request("session/prompt", {
			sessionId,
			prompt: [{ type: "text", text: "capitalise beta" }],
		});

		expect(response.stopReason).toBe("end_turn");
		const updates = turnUpdates(agent, sessionId);
		expect(kindSequence(updates)).toEqual([
			"agent_message_chunk",
			"tool_call",
			"usage_update",
			"tool_call_update:in_progress",
			"tool_call_update:completed",
			"agent_message_chunk",
			"usage_update",
		]);
		// The client shows its own prompt: it is not echoed back.
		expect(chunkText(updates, "user_message_chunk")).toBe("");
		expect(chunkText(updates, "agent_message_chunk")).toBe("Let me edit.Done.");
		expect(updates.find((update) => update.sessionUpdate === "tool_call")).toEqual({
			sessionUpdate: "tool_call",
			toolCallId: "call_edit",
			title: "Edit notes.txt",
			kind: "edit",
			status: "pending",
			locations: [{ path: file }],
			rawInput: { path: "notes.txt", oldText: "beta", newText: "BETA" },
		});
		const completed = updates.find(
			(update) => update.sessionUpdate === "tool_call_update" && update.status === "completed",
		);
		expect(completed).toEqual({
			sessionUpdate: "tool_call_update",
			toolCallId: "call_edit",
			status: "completed",
			content: [{ type: "diff", path: file, oldText: "alpha\nbeta\ngamma\n", newText: "alpha\nBETA\ngamma\n" }],
			locations: [{ path: file, line: 2 }],
		});
		expect(readFileSync(file, "utf8")).toBe("alpha\nBETA\ngamma\n");
	});

	it("reports tokens in context, the window and the cost", async () => {
		const { agent, sessionId } = await startSession();
		server.enqueue(textReply("hi", { usage: { prompt_tokens: 1200, completion_tokens: 34 } }));
		await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
		const usage = turnUpdates(agent, sessionId).find((update) => update.sessionUpdate === "usage_update");
		expect(usage).toMatchObject({ used: 1234, size: 128000, cost: { currency: "USD" } });
	});
});

describe("tool kinds and titles", () => {
	it("maps read, bash, grep and an unknown tool to read, execute, search and other", async () => {
		const { agent, sessionId } = await startSession();
		writeFileSync(join(sandbox.cwd, "a.txt"), "one\ntwo\nthree\n");
		server.enqueue(
			toolCallReply([
				{ name: "read", id: "r", arguments: { path: "a.txt", offset: 2, limit: 1 } },
				{ name: "bash", id: "b", arguments: { command: "echo hi" } },
				{ name: "grep", id: "g", arguments: { pattern: "two", path: "." } },
				{ name: "nosuchtool", id: "x", arguments: {} },
			]),
			textReply("ok"),
		);
		await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		const calls = turnUpdates(agent, sessionId).filter((update) => update.sessionUpdate === "tool_call");
		expect(
			calls.map((call) => (call.sessionUpdate === "tool_call" ? [call.toolCallId, call.kind, call.title] : [])),
		).toEqual([
			["r", "read", "Read a.txt (2-2)"],
			["b", "execute", "echo hi"],
			["g", "search", 'grep "two" in .'],
			["x", "other", "nosuchtool"],
		]);
		expect(calls[0]).toMatchObject({ locations: [{ path: join(sandbox.cwd, "a.txt"), line: 2 }] });
		const results = turnUpdates(agent, sessionId).filter(
			(update) => update.sessionUpdate === "tool_call_update" && update.content,
		);
		expect(results.find((update) => "toolCallId" in update && update.toolCallId === "r")).toMatchObject({
			status: "completed",
			content: [{ type: "content", content: { type: "text", text: expect.stringContaining("two") } }],
		});
		expect(results.find((update) => "toolCallId" in update && update.toolCallId === "x")).toMatchObject({
			status: "failed",
		});
	});
});

describe("cancel", () => {
	it("answers the prompt with cancelled while the model is still answering", async () => {
		const { agent, sessionId } = await startSession();
		server.enqueue({ kind: "hang" });
		const prompt = agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "think" }] });
		await server.waitForRequests(1);
		await agent.agent.notify("session/cancel", { sessionId });
		expect((await prompt).stopReason).toBe("cancelled");
	});

	it("stops a running command and answers cancelled, never an error", async () => {
		const { agent, sessionId } = await startSession();
		server.enqueue(toolCallReply([{ name: "bash", id: "slow", arguments: { command: "sleep 30" } }]));
		const prompt = agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
		await agent.waitForUpdate(
			(n) => n.update.sessionUpdate === "tool_call_update" && n.update.status === "in_progress",
		);
		await agent.agent.notify("session/cancel", { sessionId });
		expect((await prompt).stopReason).toBe("cancelled");
		expect(turnUpdates(agent, sessionId)).toContainEqual(
			expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: "slow", status: "failed" }),
		);
		// The session takes the next prompt.
		server.enqueue(textReply("again"));
		const next = await agent.agent.request("session/prompt", {
			sessionId,
			prompt: [{ type: "text", text: "go on" }],
		});
		expect(next.stopReason).toBe("end_turn");
	});
});

describe("failures", () => {
	it("a model error is a JSON-RPC error of the prompt carrying the provider's message", async () => {
		sandbox = createCliSandbox({
			modelServerUrl: server.baseUrl,
			settings: { retry: { enabled: false } },
		});
		client = await AcpTestClient.start(sandbox);
		await client.initialize();
		const { sessionId } = await client.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
		server.enqueue(errorReply(400, "context too silly"));
		const error = await client.agent
			.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "x" }] })
			.catch((e: unknown) => e);
		expect((error as RequestError).code).toBe(-32603);
		expect((error as RequestError).message).toContain("context too silly");
	});

	it("a prompt for an unknown session is resource-not-found", async () => {
		const { agent } = await startSession();
		const error = await agent.agent
			.request("session/prompt", { sessionId: "nope", prompt: [{ type: "text", text: "x" }] })
			.catch((e: unknown) => e);
		expect((error as RequestError).code).toBe(-32002);
	});
});

describe.skipIf(process.platform !== "linux")("end of input", () => {
	it("collects the bash launcher before exiting: no shell of the agent's outlives it", async () => {
		const { agent, sessionId } = await startSession();
		server.enqueue(
			toolCallReply([{ name: "bash", id: "ppid", arguments: { command: "echo launcher=$PPID" } }]),
			textReply("ok"),
		);
		await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		const result = turnUpdates(agent, sessionId).find(
			(update) => update.sessionUpdate === "tool_call_update" && update.toolCallId === "ppid" && update.content,
		);
		const text = JSON.stringify(result);
		const launcher = Number(/launcher=(\d+)/.exec(text)?.[1]);
		expect(launcher).toBeGreaterThan(0);
		expect(launcher).not.toBe(agent.child.pid);
		expect(await agent.stop()).toBe(0);
		// The agent waited for it and collected it, so the pid is gone, not a zombie or a process still exiting.
		expect(() => process.kill(launcher, 0)).toThrow();
	});
});
