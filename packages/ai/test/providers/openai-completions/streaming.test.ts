import { describe, expect, it } from "vitest";
import { AssistantMessageEventStream, createAssistantOutput, stream } from "../../../src/index.js";
import { CompletionsStreamParser } from "../../../src/providers/openai-completions/parse-stream.js";
import type { WireChunk } from "../../../src/providers/openai-completions/wire-types.js";
import type { Context, ToolCall } from "../../../src/types.js";
import { chunk, DONE, finish, textChunks, toolCallChunks } from "../../helpers/openai-completions-sse.js";
import { openaiTestModel, useFakeServer } from "../../helpers/provider-test-harness.js";
import { splitText } from "../../helpers/split-text.js";
import { collect, deltasOf, expectBalancedBlocks, internalFieldsOf } from "../../helpers/stream-events.js";

const server = useFakeServer();

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const model = () => openaiTestModel("openai-completions", server.url);
const run = (ctx: Context = context, m = model()) => collect(stream(m, ctx, { apiKey: "test-key" }));

describe("streamed text", () => {
	it("emits start, one text block with every delta, and done with reason stop", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [chunk({ role: "assistant", content: "" }), ...textChunks("Hello, world!"), ...finish()],
		});
		const { types, events, result } = await run();
		expect(types[0]).toBe("start");
		expect(types.at(-1)).toBe("done");
		expect(types.filter((t) => t === "text_start")).toHaveLength(1);
		expect(deltasOf(events, "text_delta").join("")).toBe("Hello, world!");
		expect(result.content).toEqual([{ type: "text", text: "Hello, world!" }]);
		expect(result.stopReason).toBe("stop");
		expect(result).toMatchObject({ api: "openai-completions", provider: "test-provider", model: "test-model" });
		expectBalancedBlocks(events);
	});

	it("reports the text in text_end and a done event carrying the final message", async () => {
		server.enqueue({ kind: "sse", chunks: [...textChunks("abc"), ...finish()] });
		const { events, result } = await run();
		const end = events.find((e) => e.type === "text_end");
		expect(end).toMatchObject({ content: "abc", contentIndex: 0 });
		const done = events.at(-1);
		expect(done).toMatchObject({ type: "done", reason: "stop" });
		expect(done?.type === "done" && done.message).toBe(result);
	});

	it("maps finish_reason length to stopReason length", async () => {
		server.enqueue({ kind: "sse", chunks: [...textChunks("cut"), ...finish("length")] });
		const { result, types } = await run();
		expect(result.stopReason).toBe("length");
		expect(types.at(-1)).toBe("done");
	});

	it("treats a refusal delta as text so the user sees why", async () => {
		server.enqueue({ kind: "sse", chunks: [chunk({ refusal: "I can't help with that." }), ...finish()] });
		const { result } = await run();
		expect(result.content).toEqual([{ type: "text", text: "I can't help with that." }]);
	});
});

describe("thinking", () => {
	it.each(["reasoning_content", "reasoning", "reasoning_text"])(
		"streams %s as a thinking block whose signature is the field name",
		async (field) => {
			server.enqueue({
				kind: "sse",
				chunks: [chunk({ [field]: "Let me " }), chunk({ [field]: "think." }), ...textChunks("Answer"), ...finish()],
			});
			const { result, events, types } = await run();
			expect(result.content).toEqual([
				{ type: "thinking", thinking: "Let me think.", thinkingSignature: field },
				{ type: "text", text: "Answer" },
			]);
			expect(types).toEqual([
				"start",
				"thinking_start",
				"thinking_delta",
				"thinking_delta",
				"thinking_end",
				"text_start",
				"text_delta",
				"text_delta",
				"text_end",
				"done",
			]);
			expectBalancedBlocks(events);
		},
	);

	it("takes the first non-empty reasoning field when a server sends several", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [chunk({ reasoning_content: "", reasoning: "plan", reasoning_text: "other" }), ...finish()],
		});
		const { result } = await run();
		expect(result.content).toEqual([{ type: "thinking", thinking: "plan", thinkingSignature: "reasoning" }]);
	});
});

describe("tool calls", () => {
	const argsA = JSON.stringify({ path: "src/index.ts", offset: 10, limit: 200 });
	const argsB = JSON.stringify({ command: "ls -la && echo 'done'" });

	it("assembles arguments split across many chunks and ends with toolUse", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [...toolCallChunks(0, "call_a", "read", argsA, 3), ...finish("tool_calls")],
		});
		const { result, events } = await run();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toEqual([{ type: "toolCall", id: "call_a", name: "read", arguments: JSON.parse(argsA) }]);
		expect(deltasOf(events, "toolcall_delta").join("")).toBe(argsA);
		const end = events.find((e) => e.type === "toolcall_end");
		expect(end?.type === "toolcall_end" && end.toolCall.arguments).toEqual(JSON.parse(argsA));
		expectBalancedBlocks(events);
		expect(internalFieldsOf(result)).toEqual([]);
	});

	it("re-derives partial arguments after every delta", () => {
		// Driven synchronously through the parser: `partial` is the live message, so snapshots must be taken at push time.
		const snapshots: unknown[] = [];
		const recorder = new AssistantMessageEventStream();
		recorder.push = (event) => {
			if (event.type === "toolcall_delta") {
				snapshots.push(structuredClone((event.partial.content[event.contentIndex] as ToolCall).arguments));
			}
		};
		const parser = new CompletionsStreamParser(model(), createAssistantOutput(model()), recorder);
		for (const piece of toolCallChunks(0, "call_a", "read", argsA, 8)) {
			parser.handle((piece as { data: WireChunk }).data);
		}
		expect(snapshots[0]).toEqual({});
		expect(snapshots).toContainEqual({ path: "src/index.ts" });
		expect(snapshots.at(-1)).toEqual(JSON.parse(argsA));
	});

	it("keeps sequential parallel calls apart", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [
				...toolCallChunks(0, "call_a", "read", argsA),
				...toolCallChunks(1, "call_b", "bash", argsB),
				...finish("tool_calls"),
			],
		});
		const { result, events } = await run();
		expect(result.content).toEqual([
			{ type: "toolCall", id: "call_a", name: "read", arguments: JSON.parse(argsA) },
			{ type: "toolCall", id: "call_b", name: "bash", arguments: JSON.parse(argsB) },
		]);
		expectBalancedBlocks(events);
	});

	it("routes interleaved fragments of parallel calls by their index", async () => {
		const a = toolCallChunks(0, "call_a", "read", argsA, 5);
		const b = toolCallChunks(1, "call_b", "bash", argsB, 5);
		const interleaved = [];
		for (let i = 0; i < Math.max(a.length, b.length); i++) {
			if (a[i]) interleaved.push(a[i]);
			if (b[i]) interleaved.push(b[i]);
		}
		server.enqueue({ kind: "sse", chunks: [...interleaved, ...finish("tool_calls")] });
		const { result, events } = await run();
		expect(result.content).toEqual([
			{ type: "toolCall", id: "call_a", name: "read", arguments: JSON.parse(argsA) },
			{ type: "toolCall", id: "call_b", name: "bash", arguments: JSON.parse(argsB) },
		]);
		const deltasFor = (index: number) =>
			events.flatMap((e) => (e.type === "toolcall_delta" && e.contentIndex === index ? [e.delta] : []));
		expect(deltasFor(0).join("")).toBe(argsA);
		expect(deltasFor(1).join("")).toBe(argsB);
		expectBalancedBlocks(events);
	});

	it("starts a new call when a server reuses index 0 with a new id", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [
				...toolCallChunks(0, "call_a", "read", argsA),
				...toolCallChunks(0, "call_b", "bash", argsB),
				...finish("tool_calls"),
			],
		});
		const { result } = await run();
		expect(result.content.map((b) => (b as ToolCall).id)).toEqual(["call_a", "call_b"]);
		expect((result.content[1] as ToolCall).arguments).toEqual(JSON.parse(argsB));
	});

	it("emits a toolcall_delta even for an empty argument fragment", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [
				chunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "ls", arguments: "" } }] }),
				chunk({ tool_calls: [{ index: 0, function: { arguments: "{}" } }] }),
				...finish("tool_calls"),
			],
		});
		const { events, result } = await run();
		expect(deltasOf(events, "toolcall_delta")).toEqual(["", "{}"]);
		expect(result.content).toEqual([{ type: "toolCall", id: "c1", name: "ls", arguments: {} }]);
	});

	it("reports toolUse when a server finishes a tool-call reply with stop", async () => {
		server.enqueue({ kind: "sse", chunks: [...toolCallChunks(0, "c1", "ls", "{}"), ...finish("stop")] });
		expect((await run()).result.stopReason).toBe("toolUse");
	});

	it("closes the text block before a tool call starts", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [...textChunks("Let me look."), ...toolCallChunks(0, "c1", "ls", "{}"), ...finish("tool_calls")],
		});
		const { types, events } = await run();
		expect(types.indexOf("text_end")).toBeLessThan(types.indexOf("toolcall_start"));
		expectBalancedBlocks(events);
	});

	it("keeps an OpenRouter encrypted reasoning detail on the matching call as JSON", async () => {
		const detail = { type: "reasoning.encrypted", id: "call_a", data: "opaque==", format: "anthropic-claude-v1" };
		server.enqueue({
			kind: "sse",
			chunks: [
				chunk({ reasoning_details: [detail, { type: "reasoning.text", text: "x" }] }),
				...toolCallChunks(0, "call_a", "read", argsA),
				...finish("tool_calls"),
			],
		});
		const { result } = await run();
		const call = result.content.find((b) => b.type === "toolCall") as ToolCall;
		expect(JSON.parse(call.thoughtSignature ?? "")).toEqual(detail);
	});
});

describe("tool arguments while streaming", () => {
	const args = JSON.stringify({ path: "a.txt", content: "x".repeat(500) });
	const descriptor = (call: unknown) => Object.getOwnPropertyDescriptor(call, "arguments");

	it("leaves arguments as a plain data property on the final message", async () => {
		server.enqueue({ kind: "sse", chunks: [...toolCallChunks(0, "c1", "write", args), ...finish("tool_calls")] });
		const { result, events } = await run();
		expect(descriptor(result.content[0])).toMatchObject({
			value: JSON.parse(args),
			writable: true,
			enumerable: true,
		});
		const end = events.find((e) => e.type === "toolcall_end");
		expect(end?.type === "toolcall_end" && descriptor(end.toolCall)?.value).toEqual(JSON.parse(args));
	});

	it("leaves plain partial arguments on a message that failed mid-call", async () => {
		server.enqueue({ kind: "sse", chunks: toolCallChunks(0, "c1", "write", args, 50), cutAfter: 3, chunkDelayMs: 1 });
		const { result } = await run();
		expect(result.stopReason).toBe("error");
		const call = result.content[0] as ToolCall;
		expect(descriptor(call)).toHaveProperty("value");
		expect(call.arguments).toMatchObject({ path: "a.txt" });
	});

	it("shows every fragment so far to a reader, including copies made mid-stream", () => {
		const recorder = new AssistantMessageEventStream();
		const copies: unknown[] = [];
		recorder.push = (event) => {
			if (event.type === "toolcall_delta") copies.push(JSON.parse(JSON.stringify(event.partial.content[0])));
		};
		const parser = new CompletionsStreamParser(model(), createAssistantOutput(model()), recorder);
		for (const piece of toolCallChunks(0, "c1", "write", '{"path":"a.txt"}', 4)) {
			parser.handle((piece as { data: WireChunk }).data);
		}
		expect(copies.at(0)).toEqual({ type: "toolCall", id: "c1", name: "write", arguments: {} });
		expect(copies.at(-1)).toEqual({ type: "toolCall", id: "c1", name: "write", arguments: { path: "a.txt" } });
	});
});

describe("usage and cost", () => {
	const pricedModel = () =>
		openaiTestModel("openai-completions", server.url, {
			cost: { input: 2, output: 10, cacheRead: 0.5, cacheWrite: 0 },
		});

	it("subtracts cached tokens from input and prices every component", async () => {
		const usage = {
			prompt_tokens: 1000,
			completion_tokens: 200,
			total_tokens: 1200,
			prompt_tokens_details: { cached_tokens: 400 },
		};
		server.enqueue({ kind: "sse", chunks: [...textChunks("ok"), ...finish("stop", usage)] });
		const { result } = await run(context, pricedModel());
		expect(result.usage).toMatchObject({ input: 600, output: 200, cacheRead: 400, cacheWrite: 0, totalTokens: 1200 });
		expect(result.usage.cost.input).toBeCloseTo((600 * 2) / 1e6);
		expect(result.usage.cost.output).toBeCloseTo((200 * 10) / 1e6);
		expect(result.usage.cost.cacheRead).toBeCloseTo((400 * 0.5) / 1e6);
		expect(result.usage.cost.total).toBeCloseTo((600 * 2 + 200 * 10 + 400 * 0.5) / 1e6);
	});

	it("does not double-count reasoning tokens that completion_tokens already includes (OpenAI)", async () => {
		const usage = {
			prompt_tokens: 100,
			completion_tokens: 500,
			total_tokens: 600,
			completion_tokens_details: { reasoning_tokens: 300 },
		};
		server.enqueue({ kind: "sse", chunks: [...textChunks("ok"), ...finish("stop", usage)] });
		const { result } = await run(context, pricedModel());
		expect(result.usage.output).toBe(500);
		expect(result.usage.totalTokens).toBe(600);
	});

	it("adds reasoning tokens a server reports beside completion_tokens", async () => {
		const usage = {
			prompt_tokens: 100,
			completion_tokens: 50,
			total_tokens: 450,
			completion_tokens_details: { reasoning_tokens: 300 },
		};
		server.enqueue({ kind: "sse", chunks: [...textChunks("ok"), ...finish("stop", usage)] });
		const { result } = await run(context, pricedModel());
		expect(result.usage.output).toBe(350);
		expect(result.usage.totalTokens).toBe(450);
	});

	it("reads usage from the choice when the server puts it there (Moonshot)", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [
				...textChunks("ok"),
				{
					data: {
						choices: [
							{
								index: 0,
								delta: {},
								finish_reason: "stop",
								usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
							},
						],
					},
				},
				DONE,
			],
		});
		const { result } = await run();
		expect(result.usage).toMatchObject({ input: 7, output: 3, totalTokens: 10 });
	});
});

describe("large answers", () => {
	it("streams a long answer in order without losing characters", async () => {
		const text = "0123456789abcdef".repeat(2000);
		server.enqueue({ kind: "sse", chunks: [...splitText(text, 37).map((p) => chunk({ content: p })), ...finish()] });
		const { result } = await run();
		expect(result.content).toEqual([{ type: "text", text }]);
	});
});
