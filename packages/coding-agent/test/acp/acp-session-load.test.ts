// `session/load` and `session/resume` end to end: a session stored by one agent process is opened by another,
// the conversation is replayed as `session/update`s before the response, and the session goes on from there.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestError, SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";
import { AcpTestClient, chunkText } from "./acp-test-client.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
const clients: AcpTestClient[] = [];

afterEach(async () => {
	for (const client of clients.splice(0)) client.kill();
	sandbox?.cleanup();
});

async function connect(): Promise<AcpTestClient> {
	const client = await AcpTestClient.start(sandbox);
	clients.push(client);
	await client.initialize();
	return client;
}

/** One agent process stores a session with a read and an answer, then exits. */
async function storeSession(): Promise<string> {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	writeFileSync(join(sandbox.cwd, "todo.txt"), "buy milk\n");
	const first = await connect();
	const { sessionId } = await first.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
	server.enqueue(
		toolCallReply([{ name: "read", id: "call_read", arguments: { path: "todo.txt" } }], "Looking."),
		textReply("You need milk."),
	);
	await first.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "what is on my list?" }] });
	expect(await first.stop()).toBe(0);
	return sessionId;
}

function withoutAnnouncements(updates: readonly SessionUpdate[]): SessionUpdate[] {
	return updates.filter(
		(update) => update.sessionUpdate !== "available_commands_update" && update.sessionUpdate !== "usage_update",
	);
}

describe("session/load", () => {
	it("replays the stored conversation before answering", async () => {
		const sessionId = await storeSession();
		const second = await connect();
		const response = await second.agent.request("session/load", { sessionId, cwd: sandbox.cwd, mcpServers: [] });
		// Everything replayed arrived before the response.
		const replayed = withoutAnnouncements(second.updatesOf(sessionId));
		expect(replayed.map((update) => update.sessionUpdate)).toEqual([
			"user_message_chunk",
			"agent_message_chunk",
			"tool_call",
			"tool_call_update",
			"agent_message_chunk",
		]);
		expect(chunkText(replayed, "user_message_chunk")).toBe("what is on my list?");
		expect(chunkText(replayed, "agent_message_chunk")).toBe("Looking.You need milk.");
		expect(replayed[2]).toMatchObject({
			toolCallId: "call_read",
			kind: "read",
			title: "Read todo.txt",
			locations: [{ path: join(sandbox.cwd, "todo.txt") }],
		});
		expect(replayed[3]).toMatchObject({
			toolCallId: "call_read",
			status: "completed",
			content: [{ type: "content", content: { type: "text", text: "buy milk\n" } }],
		});
		expect(response.modes?.currentModeId).toBe("default");
		expect(second.updatesOf(sessionId)).toContainEqual(expect.objectContaining({ sessionUpdate: "usage_update" }));
	});

	it("continues the loaded conversation: the model sees the earlier messages", async () => {
		const sessionId = await storeSession();
		const second = await connect();
		await second.agent.request("session/load", { sessionId, cwd: sandbox.cwd, mcpServers: [] });
		server.enqueue(textReply("And eggs."));
		const response = await second.agent.request("session/prompt", {
			sessionId,
			prompt: [{ type: "text", text: "anything else?" }],
		});
		expect(response.stopReason).toBe("end_turn");
		const messages = server.requests.at(-1)?.body.messages ?? [];
		expect(JSON.stringify(messages)).toContain("what is on my list?");
		expect(JSON.stringify(messages)).toContain("You need milk.");
	});

	it("answers resource-not-found for an id no session has", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const client = await connect();
		const error = await client.agent
			.request("session/load", {
				sessionId: "00000000-0000-4000-8000-000000000000",
				cwd: sandbox.cwd,
				mcpServers: [],
			})
			.catch((e: unknown) => e);
		expect((error as RequestError).code).toBe(-32002);
	});
});

describe("session/resume", () => {
	it("opens the stored session without replaying it", async () => {
		const sessionId = await storeSession();
		const second = await connect();
		await second.agent.request("session/resume", { sessionId, cwd: sandbox.cwd });
		expect(withoutAnnouncements(second.updatesOf(sessionId))).toEqual([]);
		server.enqueue(textReply("Still milk."));
		await second.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again?" }] });
		expect(JSON.stringify(server.requests.at(-1)?.body.messages)).toContain("what is on my list?");
	});
});

describe("session/close", () => {
	it("releases the session: later prompts for it are resource-not-found", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const client = await connect();
		const { sessionId } = await client.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
		await client.agent.request("session/close", { sessionId });
		const error = await client.agent
			.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "x" }] })
			.catch((e: unknown) => e);
		expect((error as RequestError).code).toBe(-32002);
	});
});
