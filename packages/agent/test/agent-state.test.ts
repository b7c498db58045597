import {
	Agent,
	type AgentEvent,
	CONTINUE_WHILE_RUNNING_TEXT,
	INTERRUPTED_TOOL_CALL_TEXT,
	PROMPT_WHILE_RUNNING_TEXT,
} from "@agent/agent-core";
import { type AssistantMessage, fauxText, fauxToolCall, type Message, type Model } from "@agent/ai";
import { describe, expect, it, vi } from "vitest";
import {
	createEchoTool,
	createGatedTool,
	createHarness,
	deferred,
	eventLabels,
	expectWellPairedToolCalls,
	requestRoles,
	rolesOf,
	textOf,
	toolCallsReply,
	userMessage,
	waitForEvent,
} from "./helpers/harness.js";

describe("one run at a time", () => {
	it("rejects a second prompt in the same tick and never interleaves it", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("first answer"), fauxText("unused"));
		const first = agent.prompt("first");
		await expect(agent.prompt("second")).rejects.toThrow(PROMPT_WHILE_RUNNING_TEXT);
		await first;
		expect(PROMPT_WHILE_RUNNING_TEXT).toBe(
			"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
		);
		expect(faux.requests).toHaveLength(1);
		expect(agent.state.messages.map(textOf)).toEqual(["first", "first answer"]);
	});

	it("rejects prompt() and continue() while tools run", async () => {
		const gated = createGatedTool();
		const { faux, agent } = createHarness({ tools: [gated.tool] });
		faux.enqueue(fauxToolCall("gated", {}, { id: "a" }), fauxText("done"));
		const run = agent.prompt("go");
		await gated.whenStarted(1);
		await expect(agent.prompt("again")).rejects.toThrow(PROMPT_WHILE_RUNNING_TEXT);
		await expect(agent.continue()).rejects.toThrow(CONTINUE_WHILE_RUNNING_TEXT);
		gated.release("a");
		await run;
		expect(rolesOf(agent.state.messages)).toEqual(["user", "assistant", "toolResult", "assistant"]);
	});

	it("lets an agent_end listener start the next run without the finished run resetting it", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("one"), { content: [{ type: "text", text: "two" }], holdUntil: deferred().promise });
		let secondRun: Promise<void> | undefined;
		const unsubscribe = agent.subscribe((event) => {
			if (event.type !== "agent_end") return;
			unsubscribe();
			secondRun = agent.prompt("next");
		});
		await agent.prompt("first");
		await waitForEvent(agent, (e) => e.type === "message_update");
		expect(agent.state.isStreaming).toBe(true);
		agent.abort();
		await secondRun;
		expect(agent.state.isStreaming).toBe(false);
		expect(textOf(agent.state.messages.at(-1))).toBe("two");
	});
});

describe("prompt input", () => {
	it("builds a user message from text and images", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("a cat"));
		const image = { type: "image" as const, data: "aGVsbG8=", mimeType: "image/png" };
		await agent.prompt("What is this?", [image]);
		expect(faux.requests[0].context.messages[0]).toMatchObject({
			role: "user",
			content: [{ type: "text", text: "What is this?" }, image],
		});
	});

	it("accepts one message or several, including string content", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("ok"), fauxText("ok"));
		await agent.prompt({ role: "user", content: "plain string content", timestamp: 1 });
		await agent.prompt([userMessage("a"), userMessage("b")]);
		expect(faux.requests[0].context.messages[0].content).toBe("plain string content");
		expect(faux.requests[1].context.messages.slice(-2).map(textOf)).toEqual(["a", "b"]);
	});

	it("refuses to run without a model", async () => {
		const agent = new Agent({ initialState: { model: undefined as unknown as Model } });
		await expect(agent.prompt("hi")).rejects.toThrow("No model configured");
		expect(agent.state.isStreaming).toBe(false);
	});

	it("reads its default model from the catalog only when given none", async () => {
		vi.resetModules();
		const parse = vi.spyOn(JSON, "parse");
		try {
			const fresh = await import("@agent/agent-core");
			const catalogParses = () =>
				parse.mock.calls.filter(([text]) => typeof text === "string" && text.includes('"provider":"')).length;
			const given = new fresh.Agent({ initialState: { model: createHarness().agent.state.model } });
			expect(given.state.model.provider).toBe("faux");
			expect(catalogParses()).toBe(0);
			expect(new fresh.Agent().state.model).toMatchObject({ provider: "google" });
			expect(catalogParses()).toBe(1);
		} finally {
			parse.mockRestore();
		}
	});

	it("refuses to continue from nothing", async () => {
		const { agent } = createHarness();
		await expect(agent.continue()).rejects.toThrow("No messages to continue from");
	});
});

describe("state during a run", () => {
	it("tracks the streaming message, pending tool calls and the streaming flag", async () => {
		const gated = createGatedTool();
		const { faux, agent } = createHarness({ tools: [gated.tool] });
		faux.enqueue(toolCallsReply("gated", ["a", "b"]), fauxText("done"));
		const snapshots: string[] = [];
		agent.subscribe((event) => {
			if (event.type === "message_update" && agent.state.streamMessage) snapshots.push("streaming");
		});
		const run = agent.prompt("go");
		expect(agent.state.isStreaming).toBe(true);
		await gated.whenStarted(2);
		expect([...agent.state.pendingToolCalls]).toEqual(["a", "b"]);
		gated.release("a");
		await waitForEvent(agent, (e) => e.type === "tool_execution_end");
		expect([...agent.state.pendingToolCalls]).toEqual(["b"]);
		gated.release("b");
		await run;
		expect(snapshots.length).toBeGreaterThan(0);
		expect(agent.state).toMatchObject({ isStreaming: false, streamMessage: null });
		expect(agent.state.pendingToolCalls.size).toBe(0);
	});

	it("records a failed turn's error and clears it when the next run starts", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue({ errorMessage: "529 overloaded" }, fauxText("fine now"));
		await agent.prompt("one");
		expect(agent.state.error).toBe("529 overloaded");
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "error", errorMessage: "529 overloaded" });
		await agent.prompt("two");
		expect(agent.state.error).toBeUndefined();
		// The failed turn stays in the history but is not replayed.
		expect(requestRoles(faux.requests[1])).toEqual(["user", "user"]);
	});

	it("notifies listeners after the state reflects the event, until they unsubscribe", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("one"), fauxText("two"));
		const lengthsAtMessageEnd: number[] = [];
		const unsubscribe = agent.subscribe((event) => {
			if (event.type === "message_end") lengthsAtMessageEnd.push(agent.state.messages.length);
		});
		await agent.prompt("first");
		unsubscribe();
		await agent.prompt("second");
		expect(lengthsAtMessageEnd).toEqual([1, 2]);
	});
});

describe("message mutators", () => {
	it("replace the messages array instead of mutating it", () => {
		const { agent } = createHarness();
		const initial = [userMessage("a")];
		agent.replaceMessages(initial);
		const before = agent.state.messages;
		expect(before).not.toBe(initial);
		agent.appendMessage(userMessage("b"));
		expect(before).toHaveLength(1);
		expect(agent.state.messages.map(textOf)).toEqual(["a", "b"]);
		agent.clearMessages();
		expect(agent.state.messages).toEqual([]);
	});
});

describe("reset", () => {
	it("clears the conversation, error and queues but keeps model, tools and system prompt", async () => {
		const tool = createEchoTool();
		const { faux, agent } = createHarness({ tools: [tool] });
		agent.setSystemPrompt("You are terse.");
		agent.setThinkingLevel("high");
		faux.enqueue({ errorMessage: "boom" });
		await agent.prompt("hi");
		agent.steer(userMessage("s"));
		agent.followUp(userMessage("f"));
		const model = agent.state.model;

		agent.reset();
		expect(agent.state).toMatchObject({
			messages: [],
			isStreaming: false,
			streamMessage: null,
			error: undefined,
			systemPrompt: "You are terse.",
			thinkingLevel: "high",
			model,
			tools: [tool],
		});
		expect(agent.state.pendingToolCalls.size).toBe(0);
		expect(agent.hasQueuedMessages()).toBe(false);
	});
});

describe("reset during a run", () => {
	it("keeps the run's lock, so a prompt cannot start alongside it", async () => {
		const gated = createGatedTool();
		const { faux, agent } = createHarness({ tools: [gated.tool] });
		faux.enqueue(fauxToolCall("gated", {}, { id: "a" }), fauxText("done"));
		const run = agent.prompt("go");
		await gated.whenStarted(1);
		agent.reset();
		expect(agent.state.messages).toEqual([]);
		await expect(agent.prompt("another")).rejects.toThrow(PROMPT_WHILE_RUNNING_TEXT);
		gated.release("a");
		await run;
		expect(agent.state.isStreaming).toBe(false);
	});
});

describe("a run that fails outside the model stream", () => {
	it("records a synthetic error message when the stream function throws, with agent_end and no message events", async () => {
		const { agent, events } = createHarness({
			streamFn: () => {
				throw new Error("No API key for provider: faux");
			},
		});
		await agent.prompt("hi");
		const failure = agent.state.messages.at(-1) as AssistantMessage;
		expect(failure).toMatchObject({
			role: "assistant",
			content: [{ type: "text", text: "" }],
			api: "faux",
			provider: "faux",
			model: "faux-1",
			stopReason: "error",
			errorMessage: "No API key for provider: faux",
			usage: { input: 0, output: 0, totalTokens: 0, cost: { total: 0 } },
		});
		expect(agent.state.error).toBe("No API key for provider: faux");
		expect(eventLabels(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"agent_end",
		]);
		expect((events.at(-1) as Extract<AgentEvent, { type: "agent_end" }>).messages).toEqual([failure]);
		expect(agent.state.isStreaming).toBe(false);
	});

	it("records a throwing getApiKey the same way, marked aborted when the run was aborted", async () => {
		const { agent } = createHarness({
			getApiKey: () => {
				agent.abort();
				throw new Error("token refresh failed");
			},
		});
		await agent.prompt("hi");
		expect(agent.state.messages.at(-1)).toMatchObject({
			stopReason: "aborted",
			errorMessage: "token refresh failed",
		});
	});

	it("answers every tool call left open so the next request is valid", async () => {
		const gated = createGatedTool();
		const { faux, agent } = createHarness({ tools: [gated.tool] });
		let thrown = false;
		agent.subscribe((event) => {
			if (event.type === "tool_execution_end" && !thrown) {
				thrown = true;
				throw new Error("renderer crashed");
			}
		});
		faux.enqueue(toolCallsReply("gated", ["a", "b"]), fauxText("recovered"));
		const run = agent.prompt("go");
		await gated.whenStarted(2);
		gated.release("a");
		await run;

		// The loop died reporting call a; b was still running and has been told to stop.
		expect(gated.signals.get("b")?.aborted).toBe(true);
		const messages = agent.state.messages as Message[];
		expect(rolesOf(messages)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
		expect(messages.slice(2, 4).map((m) => [(m as { toolCallId: string }).toolCallId, textOf(m)])).toEqual([
			["a", INTERRUPTED_TOOL_CALL_TEXT],
			["b", INTERRUPTED_TOOL_CALL_TEXT],
		]);
		expect(messages.at(-1)).toMatchObject({ stopReason: "error", errorMessage: "renderer crashed" });

		await agent.prompt("again");
		expect(expectWellPairedToolCalls(faux.requests[1].context.messages)).toEqual({ calls: 2, results: 2 });
	});
});
