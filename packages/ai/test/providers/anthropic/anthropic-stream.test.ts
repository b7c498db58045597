import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { complete, streamSimple } from "../../../src/index.js";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import type { Context, Tool } from "../../../src/types.js";
import {
	anthropicReply,
	blockStop,
	inputJsonDelta,
	messageDelta,
	messageStart,
	messageStop,
	redactedThinkingBlock,
	textBlock,
	thinkingBlock,
	toolUseBlock,
	toolUseStart,
} from "../../helpers/anthropic-sse.js";
import { claudeSonnet4, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect, deltasOf, expectBalancedBlocks, internalFieldsOf } from "../../helpers/stream-events.js";

const server = useFakeServer();
const model = () => claudeSonnet4(server.url);

const context: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };
const options = { apiKey: "sk-ant-api-test" };

describe("streamed text", () => {
	it("emits start, text_start, one text_delta per SSE delta, text_end and done with the joined text", async () => {
		server.enqueue(anthropicReply(textBlock(0, ["Hel", "lo", " world"])));
		const { events, types, result } = await collect(streamAnthropic(model(), context, options));

		expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done"]);
		expect(deltasOf(events, "text_delta")).toEqual(["Hel", "lo", " world"]);
		expect(events.find((e) => e.type === "text_end")).toMatchObject({ contentIndex: 0, content: "Hello world" });
		expect(result.content).toEqual([{ type: "text", text: "Hello world" }]);
		expect(result).toMatchObject({ role: "assistant", api: "anthropic-messages", provider: "anthropic" });
		expect(result.model).toBe("claude-sonnet-4-0");
		expect(result.stopReason).toBe("stop");
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
	});

	it("maps max_tokens to length and keeps the text", async () => {
		server.enqueue(anthropicReply(textBlock(0, ["cut"]), { stopReason: "max_tokens" }));
		const { result, events } = await collect(streamAnthropic(model(), context, options));
		expect(result.stopReason).toBe("length");
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "length" });
	});

	it.each(["pause_turn", "stop_sequence"])("maps %s to stop", async (reason) => {
		server.enqueue(anthropicReply(textBlock(0, ["x"]), { stopReason: reason }));
		const { result } = await collect(streamAnthropic(model(), context, options));
		expect(result.stopReason).toBe("stop");
	});

	it("takes text a proxy puts in content_block_start as the first delta", async () => {
		server.enqueue(
			anthropicReply([
				{
					event: "content_block_start",
					data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "Hello" } },
				},
				...textBlock(0, [" world"]).slice(1),
			]),
		);
		const { events, result } = await collect(streamAnthropic(model(), context, options));
		expect(deltasOf(events, "text_delta")).toEqual(["Hello", " world"]);
		expect(result.content).toEqual([{ type: "text", text: "Hello world" }]);
	});

	it("closes blocks the server never stopped before done", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [
				messageStart(),
				textBlock(0, ["half"])[0],
				textBlock(0, ["half"])[1],
				messageDelta("end_turn"),
				messageStop(),
			],
		});
		const { events, types, result } = await collect(streamAnthropic(model(), context, options));
		expectBalancedBlocks(events);
		expect(types.slice(-2)).toEqual(["text_end", "done"]);
		expect(result.content).toEqual([{ type: "text", text: "half" }]);
	});
});

describe("thinking", () => {
	it("streams thinking deltas and accumulates the signature without emitting events for it", async () => {
		server.enqueue(
			anthropicReply([...thinkingBlock(0, ["Let me ", "think"], ["sig-", "part2"]), ...textBlock(1, ["Answer"])]),
		);
		const { events, types, result } = await collect(streamAnthropic(model(), context, options));

		expect(types).toEqual([
			"start",
			"thinking_start",
			"thinking_delta",
			"thinking_delta",
			"thinking_end",
			"text_start",
			"text_delta",
			"text_end",
			"done",
		]);
		expect(events.find((e) => e.type === "thinking_end")).toMatchObject({ content: "Let me think" });
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "Let me think", thinkingSignature: "sig-part2" },
			{ type: "text", text: "Answer" },
		]);
	});

	it("turns redacted_thinking into a redacted thinking block carrying the payload as its signature", async () => {
		server.enqueue(anthropicReply([...redactedThinkingBlock(0, "ENCRYPTED=="), ...textBlock(1, ["ok"])]));
		const { events, result } = await collect(streamAnthropic(model(), context, options));
		expectBalancedBlocks(events);
		expect(result.content[0]).toEqual({
			type: "thinking",
			thinking: "[Reasoning redacted]",
			thinkingSignature: "ENCRYPTED==",
			redacted: true,
		});
	});
});

describe("tool calls", () => {
	const tools: Tool[] = [
		{
			name: "read",
			description: "Read a file",
			parameters: Type.Object({ path: Type.String() }),
		},
	];

	it("streams several tool calls with arguments split across many chunks, re-parsing after each delta", async () => {
		const first = { path: "src/index.ts", offset: 10, limit: 200 };
		const second = { path: "README.md", note: 'quotes " and \\ backslashes, ünïcödé' };
		server.enqueue(
			anthropicReply(
				[
					...textBlock(0, ["Reading."]),
					...toolUseBlock(1, "toolu_1", "read", first, 2),
					...toolUseBlock(2, "toolu_2", "read", second, 5),
				],
				{ stopReason: "tool_use" },
			),
		);
		const { events, result } = await collect(streamAnthropic(model(), { ...context, tools }, options));

		expectBalancedBlocks(events);
		expect(result.stopReason).toBe("toolUse");
		expect(result.content.slice(1)).toEqual([
			{ type: "toolCall", id: "toolu_1", name: "read", arguments: first },
			{ type: "toolCall", id: "toolu_2", name: "read", arguments: second },
		]);
		const firstDeltas = events.filter((e) => e.type === "toolcall_delta" && e.contentIndex === 1);
		expect(firstDeltas.length).toBe(Math.ceil(JSON.stringify(first).length / 2));
		expect(firstDeltas.map((e) => (e.type === "toolcall_delta" ? e.delta : "")).join("")).toBe(JSON.stringify(first));
		const ends = events.filter((e) => e.type === "toolcall_end");
		expect(ends.map((e) => (e.type === "toolcall_end" ? e.toolCall.arguments : null))).toEqual([first, second]);
		expect(internalFieldsOf(result)).toEqual([]);
	});

	it("exposes partially parsed arguments on the live block while the JSON is still streaming", async () => {
		server.enqueue(
			anthropicReply(
				[
					toolUseStart(0, "toolu_1", "read"),
					inputJsonDelta(0, '{"path": "a.t'),
					inputJsonDelta(0, 'xt"}'),
					blockStop(0),
				],
				{ stopReason: "tool_use" },
			),
		);
		const stream = streamAnthropic(model(), { ...context, tools }, options);
		const snapshots: unknown[] = [];
		for await (const event of stream) {
			if (event.type === "toolcall_delta") {
				const block = event.partial.content[event.contentIndex];
				snapshots.push(block.type === "toolCall" ? structuredClone(block.arguments) : undefined);
			}
		}
		expect(snapshots).toEqual([{ path: "a.t" }, { path: "a.txt" }]);
	});

	it("keeps the keying by server index when blocks interleave", async () => {
		server.enqueue(
			anthropicReply(
				[
					toolUseStart(0, "toolu_a", "read"),
					toolUseStart(1, "toolu_b", "read"),
					inputJsonDelta(1, '{"path":"b"}'),
					inputJsonDelta(0, '{"path":"a"}'),
					blockStop(1),
					blockStop(0),
				],
				{ stopReason: "tool_use" },
			),
		);
		const { events, result } = await collect(streamAnthropic(model(), { ...context, tools }, options));
		expectBalancedBlocks(events);
		expect(result.content).toEqual([
			{ type: "toolCall", id: "toolu_a", name: "read", arguments: { path: "a" } },
			{ type: "toolCall", id: "toolu_b", name: "read", arguments: { path: "b" } },
		]);
	});
});

describe("usage and cost", () => {
	it("takes input and cache counts from message_start, output from message_delta, and prices each part", async () => {
		server.enqueue(
			anthropicReply(textBlock(0, ["hi"]), {
				start: {
					input_tokens: 1000,
					output_tokens: 1,
					cache_read_input_tokens: 20_000,
					cache_creation_input_tokens: 4000,
				},
				end: { output_tokens: 500 },
			}),
		);
		const { result } = await collect(streamAnthropic(model(), context, options));
		expect(result.usage).toMatchObject({
			input: 1000,
			output: 500,
			cacheRead: 20_000,
			cacheWrite: 4000,
			totalTokens: 25_500,
		});
		// $3 / $15 / $0.3 / $3.75 per million tokens.
		expect(result.usage.cost.input).toBeCloseTo(0.003, 10);
		expect(result.usage.cost.output).toBeCloseTo(0.0075, 10);
		expect(result.usage.cost.cacheRead).toBeCloseTo(0.006, 10);
		expect(result.usage.cost.cacheWrite).toBeCloseTo(0.015, 10);
		expect(result.usage.cost.total).toBeCloseTo(0.0315, 10);
	});

	it("keeps input from message_start when a proxy sends null counts in message_delta", async () => {
		server.enqueue(
			anthropicReply(textBlock(0, ["hi"]), {
				start: { input_tokens: 42, output_tokens: 1 },
				end: { input_tokens: null, output_tokens: 7, cache_read_input_tokens: null },
			}),
		);
		const { result } = await collect(streamAnthropic(model(), context, options));
		expect(result.usage).toMatchObject({ input: 42, output: 7, cacheRead: 0, totalTokens: 49 });
	});

	it("updates usage and cost on the live message as soon as message_start arrives", async () => {
		server.enqueue(anthropicReply(textBlock(0, ["hi"]), { start: { input_tokens: 1_000_000, output_tokens: 0 } }));
		const stream = streamAnthropic(model(), context, options);
		let costAtFirstText: number | undefined;
		for await (const event of stream) {
			if (event.type === "text_start") costAtFirstText = event.partial.usage.cost.input;
		}
		expect(costAtFirstText).toBeCloseTo(3, 10);
	});
});

describe("through the public call surface", () => {
	it("stream() reaches the lazily loaded adapter; streamSimple() takes the key from the environment", async () => {
		const saved = { oauth: process.env.ANTHROPIC_OAUTH_TOKEN, key: process.env.ANTHROPIC_API_KEY };
		delete process.env.ANTHROPIC_OAUTH_TOKEN;
		process.env.ANTHROPIC_API_KEY = "sk-ant-from-env";
		try {
			server.enqueue(anthropicReply(textBlock(0, ["via stream"])));
			const direct = await complete(model(), context, options);
			expect(direct.content).toEqual([{ type: "text", text: "via stream" }]);

			server.enqueue(anthropicReply(textBlock(0, ["via simple"])));
			const { result } = await collect(streamSimple(model(), context));
			expect(result.content).toEqual([{ type: "text", text: "via simple" }]);
			expect(server.lastRequest?.headers["x-api-key"]).toBe("sk-ant-from-env");
		} finally {
			if (saved.oauth !== undefined) process.env.ANTHROPIC_OAUTH_TOKEN = saved.oauth;
			if (saved.key === undefined) delete process.env.ANTHROPIC_API_KEY;
			else process.env.ANTHROPIC_API_KEY = saved.key;
		}
	});
});
