import { describe, expect, it } from "vitest";
import { stream } from "../../../src/index.js";
import type { Context, ThinkingContent, ToolCall } from "../../../src/types.js";
import {
	completed,
	created,
	event,
	functionCallItem,
	messageItem,
	reasoningItem,
	reasoningItemJson,
	responsesReply,
} from "../../helpers/openai-responses-sse.js";
import { openaiTestModel, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect, deltasOf, expectBalancedBlocks, internalFieldsOf } from "../../helpers/stream-events.js";

const server = useFakeServer();

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const model = (overrides = {}) => openaiTestModel("openai-responses", `${server.url}/v1`, overrides);
const run = (options: { serviceTier?: "flex" | "priority" } = {}, m = model()) =>
	collect(stream(m, context, { apiKey: "test-key", ...options }));

describe("streamed text", () => {
	it("emits start, one text block, and done; the text signature records the message id", async () => {
		server.enqueue(responsesReply([created(), ...messageItem(0, "msg_abc", "Hello, world!"), completed()]));
		const { types, events, result } = await run();
		expect(server.lastRequest?.url).toBe("/v1/responses");
		expect(types[0]).toBe("start");
		expect(types.at(-1)).toBe("done");
		expect(deltasOf(events, "text_delta").join("")).toBe("Hello, world!");
		expect(result.content).toEqual([
			{ type: "text", text: "Hello, world!", textSignature: JSON.stringify({ v: 1, id: "msg_abc" }) },
		]);
		expect(result.stopReason).toBe("stop");
		expectBalancedBlocks(events);
	});

	it("keeps the message phase in the text signature", async () => {
		server.enqueue(
			responsesReply([created(), ...messageItem(0, "msg_p", "Working on it", { phase: "commentary" }), completed()]),
		);
		const { result } = await run();
		expect(JSON.parse((result.content[0] as { textSignature: string }).textSignature)).toEqual({
			v: 1,
			id: "msg_p",
			phase: "commentary",
		});
	});

	it("maps an incomplete response to stopReason length", async () => {
		server.enqueue(
			responsesReply([
				created(),
				...messageItem(0, "msg_1", "cut short"),
				completed({ type: "response.incomplete", incompleteReason: "max_output_tokens" }),
			]),
		);
		const { result, types } = await run();
		expect(result.stopReason).toBe("length");
		expect(types.at(-1)).toBe("done");
	});

	it("treats refusal deltas as text", async () => {
		const id = "msg_r";
		server.enqueue(
			responsesReply([
				created(),
				event("response.output_item.added", {
					output_index: 0,
					item: { type: "message", id, role: "assistant", content: [] },
				}),
				event("response.refusal.delta", { item_id: id, output_index: 0, content_index: 0, delta: "I can't" }),
				event("response.output_item.done", {
					output_index: 0,
					item: {
						type: "message",
						id,
						role: "assistant",
						status: "completed",
						content: [{ type: "refusal", refusal: "I can't" }],
					},
				}),
				completed(),
			]),
		);
		const { result } = await run();
		expect(result.content).toMatchObject([{ type: "text", text: "I can't" }]);
	});

	it("ignores hosted-tool items it has no block for", async () => {
		server.enqueue(
			responsesReply([
				created(),
				event("response.output_item.added", {
					output_index: 0,
					item: { type: "web_search_call", id: "ws_1", status: "in_progress" },
				}),
				event("response.output_item.done", {
					output_index: 0,
					item: { type: "web_search_call", id: "ws_1", status: "completed" },
				}),
				...messageItem(1, "msg_1", "found it"),
				completed(),
			]),
		);
		const { result } = await run();
		expect(result.content).toMatchObject([{ type: "text", text: "found it" }]);
	});
});

describe("lax servers", () => {
	it("attributes events without output_index to the item opened last", async () => {
		const strip = (chunk: ReturnType<typeof event>) => {
			if (typeof chunk === "string" || chunk instanceof Uint8Array) return chunk;
			const { output_index: _dropped, ...data } = chunk.data as Record<string, unknown>;
			return { ...chunk, data };
		};
		server.enqueue(
			responsesReply([
				created(),
				...messageItem(0, "msg_1", "Hello there").map(strip),
				event("response.output_item.added", { item: { type: "web_search_call", id: "ws_1" } }),
				event("response.output_item.done", { item: { type: "web_search_call", id: "ws_1" } }),
				...functionCallItem(1, "call_1", "fc_1", "ls", '{"dir":"."}').map(strip),
				completed(),
			]),
		);
		const { result, events } = await run();
		expect(result.content).toMatchObject([
			{ type: "text", text: "Hello there" },
			{ type: "toolCall", id: "call_1|fc_1", arguments: { dir: "." } },
		]);
		expectBalancedBlocks(events);
	});
});

describe("reasoning", () => {
	const fixture = { id: "rs_1", summaries: ["First I look.", "Then I answer."], encrypted: "gAAAAB-encrypted==" };

	it("streams summaries as thinking and keeps the whole reasoning item as the signature", async () => {
		server.enqueue(
			responsesReply([created(), ...reasoningItem(0, fixture), ...messageItem(1, "msg_1", "Answer"), completed()]),
		);
		const { result, events } = await run({}, model({ reasoning: true }));
		const thinking = result.content[0] as ThinkingContent;
		expect(thinking.type).toBe("thinking");
		expect(thinking.thinking).toBe("First I look.\n\nThen I answer.");
		expect(JSON.parse(thinking.thinkingSignature ?? "")).toEqual(reasoningItemJson(fixture));
		expect(deltasOf(events, "thinking_delta").join("")).toBe("First I look.\n\nThen I answer.\n\n");
		const end = events.find((e) => e.type === "thinking_end");
		expect(end).toMatchObject({ content: "First I look.\n\nThen I answer." });
		expect(result.content[1]).toMatchObject({ type: "text", text: "Answer" });
		expectBalancedBlocks(events);
	});

	it("keeps encrypted reasoning with no summary as an empty signed thinking block", async () => {
		server.enqueue(
			responsesReply([
				created(),
				...reasoningItem(0, { id: "rs_2", summaries: [], encrypted: "enc" }),
				...messageItem(1, "m", "x"),
				completed(),
			]),
		);
		const { result } = await run();
		expect(result.content[0]).toEqual({
			type: "thinking",
			thinking: "",
			thinkingSignature: JSON.stringify(reasoningItemJson({ id: "rs_2", summaries: [], encrypted: "enc" })),
		});
	});

	it("streams raw reasoning text from open-weight models served over the Responses API", async () => {
		server.enqueue(
			responsesReply([
				created(),
				event("response.output_item.added", {
					output_index: 0,
					item: { type: "reasoning", id: "rs_3", summary: [] },
				}),
				event("response.reasoning_text.delta", {
					item_id: "rs_3",
					output_index: 0,
					content_index: 0,
					delta: "thinking...",
				}),
				event("response.output_item.done", {
					output_index: 0,
					item: {
						type: "reasoning",
						id: "rs_3",
						summary: [],
						content: [{ type: "reasoning_text", text: "thinking..." }],
					},
				}),
				...messageItem(1, "m", "ok"),
				completed(),
			]),
		);
		const { result } = await run();
		expect(result.content[0]).toMatchObject({ type: "thinking", thinking: "thinking..." });
	});
});

describe("function calls", () => {
	const argsA = JSON.stringify({ path: "README.md", limit: 50 });
	const argsB = JSON.stringify({ command: "npm test -- --run" });

	it("assembles arguments from many deltas, ids as call|item, and ends with toolUse", async () => {
		server.enqueue(
			responsesReply([
				created(),
				...functionCallItem(0, "call_1", "fc_1", "read", argsA, 3),
				...functionCallItem(1, "call_2", "fc_2", "bash", argsB, 3),
				completed(),
			]),
		);
		const { result, events } = await run();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toEqual([
			{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: JSON.parse(argsA) },
			{ type: "toolCall", id: "call_2|fc_2", name: "bash", arguments: JSON.parse(argsB) },
		]);
		const deltasFor = (index: number) =>
			events.flatMap((e) => (e.type === "toolcall_delta" && e.contentIndex === index ? [e.delta] : []));
		expect(deltasFor(0).join("")).toBe(argsA);
		expect(deltasFor(1).join("")).toBe(argsB);
		expectBalancedBlocks(events);
	});

	it("strips every internal field from the final message, tool calls included", async () => {
		server.enqueue(responsesReply([created(), ...functionCallItem(0, "call_1", "fc_1", "read", argsA), completed()]));
		const { result, events } = await run();
		expect(internalFieldsOf(result)).toEqual([]);
		expect(Object.getOwnPropertyDescriptor(result.content[0], "arguments")).toHaveProperty(
			"value",
			JSON.parse(argsA),
		);
		const end = events.find((e) => e.type === "toolcall_end");
		expect(end?.type === "toolcall_end" && Object.keys(end.toolCall).sort()).toEqual([
			"arguments",
			"id",
			"name",
			"type",
		]);
	});

	it("replaces streamed arguments with the final arguments of the done event", async () => {
		server.enqueue(
			responsesReply([
				created(),
				event("response.output_item.added", {
					output_index: 0,
					item: { type: "function_call", id: "fc_9", call_id: "call_9", name: "ls", arguments: "" },
				}),
				event("response.function_call_arguments.delta", { item_id: "fc_9", output_index: 0, delta: '{"pa' }),
				event("response.function_call_arguments.done", {
					item_id: "fc_9",
					output_index: 0,
					arguments: '{"path":"."}',
				}),
				event("response.output_item.done", {
					output_index: 0,
					item: { type: "function_call", id: "fc_9", call_id: "call_9", name: "ls", arguments: '{"path":"."}' },
				}),
				completed(),
			]),
		);
		const { result } = await run();
		expect((result.content[0] as ToolCall).arguments).toEqual({ path: "." });
	});
});

describe("usage and cost", () => {
	const priced = () => model({ cost: { input: 2, output: 10, cacheRead: 0.5, cacheWrite: 0 } });

	it("subtracts cached tokens from input and does not add reasoning tokens to output", async () => {
		server.enqueue(
			responsesReply([
				created(),
				...messageItem(0, "m", "x"),
				completed({ usage: { input: 1000, cached: 300, output: 400, reasoning: 250, total: 1400 } }),
			]),
		);
		const { result } = await run({}, priced());
		expect(result.usage).toMatchObject({ input: 700, output: 400, cacheRead: 300, cacheWrite: 0, totalTokens: 1400 });
		expect(result.usage.cost.total).toBeCloseTo((700 * 2 + 400 * 10 + 300 * 0.5) / 1e6);
	});

	it.each([
		["flex", 0.5],
		["priority", 2],
		["default", 1],
	])("prices the %s service tier at %s times the list price", async (tier, factor) => {
		server.enqueue(
			responsesReply([
				created(),
				...messageItem(0, "m", "x"),
				completed({ usage: { input: 1000, output: 100 }, serviceTier: tier }),
			]),
		);
		const { result } = await run({}, priced());
		const list = (1000 * 2 + 100 * 10) / 1e6;
		expect(result.usage.cost.total).toBeCloseTo(list * factor);
		expect(result.usage.cost.input).toBeCloseTo(((1000 * 2) / 1e6) * factor);
	});

	it("uses the requested tier when the response does not report one", async () => {
		server.enqueue(
			responsesReply([created(), ...messageItem(0, "m", "x"), completed({ usage: { input: 1000, output: 0 } })]),
		);
		const { result } = await run({ serviceTier: "flex" }, priced());
		expect(result.usage.cost.total).toBeCloseTo((1000 * 2 * 0.5) / 1e6);
	});
});
