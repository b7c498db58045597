import {
	type AgentEvent,
	type AgentMessage,
	agentLoop,
	agentLoopContinue,
	defaultConvertToLlm,
	runAgentLoop,
	runAgentLoopContinue,
} from "@agent/agent-core";
import { type AssistantMessage, FauxProvider, fauxText, fauxToolCall } from "@agent/ai";
import { describe, expect, it } from "vitest";
import {
	createEchoTool,
	createGatedTool,
	createHarness,
	eventLabels,
	textOf,
	toolCallsReply,
	userMessage,
} from "./helpers/harness.js";

const threeCalls = (name: string) => toolCallsReply(name, ["a", "b", "c"], (id) => ({ label: id }));

describe("text-only prompt", () => {
	it("emits agent_start, one turn with the prompt and the reply, then agent_end", async () => {
		const { faux, agent, events } = createHarness();
		faux.enqueue(fauxText("Hello"));
		await agent.prompt("Hi");
		expect(eventLabels(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		const end = events.at(-1) as Extract<AgentEvent, { type: "agent_end" }>;
		expect(end.messages.map((m) => (m as AssistantMessage).role)).toEqual(["user", "assistant"]);
		expect(textOf(agent.state.messages[1])).toBe("Hello");
	});

	it("streams the reply as message_update events carrying copies of the growing partial", async () => {
		const { faux, agent, events } = createHarness();
		faux.enqueue(fauxText("one two three four five", { chunkSize: 5 }));
		const streamTexts: string[] = [];
		agent.subscribe((event) => {
			if (event.type === "message_update") streamTexts.push(textOf(agent.state.streamMessage ?? undefined));
		});
		await agent.prompt("Count");

		const updates = events.filter((e) => e.type === "message_update");
		const deltas = updates.filter((e) => e.assistantMessageEvent.type === "text_delta");
		expect(deltas.length).toBe(5);
		expect(updates[0].assistantMessageEvent.type).toBe("text_start");
		expect(updates.at(-1)?.assistantMessageEvent.type).toBe("text_end");
		expect(streamTexts.at(-1)).toBe("one two three four five");
		// Each update's message is a shallow copy, never the live partial nor the final message.
		const final = events.findLast((e) => e.type === "message_end");
		expect(final?.type === "message_end" && final.message.role).toBe("assistant");
		expect(new Set(updates.map((e) => e.message)).size).toBe(updates.length);
		expect(updates.every((e) => final?.type === "message_end" && e.message !== final.message)).toBe(true);
		expect(agent.state.streamMessage).toBeNull();
	});
});

describe("single tool call", () => {
	it("runs the tool between two turns and reports start, end and the result message in order", async () => {
		const { faux, agent, events } = createHarness({ tools: [createEchoTool()] });
		faux.enqueue(fauxToolCall("echo", { x: 1 }, { id: "call_1" }), fauxText("Done"));
		await agent.prompt("Use echo");
		expect(eventLabels(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"tool_execution_start:call_1",
			"tool_execution_end:call_1",
			"message_start:toolResult:call_1",
			"message_end:toolResult:call_1",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		const firstTurnEnd = events.find((e) => e.type === "turn_end");
		expect(firstTurnEnd?.type === "turn_end" && firstTurnEnd.toolResults.map((r) => r.toolCallId)).toEqual([
			"call_1",
		]);
		expect(agent.state.messages.map((m) => (m as AssistantMessage).role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
		]);
		expect(faux.requests[1].context.messages.at(-1)).toMatchObject({
			role: "toolResult",
			toolCallId: "call_1",
			content: [{ type: "text", text: 'echo: {"x":1}' }],
			isError: false,
		});
	});

	it("reports the raw arguments in tool_execution_start and the tool's result in tool_execution_end", async () => {
		const { faux, agent, events } = createHarness({ tools: [createEchoTool()] });
		faux.enqueue(fauxToolCall("echo", { x: 1 }, { id: "call_1" }), fauxText("Done"));
		await agent.prompt("Use echo");
		expect(events.find((e) => e.type === "tool_execution_start")).toEqual({
			type: "tool_execution_start",
			toolCallId: "call_1",
			toolName: "echo",
			args: { x: 1 },
		});
		expect(events.find((e) => e.type === "tool_execution_end")).toEqual({
			type: "tool_execution_end",
			toolCallId: "call_1",
			toolName: "echo",
			result: { content: [{ type: "text", text: 'echo: {"x":1}' }], details: {} },
			isError: false,
		});
	});
});

describe("several tool calls", () => {
	it("parallel mode starts every call before any ends, and ends them in source order", async () => {
		const { faux, agent, events } = createHarness({ tools: [createEchoTool()] });
		faux.enqueue(threeCalls("echo"), fauxText("Done"));
		await agent.prompt("Three");
		const toolPhase = eventLabels(events).filter((l) => l.startsWith("tool_") || l.includes("toolResult"));
		expect(toolPhase).toEqual([
			"tool_execution_start:a",
			"tool_execution_start:b",
			"tool_execution_start:c",
			"tool_execution_end:a",
			"message_start:toolResult:a",
			"message_end:toolResult:a",
			"tool_execution_end:b",
			"message_start:toolResult:b",
			"message_end:toolResult:b",
			"tool_execution_end:c",
			"message_start:toolResult:c",
			"message_end:toolResult:c",
		]);
	});

	it("parallel mode runs the calls concurrently", async () => {
		const gated = createGatedTool();
		const { faux, agent } = createHarness({ tools: [gated.tool] });
		faux.enqueue(threeCalls("gated"), fauxText("Done"));
		const run = agent.prompt("Three");
		await gated.whenStarted(3);
		expect(gated.startedIds).toEqual(["a", "b", "c"]);
		for (const id of ["a", "b", "c"]) gated.release(id);
		await run;
	});

	it("sequential mode runs one call at a time: start, end and result before the next start", async () => {
		const gated = createGatedTool();
		const { faux, agent, events } = createHarness({ tools: [gated.tool], toolExecution: "sequential" });
		faux.enqueue(threeCalls("gated"), fauxText("Done"));
		const run = agent.prompt("Three");
		await gated.whenStarted(1);
		expect(gated.startedIds).toEqual(["a"]);
		gated.release("a");
		await gated.whenStarted(2);
		expect(gated.startedIds).toEqual(["a", "b"]);
		gated.release("b");
		await gated.whenStarted(3);
		gated.release("c");
		await run;
		const toolPhase = eventLabels(events).filter((l) => l.startsWith("tool_") || l.includes("toolResult"));
		expect(toolPhase).toEqual(
			["a", "b", "c"].flatMap((id) => [
				`tool_execution_start:${id}`,
				`tool_execution_end:${id}`,
				`message_start:toolResult:${id}`,
				`message_end:toolResult:${id}`,
			]),
		);
	});
});

describe("agentLoop", () => {
	const setup = () => {
		const faux = new FauxProvider();
		const config = { model: faux.model(), convertToLlm: defaultConvertToLlm };
		return { faux, config };
	};

	it("returns a stream that ends with agent_end and whose result is the messages the run added", async () => {
		const { faux, config } = setup();
		faux.enqueue(fauxText("Hi there"));
		const history: AgentMessage[] = [userMessage("earlier")];
		const context = { systemPrompt: "Be brief", messages: history };
		const stream = agentLoop([userMessage("hello")], context, config, undefined, faux.stream);
		const types: string[] = [];
		for await (const event of stream) types.push(event.type);
		const added = await stream.result();
		expect(types[0]).toBe("agent_start");
		expect(types.at(-1)).toBe("agent_end");
		expect(added.map((m) => (m as AssistantMessage).role)).toEqual(["user", "assistant"]);
		expect(history).toHaveLength(1);
		expect(faux.requests[0].context.systemPrompt).toBe("Be brief");
		expect(faux.requests[0].context.messages.map(textOf)).toEqual(["earlier", "hello"]);
	});

	it("runAgentLoop awaits the event sink before going on", async () => {
		const { faux, config } = setup();
		faux.enqueue(fauxText("Hi"));
		const log: string[] = [];
		await runAgentLoop(
			[userMessage("hello")],
			{ systemPrompt: "", messages: [] },
			config,
			async (event) => {
				log.push(event.type);
				if (event.type !== "message_end") return;
				// A sink that finishes only after a macrotask: the loop must not call the model before it.
				await new Promise((resolve) => setImmediate(resolve));
				log.push("sink finished");
			},
			undefined,
			(...args) => {
				log.push("model called");
				return faux.stream(...args);
			},
		);
		expect(log.slice(0, 6)).toEqual([
			"agent_start",
			"turn_start",
			"message_start",
			"message_end",
			"sink finished",
			"model called",
		]);
		expect(log.at(-1)).toBe("agent_end");
	});
});

describe("agentLoopContinue", () => {
	const config = () => {
		const faux = new FauxProvider();
		return { faux, config: { model: faux.model(), convertToLlm: defaultConvertToLlm } };
	};

	it("throws synchronously when the context is empty", () => {
		const { config: c } = config();
		expect(() => agentLoopContinue({ systemPrompt: "", messages: [] }, c)).toThrow(
			"Cannot continue: no messages in context",
		);
	});

	it("throws synchronously when the last message is an assistant message", async () => {
		const { faux, config: c } = config();
		faux.enqueue(fauxText("Hi"));
		const added = await runAgentLoop(
			[userMessage("x")],
			{ systemPrompt: "", messages: [] },
			c,
			() => {},
			undefined,
			faux.stream,
		);
		const context = { systemPrompt: "", messages: added };
		expect(() => agentLoopContinue(context, c)).toThrow("Cannot continue from message role: assistant");
		await expect(runAgentLoopContinue(context, c, () => {})).rejects.toThrow(
			"Cannot continue from message role: assistant",
		);
	});

	it("resumes from a user message without re-emitting it", async () => {
		const { faux, config: c } = config();
		faux.enqueue(fauxText("Resumed"));
		const stream = agentLoopContinue(
			{ systemPrompt: "", messages: [userMessage("pending")] },
			c,
			undefined,
			faux.stream,
		);
		const events: AgentEvent[] = [];
		for await (const event of stream) events.push(event);
		expect(eventLabels(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		expect((await stream.result()).map(textOf)).toEqual(["Resumed"]);
	});
});
