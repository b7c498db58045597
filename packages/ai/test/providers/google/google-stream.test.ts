import { describe, expect, it } from "vitest";
import { complete, streamSimple } from "../../../src/index.js";
import { streamGoogle } from "../../../src/providers/google/index.js";
import type { Context } from "../../../src/types.js";
import { geminiChunk, geminiReply, geminiTextChunks } from "../../helpers/google-sse.js";
import { gemini25Pro, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect, deltasOf, expectBalancedBlocks, internalFieldsOf } from "../../helpers/stream-events.js";

const server = useFakeServer();
const model = () => gemini25Pro(`${server.url}/v1beta`);

const context: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };
const options = { apiKey: "gemini-key" };

describe("streamed text", () => {
	it("emits start, one text block with a delta per chunk, and done", async () => {
		server.enqueue(geminiReply(geminiTextChunks(["Hel", "lo", " world"])));
		const { events, types, result } = await collect(streamGoogle(model(), context, options));
		expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done"]);
		expect(deltasOf(events, "text_delta")).toEqual(["Hel", "lo", " world"]);
		expect(events.find((e) => e.type === "text_end")).toMatchObject({ contentIndex: 0, content: "Hello world" });
		expect(result.content).toEqual([{ type: "text", text: "Hello world" }]);
		expect(result).toMatchObject({ api: "google-generative-ai", provider: "google", model: "gemini-2.5-pro" });
		expect(result.stopReason).toBe("stop");
	});

	it("maps MAX_TOKENS to length", async () => {
		server.enqueue(geminiReply(geminiTextChunks(["cut"], { finishReason: "MAX_TOKENS" })));
		const { result, events } = await collect(streamGoogle(model(), context, options));
		expect(result.stopReason).toBe("length");
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "length" });
	});

	it("ignores empty parts without a signature and keeps streaming the open block", async () => {
		server.enqueue(
			geminiReply([
				geminiChunk([{ text: "a" }]),
				geminiChunk([{ text: "" }]),
				geminiChunk([{ text: "b" }], { finishReason: "STOP" }),
			]),
		);
		const { types, result } = await collect(streamGoogle(model(), context, options));
		expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "text_end", "done"]);
		expect(result.content).toEqual([{ type: "text", text: "ab" }]);
	});
});

describe("thinking", () => {
	it("treats thought parts as thinking, switches blocks on a change of kind and keeps the last signature", async () => {
		server.enqueue(
			geminiReply([
				geminiChunk([{ text: "Let me ", thought: true }]),
				geminiChunk([{ text: "think", thought: true, thoughtSignature: "c2lnMQ==" }]),
				geminiChunk([{ text: "", thought: true, thoughtSignature: "c2lnMg==" }]),
				geminiChunk([{ text: "Answer", thoughtSignature: "dGV4dA==" }]),
				geminiChunk([{ text: " done" }], { finishReason: "STOP" }),
			]),
		);
		const { events, types, result } = await collect(streamGoogle(model(), context, options));
		expectBalancedBlocks(events);
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
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "Let me think", thinkingSignature: "c2lnMg==" },
			{ type: "text", text: "Answer done", textSignature: "dGV4dA==" },
		]);
	});

	it("does not take a part with a signature but no thought flag for thinking", async () => {
		server.enqueue(
			geminiReply([geminiChunk([{ text: "plain", thoughtSignature: "c2ln" }], { finishReason: "STOP" })]),
		);
		const { result } = await collect(streamGoogle(model(), context, options));
		expect(result.content).toEqual([{ type: "text", text: "plain", textSignature: "c2ln" }]);
	});

	it("alternating kinds open a new block each time", async () => {
		server.enqueue(
			geminiReply([
				geminiChunk([{ text: "t1", thought: true }, { text: "x1" }]),
				geminiChunk([{ text: "t2", thought: true }, { text: "x2" }], { finishReason: "STOP" }),
			]),
		);
		const { events, result } = await collect(streamGoogle(model(), context, options));
		expectBalancedBlocks(events);
		expect(result.content.map((b) => b.type)).toEqual(["thinking", "text", "thinking", "text"]);
	});
});

describe("function calls", () => {
	it("emits start, one delta with the whole arguments, and end for each call, and ends with toolUse", async () => {
		server.enqueue(
			geminiReply([
				geminiChunk([{ text: "Reading both." }]),
				geminiChunk([
					{ functionCall: { name: "read", args: { path: "a.ts" } }, thoughtSignature: "Y2FsbA==" },
					{ functionCall: { name: "read", args: { path: "b.ts", limit: 5 } } },
				]),
				geminiChunk([], { finishReason: "STOP" }),
			]),
		);
		const { events, types, result } = await collect(streamGoogle(model(), context, options));
		expectBalancedBlocks(events);
		expect(types).toEqual([
			"start",
			"text_start",
			"text_delta",
			"text_end",
			"toolcall_start",
			"toolcall_delta",
			"toolcall_end",
			"toolcall_start",
			"toolcall_delta",
			"toolcall_end",
			"done",
		]);
		expect(deltasOf(events, "toolcall_delta")).toEqual(['{"path":"a.ts"}', '{"path":"b.ts","limit":5}']);
		expect(result.stopReason).toBe("toolUse");
		const calls = result.content.filter((b) => b.type === "toolCall");
		expect(calls).toMatchObject([
			{ name: "read", arguments: { path: "a.ts" }, thoughtSignature: "Y2FsbA==" },
			{ name: "read", arguments: { path: "b.ts", limit: 5 } },
		]);
		expect(calls[1]).not.toHaveProperty("thoughtSignature");
		expect(internalFieldsOf(result)).toEqual([]);
	});

	it("generates an id for a call without one and replaces a duplicate id, keeping a unique one", async () => {
		server.enqueue(
			geminiReply([
				geminiChunk([
					{ functionCall: { name: "read", args: {} } },
					{ functionCall: { name: "bash", args: {}, id: "call_1" } },
					{ functionCall: { name: "bash", args: {}, id: "call_1" } },
				]),
				geminiChunk([], { finishReason: "STOP" }),
			]),
		);
		const { result } = await collect(streamGoogle(model(), context, options));
		const ids = result.content.map((b) => (b.type === "toolCall" ? b.id : ""));
		expect(ids[0]).toMatch(/^read_\d+_\d+$/);
		expect(ids[1]).toBe("call_1");
		expect(ids[2]).toMatch(/^bash_\d+_\d+$/);
		expect(new Set(ids).size).toBe(3);
	});

	it("keeps MAX_TOKENS as length even when the reply has calls", async () => {
		server.enqueue(
			geminiReply([geminiChunk([{ functionCall: { name: "read", args: {} } }], { finishReason: "MAX_TOKENS" })]),
		);
		const { result } = await collect(streamGoogle(model(), context, options));
		expect(result.stopReason).toBe("length");
	});
});

describe("finish reasons that are errors", () => {
	it.each(["SAFETY", "RECITATION", "MALFORMED_FUNCTION_CALL", "OTHER"])(
		"%s ends in an error naming it, keeping the partial content",
		async (reason) => {
			server.enqueue(geminiReply([geminiChunk([{ text: "partial" }]), geminiChunk([], { finishReason: reason })]));
			const { events, result } = await collect(streamGoogle(model(), context, options));
			expect(events.at(-1)).toMatchObject({ type: "error", reason: "error" });
			expect(result.stopReason).toBe("error");
			expect(result.errorMessage).toBe(`An unknown error occurred (finish reason: ${reason})`);
			expect(result.content).toEqual([{ type: "text", text: "partial" }]);
		},
	);

	it("a blocked prompt (no candidates) ends in an error naming the block reason", async () => {
		server.enqueue(
			geminiReply([
				{ data: { promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 5 } } },
			]),
		);
		const { result } = await collect(streamGoogle(model(), context, options));
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("Prompt blocked: PROHIBITED_CONTENT");
	});
});

describe("usage and cost", () => {
	it("counts thoughts as output, cached tokens as cacheRead, the rest of the prompt as input, and prices each part", async () => {
		server.enqueue(
			geminiReply(
				geminiTextChunks(["a", "b"], {
					usage: {
						promptTokenCount: 10_000,
						cachedContentTokenCount: 8000,
						candidatesTokenCount: 300,
						thoughtsTokenCount: 700,
						totalTokenCount: 11_000,
					},
				}),
			),
		);
		const { result } = await collect(streamGoogle(model(), context, options));
		expect(result.usage).toMatchObject({
			input: 2000,
			output: 1000,
			cacheRead: 8000,
			cacheWrite: 0,
			totalTokens: 11_000,
		});
		// $1.25 / $10 / $0.31 per million tokens.
		expect(result.usage.cost.input).toBeCloseTo(0.0025, 10);
		expect(result.usage.cost.output).toBeCloseTo(0.01, 10);
		expect(result.usage.cost.cacheRead).toBeCloseTo(0.00248, 10);
		expect(result.usage.cost.total).toBeCloseTo(0.01498, 10);
	});

	it("takes the latest cumulative usage when several chunks carry it", async () => {
		server.enqueue(
			geminiReply([
				geminiChunk([{ text: "a" }], {
					usage: { promptTokenCount: 50, candidatesTokenCount: 1, totalTokenCount: 51 },
				}),
				geminiChunk([{ text: "b" }], {
					finishReason: "STOP",
					usage: { promptTokenCount: 50, candidatesTokenCount: 9, totalTokenCount: 59 },
				}),
			]),
		);
		const { result } = await collect(streamGoogle(model(), context, options));
		expect(result.usage).toMatchObject({ input: 50, output: 9, cacheRead: 0, totalTokens: 59 });
	});
});

describe("through the public call surface", () => {
	it("stream() reaches the lazily loaded adapter; streamSimple() takes the key from the environment", async () => {
		const saved = process.env.GEMINI_API_KEY;
		process.env.GEMINI_API_KEY = "gemini-from-env";
		try {
			server.enqueue(geminiReply(geminiTextChunks(["via stream"])));
			const direct = await complete(model(), context, options);
			expect(direct.content).toEqual([{ type: "text", text: "via stream" }]);

			server.enqueue(geminiReply(geminiTextChunks(["via simple"])));
			const { result } = await collect(streamSimple(model(), context));
			expect(result.content).toEqual([{ type: "text", text: "via simple" }]);
			expect(server.lastRequest?.headers["x-goog-api-key"]).toBe("gemini-from-env");
		} finally {
			if (saved === undefined) delete process.env.GEMINI_API_KEY;
			else process.env.GEMINI_API_KEY = saved;
		}
	});
});
