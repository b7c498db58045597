import { type AgentEvent, SKIPPED_FOR_ABORT_TEXT } from "@agent/agent-core";
import { type AssistantMessage, fauxText, type Message } from "@agent/ai";
import { describe, expect, it, vi } from "vitest";
import {
	createEchoTool,
	createGatedTool,
	createHarness,
	deferred,
	eventLabels,
	expectWellPairedToolCalls,
	requestRoles,
	textOf,
	toolCallsReply,
	toolResultsOf,
	userMessage,
	waitForEvent,
} from "./helpers/harness.js";

const never = new Promise<never>(() => {});

describe("abort during streaming", () => {
	it("keeps a partial reply that has content, marked aborted, and ends the run", async () => {
		const { faux, agent, events } = createHarness();
		faux.enqueue({ content: [{ type: "text", text: "I was about to say" }], holdUntil: never });
		const run = agent.prompt("Tell me");
		await waitForEvent(agent, (e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_end");
		agent.abort();
		await run;

		const last = agent.state.messages.at(-1) as AssistantMessage;
		expect(last).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: "Request was aborted" });
		expect(textOf(last)).toBe("I was about to say");
		expect(eventLabels(events).slice(-3)).toEqual(["message_end:assistant", "turn_end", "agent_end"]);
		expect(agent.state).toMatchObject({ isStreaming: false, streamMessage: null, error: "Request was aborted" });
	});

	it("reports but does not keep a reply aborted before it had any content", async () => {
		const { faux, agent, events } = createHarness();
		faux.enqueue({ content: [], holdUntil: never });
		const run = agent.prompt("Tell me");
		await waitForEvent(agent, (e) => e.type === "message_start" && e.message.role === "assistant");
		agent.abort();
		await run;

		expect(eventLabels(events).slice(-4)).toEqual([
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		expect(agent.state.messages.map((m) => (m as Message).role)).toEqual(["user"]);
		const end = events.at(-1) as Extract<AgentEvent, { type: "agent_end" }>;
		expect(end.messages.map((m) => (m as Message).role)).toEqual(["user"]);
	});

	it("reports an abort issued before the provider answered, without keeping an empty message", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("never streamed"));
		const run = agent.prompt("Tell me");
		agent.abort();
		await run;
		expect(agent.state.messages.map((m) => (m as Message).role)).toEqual(["user"]);
		expect(agent.state.error).toBe("Request was aborted");
	});

	it("does not run tool calls of an aborted reply, and the next request leaves them out", async () => {
		const execute = vi.fn(async () => ({ content: [], details: {} }));
		const tool = { ...createEchoTool("write"), execute };
		const { faux, agent, events } = createHarness({ tools: [tool] });
		faux.enqueue(
			{ content: [{ type: "toolCall", id: "w1", name: "write", arguments: { path: "a" } }], holdUntil: never },
			fauxText("Fresh start"),
		);
		const run = agent.prompt("Write a");
		await waitForEvent(agent, (e) => e.type === "message_update" && e.assistantMessageEvent.type === "toolcall_end");
		agent.abort();
		await run;
		expect(execute).not.toHaveBeenCalled();
		expect(events.some((e) => e.type === "tool_execution_start")).toBe(false);

		await agent.prompt("Something else");
		// The aborted turn (with its unanswered call) is not replayed.
		expect(requestRoles(faux.requests[1])).toEqual(["user", "user"]);
		expectWellPairedToolCalls(faux.requests[1].context.messages);
	});

	it("unblocks a stream that stalls before sending anything", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue({ content: [{ type: "text", text: "" }], holdUntil: never });
		const run = agent.prompt("Hello?");
		await waitForEvent(agent, (e) => e.type === "message_start" && e.message.role === "assistant");
		agent.abort();
		await agent.waitForIdle();
		await run;
		expect(agent.state.isStreaming).toBe(false);
	});
});

describe("abort during tool execution", () => {
	it("fires every running tool's signal, answers every call, and ends without another model call", async () => {
		const gated = createGatedTool("bash");
		const { faux, agent, events } = createHarness({ tools: [gated.tool] });
		faux.enqueue(toolCallsReply("bash", ["a", "b"]));
		const run = agent.prompt("Run two commands");
		await gated.whenStarted(2);
		agent.abort();
		await run;

		expect([...gated.signals.values()].map((signal) => signal?.aborted)).toEqual([true, true]);
		expect(toolResultsOf(agent.state.messages).map((r) => [r.toolCallId, textOf(r), r.isError])).toEqual([
			["a", "bash aborted", true],
			["b", "bash aborted", true],
		]);
		expect(faux.requests).toHaveLength(1);
		expect(eventLabels(events).slice(-2)).toEqual(["turn_end", "agent_end"]);
		expect(agent.state.pendingToolCalls.size).toBe(0);
		expectWellPairedToolCalls(agent.state.messages as Message[]);
	});

	it("in sequential mode answers the calls that had not started without running them", async () => {
		const gated = createGatedTool("bash");
		const { faux, agent } = createHarness({ tools: [gated.tool], toolExecution: "sequential" });
		faux.enqueue({
			content: ["a", "b", "c"].map((id) => ({ type: "toolCall" as const, id, name: "bash", arguments: {} })),
		});
		const run = agent.prompt("Run three commands");
		await gated.whenStarted(1);
		agent.abort();
		await run;

		expect(gated.startedIds).toEqual(["a"]);
		expect(toolResultsOf(agent.state.messages).map((r) => [r.toolCallId, textOf(r)])).toEqual([
			["a", "bash aborted"],
			["b", SKIPPED_FOR_ABORT_TEXT],
			["c", SKIPPED_FOR_ABORT_TEXT],
		]);
	});

	it("answers calls that had not started running when the abort landed, without running them", async () => {
		const execute = vi.fn(async () => ({ content: [], details: {} }));
		const tool = { ...createEchoTool("bash"), execute };
		const { faux, agent } = createHarness({
			tools: [tool],
			beforeToolCall: async () => {
				agent.abort();
				return undefined;
			},
		});
		faux.enqueue({
			content: ["a", "b"].map((id) => ({ type: "toolCall" as const, id, name: "bash", arguments: {} })),
		});
		await agent.prompt("Go");
		expect(execute).not.toHaveBeenCalled();
		expect(toolResultsOf(agent.state.messages).map((r) => [r.toolCallId, textOf(r), r.isError])).toEqual([
			["b", SKIPPED_FOR_ABORT_TEXT, true],
			["a", SKIPPED_FOR_ABORT_TEXT, true],
		]);
	});

	it("leaves a history the next request can use as is", async () => {
		const gated = createGatedTool("bash");
		const { faux, agent } = createHarness({ tools: [gated.tool] });
		faux.enqueue(toolCallsReply("bash", ["a", "b"]), fauxText("What next?"));
		const run = agent.prompt("Run two commands");
		await gated.whenStarted(2);
		gated.release("a", "first finished");
		await waitForEvent(agent, (e) => e.type === "tool_execution_end" && e.toolCallId === "a");
		agent.abort();
		await run;

		await agent.prompt("Never mind");
		const sent = faux.requests[1].context.messages;
		expect(requestRoles(faux.requests[1])).toEqual(["user", "assistant", "toolResult", "toolResult", "user"]);
		expect(toolResultsOf(sent).map((r) => [r.toolCallId, textOf(r)])).toEqual([
			["a", "first finished"],
			["b", "bash aborted"],
		]);
		expect(expectWellPairedToolCalls(sent)).toEqual({ calls: 2, results: 2 });
	});

	it("waitForIdle resolves only after the aborted tools have settled", async () => {
		const started = deferred();
		const settle = deferred();
		const log: string[] = [];
		const tool = {
			...createEchoTool("stubborn"),
			// Honours the signal only once its cleanup is done.
			execute: async (_id: string, _params: unknown, signal?: AbortSignal) => {
				started.resolve();
				await new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));
				await settle.promise;
				log.push("tool settled");
				throw new Error("Command aborted");
			},
		};
		const { faux, agent } = createHarness({ tools: [tool] });
		faux.enqueue({ content: [{ type: "toolCall", id: "a", name: "stubborn", arguments: {} }] });
		const run = agent.prompt("Go");
		await started.promise;
		const idle = agent.waitForIdle().then(() => log.push("idle"));
		agent.abort();
		settle.resolve();
		await idle;
		await run;
		expect(log).toEqual(["tool settled", "idle"]);
		expect(textOf(toolResultsOf(agent.state.messages)[0])).toBe("Command aborted");
	});
});

describe("abort between turns", () => {
	it("ends the run before the next model call, keeps queued messages, and can be continued", async () => {
		const { faux, agent, events } = createHarness({ tools: [createEchoTool()] });
		faux.enqueue(
			{ content: [{ type: "toolCall", id: "a", name: "echo", arguments: {} }] },
			fauxText("Continued"),
			fauxText("Answered the queued one"),
		);
		agent.subscribe((event) => {
			if (event.type === "turn_end" && event.toolResults.length > 0) {
				agent.followUp(userMessage("queued meanwhile"));
				agent.abort();
			}
		});
		await agent.prompt("Go");

		expect(faux.requests).toHaveLength(1);
		expect(eventLabels(events).slice(-2)).toEqual(["turn_end", "agent_end"]);
		expect(agent.state.messages.map((m) => (m as Message).role)).toEqual(["user", "assistant", "toolResult"]);
		expect(agent.state.error).toBeUndefined();
		expect(agent.hasQueuedMessages()).toBe(true);

		await agent.continue();
		expect(requestRoles(faux.requests[1])).toEqual(["user", "assistant", "toolResult"]);
		expect(textOf(faux.requests[2].context.messages.at(-1))).toBe("queued meanwhile");
		expect(textOf(agent.state.messages.at(-1))).toBe("Answered the queued one");
	});

	it("is a no-op when the agent is idle", async () => {
		const { faux, agent } = createHarness();
		agent.abort();
		faux.enqueue(fauxText("fine"));
		await agent.prompt("Hi");
		expect(textOf(agent.state.messages.at(-1))).toBe("fine");
	});
});
