// Commands sent while a run streams (docs/rpc.md "Commands"): they are served at once, correlated by id.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { RpcEvent, RpcResponseFor } from "../../src/modes/rpc/protocol.js";
import type { RpcClient } from "../../src/modes/rpc/rpc-client.js";
import { type CliSandbox, createCliSandbox, startRpcAgent } from "../helpers/cli-sandbox.js";
import { deferred } from "../helpers/deferred.js";
import { lastUserText, startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let client: RpcClient;

afterEach(async () => {
	await client?.stop();
	sandbox?.cleanup();
});

async function start(): Promise<RpcClient> {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	client = await startRpcAgent(sandbox);
	return client;
}

function collectEvents(agent: RpcClient): RpcEvent[] {
	const events: RpcEvent[] = [];
	agent.onEvent((event) => events.push(event));
	return events;
}

/** Every response carrying `id`, in arrival order. */
function responsesFor(agent: RpcClient, id: string): RpcResponseFor<"prompt">[] {
	const responses: RpcResponseFor<"prompt">[] = [];
	agent.onResponse((response) => {
		if (response.id === id) responses.push(response as RpcResponseFor<"prompt">);
	});
	return responses;
}

describe("while a run is streaming", () => {
	it("get_state reports streaming, and correlated ids answer commands sent together", async () => {
		const agent = await start();
		const gate = deferred();
		server.enqueue(textReply("slow answer", { gate: gate.promise }));
		await agent.send({ type: "prompt", message: "slow" });
		await server.waitForRequests(1);

		const [state, stats, commands] = await Promise.all([
			agent.send({ id: "s", type: "get_state" }),
			agent.send({ id: "t", type: "get_session_stats" }),
			agent.send({ id: "c", type: "get_commands" }),
		]);
		expect([state.id, stats.id, commands.id]).toEqual(["s", "t", "c"]);
		expect(state).toMatchObject({ command: "get_state", success: true, data: { isStreaming: true } });
		expect(stats).toMatchObject({ command: "get_session_stats", success: true });

		gate.resolve();
		await agent.waitForIdle(10_000);
		expect((await agent.getState()).isStreaming).toBe(false);
		expect(await agent.getLastAssistantText()).toBe("slow answer");
	});

	it("a prompt without streamingBehavior fails with its own id, the error before the success", async () => {
		const agent = await start();
		const gate = deferred();
		server.enqueue(textReply("busy", { gate: gate.promise }));
		await agent.send({ type: "prompt", message: "first" });
		await server.waitForRequests(1);
		const responses = responsesFor(agent, "p2");
		const first = await agent.send({ id: "p2", type: "prompt", message: "second" });
		expect(first).toEqual({
			id: "p2",
			type: "response",
			command: "prompt",
			success: false,
			error: "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
		});
		gate.resolve();
		await agent.waitForIdle(10_000);
		expect(responses.map((r) => r.success)).toEqual([false, true]);
		expect(server.requests).toHaveLength(1);
	});

	it("steer interrupts the remaining tool calls; follow_up is delivered when the run would stop", async () => {
		const agent = await start();
		const events = collectEvents(agent);
		const gate = deferred();
		server.enqueue(
			toolCallReply([
				{ name: "bash", arguments: { command: "echo one" } },
				{ name: "bash", arguments: { command: "echo two" } },
			]),
			textReply("steered", { gate: gate.promise }),
			textReply("followed up"),
		);
		// Queue both before the first reply is read: steering is taken after the first tool batch.
		await agent.send({ type: "prompt", message: "do two things" });
		await agent.steer("stop, do this instead");
		await agent.send({ type: "prompt", message: "then this", streamingBehavior: "followUp" });
		gate.resolve();
		await agent.waitForIdle(10_000);

		expect(server.requests.slice(1).map(lastUserText)).toEqual(["stop, do this instead", "then this"]);
		const ends = events.filter((e) => e.type === "tool_execution_end") as { isError: boolean }[];
		expect(ends).toHaveLength(2);
		expect(await agent.getLastAssistantText()).toBe("followed up");
		expect((await agent.getState()).pendingMessageCount).toBe(0);
	});

	it("abort stops the run, answers after agent_end, and the run still ends with agent_end", async () => {
		const agent = await start();
		const events = collectEvents(agent);
		server.enqueue({ kind: "hang" });
		await agent.send({ type: "prompt", message: "never answered" });
		await server.waitForRequests(1);
		const aborted = await agent.send({ id: "a", type: "abort" });
		expect(aborted).toEqual({ id: "a", type: "response", command: "abort", success: true });
		const types = events.map((e) => e.type);
		expect(types.at(-1)).toBe("agent_end");
		const assistantEnd = events.find((e) => e.type === "message_end" && e.message.role === "assistant");
		expect(assistantEnd).toMatchObject({ message: { stopReason: "aborted" } });
		expect((await agent.getState()).isStreaming).toBe(false);
	});
});

describe("every run ends with agent_end", () => {
	it("after a provider error (no retry)", async () => {
		const agent = await start();
		const events = collectEvents(agent);
		server.enqueue({ kind: "error", status: 400, message: "bad request" });
		await agent.promptAndWait("fail", { timeoutMs: 10_000 });
		expect(events.filter((e) => e.type === "agent_start")).toHaveLength(1);
		expect(events.filter((e) => e.type === "agent_end")).toHaveLength(1);
	});

	it("after compact stops a run mid-tool: waitForIdle returns and the aborted tool result is kept", async () => {
		const agent = await start();
		const events = collectEvents(agent);
		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "sleep 30" } }]),
			textReply("Prefix summary"),
		);
		await agent.send({ type: "prompt", message: "run something slow" });
		await agent.waitForEvent((event) => event.type === "tool_execution_start");
		const compacted = await agent.send({ id: "c", type: "compact" });
		expect(compacted).toMatchObject({
			id: "c",
			success: true,
			data: { summary: expect.stringContaining("Prefix summary") },
		});
		await agent.waitForIdle(5_000);
		const types = events.map((e) => e.type);
		expect(types.filter((t) => t === "agent_end")).toHaveLength(1);
		expect(events.find((e) => e.type === "tool_execution_end")).toMatchObject({ isError: true });
		// The one turn is split: its prompt is summarized, the call and its aborted result are kept.
		const messages = await agent.getMessages();
		expect(messages.map((m) => m.role)).toEqual(["compactionSummary", "assistant", "toolResult"]);
	});

	it("after new_session stops a run: the old session file keeps the aborted tool result", async () => {
		const agent = await start();
		const events = collectEvents(agent);
		server.enqueue(toolCallReply([{ name: "bash", arguments: { command: "sleep 30" } }]));
		await agent.send({ type: "prompt", message: "run something slow" });
		await agent.waitForEvent((event) => event.type === "tool_execution_start");
		const oldFile = (await agent.getState()).sessionFile as string;
		expect(await agent.send({ type: "new_session" })).toMatchObject({ success: true });
		expect(events.map((e) => e.type).filter((t) => t === "agent_end")).toHaveLength(1);
		const roles = readFileSync(oldFile, "utf8")
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line) as { type: string; message?: { role: string } })
			.flatMap((entry) => (entry.type === "message" && entry.message ? [entry.message.role] : []));
		expect(roles).toEqual(["user", "assistant", "toolResult"]);
		expect(await agent.getMessages()).toEqual([]);
	});

	it("after automatic retries, each attempt's run ends", async () => {
		const agent = await start();
		const events = collectEvents(agent);
		server.enqueue({ kind: "error", status: 503, message: "service unavailable" }, textReply("recovered"));
		await agent.promptAndWait("flaky", { timeoutMs: 10_000 });
		const types = events.map((e) => e.type);
		expect(types.filter((t) => t === "agent_start")).toHaveLength(2);
		expect(types.filter((t) => t === "agent_end")).toHaveLength(2);
		expect(events.find((e) => e.type === "auto_retry_end")).toMatchObject({ success: true, attempt: 1 });
		expect(await agent.getLastAssistantText()).toBe("recovered");
	});
});
