// The commands the newest reference added to RPC (same framing, additive), against the built binary: a client
// written for it — an editor adapter asks get_available_thinking_levels at session/new — works with ours.
import { afterEach, describe, expect, it } from "vitest";
import type { RpcClient } from "../../src/modes/rpc/rpc-client.js";
import {
	type CliSandbox,
	createCliSandbox,
	FAKE_MODEL,
	FAKE_PROVIDER,
	FAKE_REASONING_MODEL,
	startRpcAgent,
} from "../helpers/cli-sandbox.js";
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

describe("get_available_thinking_levels", () => {
	it("lists the levels of a reasoning model and only off for a model without reasoning", async () => {
		const agent = await start(["--model", `${FAKE_PROVIDER}/${FAKE_REASONING_MODEL}`]);
		expect(await agent.send({ id: "l", type: "get_available_thinking_levels" })).toEqual({
			id: "l",
			type: "response",
			command: "get_available_thinking_levels",
			success: true,
			data: { levels: ["off", "minimal", "low", "medium", "high"] },
		});
		await agent.setModel(FAKE_PROVIDER, FAKE_MODEL);
		expect(await agent.getAvailableThinkingLevels()).toEqual(["off"]);
	});
});

describe("clear_queue", () => {
	it("empties both queues and returns their texts", async () => {
		const agent = await start();
		await agent.steer("change direction");
		await agent.followUp("summarize when finished");
		expect(await agent.send({ id: "q", type: "clear_queue" })).toEqual({
			id: "q",
			type: "response",
			command: "clear_queue",
			success: true,
			data: { steering: ["change direction"], followUp: ["summarize when finished"] },
		});
		expect((await agent.getState()).pendingMessageCount).toBe(0);
		expect(await agent.clearQueue()).toEqual({ steering: [], followUp: [] });
	});
});

describe("get_entries, get_tree and clone", () => {
	async function twoTurns(agent: RpcClient): Promise<void> {
		server.enqueue(textReply("answer one"), textReply("answer two"));
		await agent.promptAndWait("question one", { timeoutMs: 10_000 });
		await agent.promptAndWait("question two", { timeoutMs: 10_000 });
	}

	it("get_entries returns every entry in append order, or those after a cursor; an unknown cursor fails", async () => {
		const agent = await start();
		const empty = await agent.getEntries();
		expect(empty.leafId === null || typeof empty.leafId === "string").toBe(true);
		await twoTurns(agent);
		const { entries, leafId } = await agent.getEntries();
		const messages = entries.filter((entry) => entry.type === "message");
		expect(messages.map((entry) => entry.type === "message" && entry.message.role)).toEqual([
			"user",
			"assistant",
			"user",
			"assistant",
		]);
		expect(leafId).toBe(entries.at(-1)?.id);
		const cursor = messages[1]?.id as string;
		const after = await agent.getEntries(cursor);
		expect(after.entries.map((entry) => entry.id)).toEqual(
			entries.slice(entries.findIndex((entry) => entry.id === cursor) + 1).map((entry) => entry.id),
		);
		expect(await agent.send({ id: "e", type: "get_entries", since: "no-such-entry" })).toEqual({
			id: "e",
			type: "response",
			command: "get_entries",
			success: false,
			error: "Entry not found: no-such-entry",
		});
	});

	it("get_tree returns the entries as a tree with the leaf", async () => {
		const agent = await start();
		await twoTurns(agent);
		const { tree, leafId } = await agent.getTree();
		expect(tree).toHaveLength(1);
		let node = tree[0];
		const path: string[] = [];
		while (node) {
			path.push(node.entry.id);
			node = node.children[0];
		}
		expect(path.at(-1)).toBe(leafId);
		const { entries } = await agent.getEntries();
		expect(path).toEqual(entries.map((entry) => entry.id));
	});

	it("clone continues in a new session file holding the whole active branch", async () => {
		const agent = await start();
		await twoTurns(agent);
		const before = await agent.getState();
		expect(await agent.send({ id: "c", type: "clone" })).toEqual({
			id: "c",
			type: "response",
			command: "clone",
			success: true,
			data: { cancelled: false },
		});
		const after = await agent.getState();
		expect(after.sessionId).not.toBe(before.sessionId);
		expect(after.messageCount).toBe(4);
		expect((await agent.getMessages()).map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"user",
			"assistant",
		]);
	});
});
