import type { AgentEvent, AgentTool, AgentToolResult } from "@agent/agent-core";
import { fauxText, fauxToolCall, Type } from "@agent/ai";
import { describe, expect, it, vi } from "vitest";
import {
	createEchoTool,
	createGatedTool,
	createHarness,
	createTool,
	deferred,
	eventLabels,
	expectWellPairedToolCalls,
	textOf,
	toolResultsOf,
} from "./helpers/harness.js";

const readTool = (
	execute = vi.fn(async (_id: string, _params: unknown) => ({
		content: [{ type: "text" as const, text: "file body" }],
		details: {},
	})),
) =>
	createTool({
		name: "read",
		parameters: Type.Object({ path: Type.String(), limit: Type.Optional(Type.Number()) }),
		execute,
	});

describe("argument validation", () => {
	it("answers invalid arguments with the validation message, skips the tool, and lets the model retry", async () => {
		const execute = vi.fn(async (_id: string, _params: unknown) => ({
			content: [{ type: "text" as const, text: "file body" }],
			details: {},
		}));
		const { faux, agent } = createHarness({ tools: [readTool(execute)] });
		faux.enqueue(
			fauxToolCall("read", { file: "a.txt" }, { id: "bad" }),
			fauxToolCall("read", { path: "a.txt" }, { id: "good" }),
			fauxText("The file says: file body"),
		);
		await agent.prompt("Read a.txt");

		const [invalid, valid] = toolResultsOf(agent.state.messages);
		expect(invalid.isError).toBe(true);
		expect(textOf(invalid)).toBe(
			'Validation failed for tool "read":\n  - path: must have required property \'path\'\n\nReceived arguments:\n{\n  "file": "a.txt"\n}',
		);
		expect(execute).toHaveBeenCalledTimes(1);
		expect(execute.mock.calls[0][1]).toEqual({ path: "a.txt" });
		expect(valid).toMatchObject({ toolCallId: "good", isError: false });
		// The model saw its mistake before retrying.
		expect(faux.requests[1].context.messages.at(-1)).toMatchObject({
			role: "toolResult",
			toolCallId: "bad",
			isError: true,
		});
		expect(textOf(agent.state.messages.at(-1))).toBe("The file says: file body");
	});

	it("passes coerced arguments to the tool but reports the raw ones in tool_execution_start", async () => {
		const execute = vi.fn(async (_id: string, _params: unknown) => ({ content: [], details: {} }));
		const { faux, agent, events } = createHarness({ tools: [readTool(execute)] });
		faux.enqueue(fauxToolCall("read", { path: "a.txt", limit: "5" }, { id: "c1" }), fauxText("ok"));
		await agent.prompt("Read");
		expect(execute.mock.calls[0][1]).toEqual({ path: "a.txt", limit: 5 });
		const start = events.find((e) => e.type === "tool_execution_start");
		expect(start?.type === "tool_execution_start" && start.args).toEqual({ path: "a.txt", limit: "5" });
	});
});

describe("unknown tool", () => {
	it("answers with `Tool <name> not found` and the loop continues", async () => {
		const { faux, agent } = createHarness({ tools: [createEchoTool()] });
		faux.enqueue(fauxToolCall("nope", {}, { id: "c1" }), fauxText("Sorry"));
		await agent.prompt("Go");
		const [result] = toolResultsOf(agent.state.messages);
		expect(result).toMatchObject({ toolCallId: "c1", toolName: "nope", isError: true, details: {} });
		expect(textOf(result)).toBe("Tool nope not found");
		expect(faux.requests).toHaveLength(2);
	});
});

describe("a tool that throws", () => {
	it("becomes an error result with the error's message and the loop continues", async () => {
		const tool = createTool({
			name: "fragile",
			execute: async () => {
				throw new Error("ENOENT: file vanished between stat and read");
			},
		});
		const { faux, agent, events } = createHarness({ tools: [tool] });
		faux.enqueue(fauxToolCall("fragile", {}, { id: "c1" }), fauxText("It failed"));
		await agent.prompt("Go");
		const [result] = toolResultsOf(agent.state.messages);
		expect(result).toMatchObject({ isError: true, details: {} });
		expect(textOf(result)).toBe("ENOENT: file vanished between stat and read");
		const end = events.find((e) => e.type === "tool_execution_end");
		expect(end?.type === "tool_execution_end" && end.isError).toBe(true);
		expect(textOf(agent.state.messages.at(-1))).toBe("It failed");
	});

	it("turns a thrown non-Error value into text", async () => {
		const tool = createTool({
			name: "odd",
			execute: () => {
				throw "plain string failure";
			},
		});
		const { faux, agent } = createHarness({ tools: [tool] });
		faux.enqueue(fauxToolCall("odd", {}, { id: "c1" }), fauxText("ok"));
		await agent.prompt("Go");
		expect(textOf(toolResultsOf(agent.state.messages)[0])).toBe("plain string failure");
	});
});

describe("tools returning odd content", () => {
	const oddTool = (value: unknown): AgentTool =>
		createTool({ name: "odd", execute: async () => value as AgentToolResult });

	it.each([
		["a string as content", { content: "just text", details: { n: 1 } }, [{ type: "text", text: "just text" }]],
		["no content", { details: {} }, []],
		["undefined", undefined, []],
		[
			"stray values in the content array",
			{ content: ["line", { type: "text", text: "ok" }, 42], details: {} },
			[
				{ type: "text", text: "line" },
				{ type: "text", text: "ok" },
				{ type: "text", text: "42" },
			],
		],
	])("repairs %s into a block array before it reaches the model", async (_label, value, expected) => {
		const { faux, agent } = createHarness({ tools: [oddTool(value)] });
		faux.enqueue(fauxToolCall("odd", {}, { id: "c1" }), fauxText("ok"));
		await agent.prompt("Go");
		const [result] = toolResultsOf(agent.state.messages);
		expect(result.content).toEqual(expected);
		expect(result.isError).toBe(false);
		expect(faux.requests[1].context.messages.at(-1)).toMatchObject({ role: "toolResult", content: expected });
	});
});

describe("result attribution", () => {
	it("keeps each result on its own call when parallel tools finish in reverse order", async () => {
		const gated = createGatedTool("read");
		const { faux, agent, events } = createHarness({ tools: [gated.tool] });
		faux.enqueue(
			{
				content: ["A", "B", "C"].map((file) => ({
					type: "toolCall" as const,
					id: `call_${file}`,
					name: "read",
					arguments: { label: file },
				})),
			},
			fauxText("Read all three"),
		);
		const run = agent.prompt("Read A, B and C");
		await gated.whenStarted(3);
		const endedIds: string[] = [];
		agent.subscribe((e) => {
			if (e.type === "tool_execution_end") endedIds.push(e.toolCallId);
		});
		gated.release("call_C", "contents of C");
		gated.release("call_B", "contents of B");
		gated.release("call_A", "contents of A");
		await run;

		expect(endedIds).toEqual(["call_A", "call_B", "call_C"]);
		const results = toolResultsOf(agent.state.messages);
		expect(results.map((r) => [r.toolCallId, textOf(r)])).toEqual([
			["call_A", "contents of A"],
			["call_B", "contents of B"],
			["call_C", "contents of C"],
		]);
		const sent = faux.requests[1].context.messages;
		expect(toolResultsOf(sent).map((r) => [r.toolCallId, textOf(r)])).toEqual([
			["call_A", "contents of A"],
			["call_B", "contents of B"],
			["call_C", "contents of C"],
		]);
		expect(expectWellPairedToolCalls(sent)).toEqual({ calls: 3, results: 3 });
		const ends = events.filter(
			(e): e is Extract<AgentEvent, { type: "tool_execution_end" }> => e.type === "tool_execution_end",
		);
		expect(ends.map((e) => [e.toolCallId, textOf(e.result as never)])).toEqual([
			["call_A", "contents of A"],
			["call_B", "contents of B"],
			["call_C", "contents of C"],
		]);
	});

	it("reports immediate errors during preflight, before the results of executed calls", async () => {
		const { faux, agent, events } = createHarness({ tools: [createEchoTool()] });
		faux.enqueue(
			{
				content: [
					{ type: "toolCall", id: "a", name: "echo", arguments: {} },
					{ type: "toolCall", id: "b", name: "missing", arguments: {} },
					{ type: "toolCall", id: "c", name: "echo", arguments: {} },
				],
			},
			fauxText("ok"),
		);
		await agent.prompt("Go");
		expect(eventLabels(events).filter((l) => l.startsWith("tool_execution"))).toEqual([
			"tool_execution_start:a",
			"tool_execution_start:b",
			"tool_execution_end:b",
			"tool_execution_start:c",
			"tool_execution_end:a",
			"tool_execution_end:c",
		]);
		expect(toolResultsOf(agent.state.messages).map((r) => [r.toolCallId, r.isError])).toEqual([
			["b", true],
			["a", false],
			["c", false],
		]);
	});
});

describe("tool updates", () => {
	it("reports each update between the call's start and end, with the raw arguments", async () => {
		const finish = deferred();
		const tool = createTool({
			name: "progress",
			parameters: Type.Object({ steps: Type.Number() }),
			execute: async (_id, _params, _signal, onUpdate) => {
				onUpdate?.({ content: [{ type: "text", text: "50%" }], details: {} });
				onUpdate?.({ content: [{ type: "text", text: "100%" }], details: {} });
				await finish.promise;
				return { content: [{ type: "text", text: "done" }], details: {} };
			},
		});
		const { faux, agent, events } = createHarness({ tools: [tool] });
		faux.enqueue(fauxToolCall("progress", { steps: "2" }, { id: "c1" }), fauxText("ok"));
		const run = agent.prompt("Go");
		finish.resolve();
		await run;
		const labels = eventLabels(events, { updates: true }).filter((l) => l.startsWith("tool_"));
		expect(labels).toEqual([
			"tool_execution_start:c1",
			"tool_execution_update:c1",
			"tool_execution_update:c1",
			"tool_execution_end:c1",
		]);
		const updates = events.filter((e) => e.type === "tool_execution_update");
		expect(updates.map((e) => [e.args, textOf(e.partialResult as never)])).toEqual([
			[{ steps: "2" }, "50%"],
			[{ steps: "2" }, "100%"],
		]);
	});

	it("drops an update that arrives after the tool finished", async () => {
		let lateUpdate: (() => void) | undefined;
		const tool = createTool({
			name: "leaky",
			execute: async (_id, _params, _signal, onUpdate) => {
				lateUpdate = () => onUpdate?.({ content: [{ type: "text", text: "late" }], details: {} });
				return { content: [{ type: "text", text: "done" }], details: {} };
			},
		});
		const { faux, agent, events } = createHarness({ tools: [tool] });
		faux.enqueue(fauxToolCall("leaky", {}, { id: "c1" }), fauxText("ok"));
		await agent.prompt("Go");
		lateUpdate?.();
		expect(events.some((e) => e.type === "tool_execution_update")).toBe(false);
	});
});

describe("beforeToolCall", () => {
	it("blocks a call with the hook's reason, or the default text, without running the tool", async () => {
		const execute = vi.fn(async (_id: string, _params: unknown) => ({ content: [], details: {} }));
		const beforeToolCall = vi.fn(async ({ toolCall }: { toolCall: { id: string } }) =>
			toolCall.id === "a" ? { block: true, reason: "Writes outside the project are not allowed" } : { block: true },
		);
		const { faux, agent } = createHarness({ tools: [readTool(execute)], beforeToolCall });
		faux.enqueue(
			{
				content: [
					{ type: "toolCall", id: "a", name: "read", arguments: { path: "/etc/passwd" } },
					{ type: "toolCall", id: "b", name: "read", arguments: { path: "x" } },
				],
			},
			fauxText("ok"),
		);
		await agent.prompt("Go");
		expect(execute).not.toHaveBeenCalled();
		expect(toolResultsOf(agent.state.messages).map((r) => [textOf(r), r.isError])).toEqual([
			["Writes outside the project are not allowed", true],
			["Tool execution was blocked", true],
		]);
	});

	it("receives the validated arguments, the assistant message and the context; a throw becomes an error result", async () => {
		const execute = vi.fn(async (_id: string, _params: unknown) => ({ content: [], details: {} }));
		const seen: unknown[] = [];
		const { faux, agent } = createHarness({
			tools: [readTool(execute)],
			beforeToolCall: async (ctx) => {
				seen.push(ctx.args, ctx.assistantMessage.role, ctx.context.messages.at(-1) === ctx.assistantMessage);
				throw new Error("policy service unavailable");
			},
		});
		faux.enqueue(fauxToolCall("read", { path: "a", limit: "3" }, { id: "c1" }), fauxText("ok"));
		await agent.prompt("Go");
		expect(seen).toEqual([{ path: "a", limit: 3 }, "assistant", true]);
		expect(execute).not.toHaveBeenCalled();
		expect(textOf(toolResultsOf(agent.state.messages)[0])).toBe("policy service unavailable");
	});
});

describe("afterToolCall", () => {
	it("replaces only the fields it returns", async () => {
		const tool = createTool({
			name: "t",
			execute: async () => ({ content: [{ type: "text", text: "original" }], details: { kept: true } }),
		});
		const { faux, agent } = createHarness({
			tools: [tool],
			afterToolCall: async ({ result, isError }) => {
				expect([textOf(result as never), isError]).toEqual(["original", false]);
				return { content: [{ type: "text", text: "rewritten" }], isError: true };
			},
		});
		faux.enqueue(fauxToolCall("t", {}, { id: "c1" }), fauxText("ok"));
		await agent.prompt("Go");
		const [result] = toolResultsOf(agent.state.messages);
		expect(result).toMatchObject({
			content: [{ type: "text", text: "rewritten" }],
			details: { kept: true },
			isError: true,
		});
	});

	it("answers the call with the hook's error when the hook throws, and the run goes on", async () => {
		const { faux, agent } = createHarness({
			tools: [createEchoTool()],
			afterToolCall: async () => {
				throw new Error("audit log unavailable");
			},
		});
		faux.enqueue(fauxToolCall("echo", {}, { id: "c1" }), fauxText("ok"));
		await agent.prompt("Go");
		const [result] = toolResultsOf(agent.state.messages);
		expect([textOf(result), result.isError]).toEqual(["audit log unavailable", true]);
		expect(textOf(agent.state.messages.at(-1))).toBe("ok");
	});
});
