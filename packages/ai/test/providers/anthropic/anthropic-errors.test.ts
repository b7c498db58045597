import { describe, expect, it } from "vitest";
import { streamAnthropic, streamSimpleAnthropic } from "../../../src/providers/anthropic/index.js";
import type { AssistantMessageEvent, Context } from "../../../src/types.js";
import { isContextOverflow } from "../../../src/utils/overflow.js";
import {
	anthropicHttpError,
	anthropicReply,
	inputJsonDelta,
	messageStart,
	streamError,
	textBlock,
	toolUseStart,
} from "../../helpers/anthropic-sse.js";
import { claudeSonnet4, expectNoUnhandledRejections, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect, collectAbortingWhen, internalFieldsOf } from "../../helpers/stream-events.js";

expectNoUnhandledRejections();
const server = useFakeServer();
const model = () => claudeSonnet4(server.url);

const context: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };
const options = { apiKey: "sk-ant-api-test" };

function errorEvent(events: AssistantMessageEvent[]) {
	const last = events.at(-1);
	if (last?.type !== "error") throw new Error(`expected a terminal error event, got ${last?.type}`);
	return last;
}

describe("HTTP errors", () => {
	it.each([
		[429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"],
		[500, "api_error", "Internal server error"],
		[529, "overloaded_error", "Overloaded"],
		[401, "authentication_error", "invalid x-api-key"],
	])(
		"a %i ends in one error event with the status and the provider's text, after a single request",
		async (status, type, text) => {
			const before = server.requests.length;
			server.enqueue(anthropicHttpError(status, type, text));
			const { events, types, result } = await collect(streamAnthropic(model(), context, options));

			expect(types).toEqual(["error"]);
			expect(errorEvent(events).reason).toBe("error");
			expect(result.stopReason).toBe("error");
			expect(result.errorMessage).toContain(`${status} `);
			expect(result.errorMessage).toContain(type);
			expect(result.errorMessage).toContain(text);
			expect(result.content).toEqual([]);
			// SDK retries are off: the caller's retry policy sees every failure.
			expect(server.requests.length - before).toBe(1);
			expect(isContextOverflow(result)).toBe(false);
		},
	);

	it("keeps a non-JSON error body's text", async () => {
		server.enqueue({
			kind: "raw",
			status: 502,
			body: "upstream connect error",
			headers: { "content-type": "text/plain" },
		});
		const { result } = await collect(streamAnthropic(model(), context, options));
		expect(result.errorMessage).toBe("502 upstream connect error");
	});

	it("reports 'prompt is too long' so isContextOverflow recognises it", async () => {
		server.enqueue(
			anthropicHttpError(400, "invalid_request_error", "prompt is too long: 213462 tokens > 200000 maximum"),
		);
		const { result } = await collect(streamAnthropic(model(), context, options));
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("prompt is too long: 213462 tokens > 200000 maximum");
		expect(isContextOverflow(result)).toBe(true);
	});
});

describe("server wait hints", () => {
	it("appends the retry-after header to a 429 as ' (retry after <N>s)'", async () => {
		server.enqueue({
			...anthropicHttpError(429, "rate_limit_error", "Rate limited"),
			headers: { "retry-after": "17" },
		});
		const { result } = await collect(streamAnthropic(model(), context, options));
		expect(result.errorMessage).toMatch(/^429 .*Rate limited.* \(retry after 17s\)$/);
	});
});

describe("errors inside the stream", () => {
	it("an overloaded error event after content keeps the partial text and reports the provider's error", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [
				messageStart(),
				...textBlock(0, ["partial"]).slice(0, 2),
				streamError("overloaded_error", "Overloaded"),
			],
		});
		const { types, result } = await collect(streamAnthropic(model(), context, options));
		expect(types).toEqual(["start", "text_start", "text_delta", "error"]);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("overloaded_error");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("a connection cut mid-stream ends in an error that names the dropped connection, keeping partial content", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [messageStart(), ...textBlock(0, ["partial", " more", " never"])],
			cutAfter: 3,
			// Pacing lets the written chunks leave the server before the socket is destroyed.
			chunkDelayMs: 1,
		});
		const { types, result } = await collect(streamAnthropic(model(), context, options));
		expect(types).toEqual(["start", "text_start", "text_delta", "error"]);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/terminated|other side closed/);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("a connection dropped before any response ends in a connection error", async () => {
		server.enqueue({ kind: "destroy" });
		const { types, result } = await collect(streamAnthropic(model(), context, options));
		expect(types).toEqual(["error"]);
		expect(result.errorMessage).toMatch(/Connection error/);
		expect(result.errorMessage).toMatch(/other side closed|fetch failed/);
	});

	it("a malformed SSE data line ends in an error that says the stream was malformed", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [messageStart(), "event: content_block_start\ndata: {not json\n\n", ...textBlock(0, ["never"])],
		});
		const { types, result } = await collect(streamAnthropic(model(), context, options));
		expect(types).toEqual(["start", "error"]);
		expect(result.errorMessage).toMatch(/^Malformed event in the provider's stream: /);
	});

	it("strips streaming bookkeeping from a tool call cut off mid-arguments", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [messageStart(), toolUseStart(0, "toolu_1", "read"), inputJsonDelta(0, '{"path":"a'), "garbage"],
			cutAfter: 3,
			chunkDelayMs: 1,
		});
		const { result } = await collect(streamAnthropic(model(), context, options));
		expect(result.stopReason).toBe("error");
		// The partial arguments are kept for display; the call is marked as never to be run.
		expect(result.content).toEqual([
			{
				type: "toolCall",
				id: "toolu_1",
				name: "read",
				arguments: { path: "a" },
				invalidArguments: "the reply ended before this call's arguments were complete",
			},
		]);
		expect(internalFieldsOf(result)).toEqual([]);
	});

	it.each(["refusal", "sensitive"])("stop reason %s ends in an error naming it", async (reason) => {
		server.enqueue(anthropicReply(textBlock(0, ["I can't"]), { stopReason: reason }));
		const { events, result } = await collect(streamAnthropic(model(), context, options));
		expect(errorEvent(events).reason).toBe("error");
		expect(result.errorMessage).toBe(`An unknown error occurred (stop reason: ${reason})`);
		expect(result.content).toEqual([{ type: "text", text: "I can't" }]);
	});

	it("an unknown stop reason ends in an error naming it; the context-window one counts as overflow", async () => {
		server.enqueue(anthropicReply(textBlock(0, ["long"]), { stopReason: "model_context_window_exceeded" }));
		const { result } = await collect(streamAnthropic(model(), context, options));
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("Unhandled stop reason: model_context_window_exceeded");
		expect(isContextOverflow(result)).toBe(true);
	});
});

describe("abort", () => {
	it("aborting mid-stream ends with stopReason aborted and keeps the partial content", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [messageStart(), ...textBlock(0, ["partial"]).slice(0, 2)],
			holdOpen: true,
		});
		const controller = new AbortController();
		const { types, result } = await collectAbortingWhen(
			streamAnthropic(model(), context, { ...options, signal: controller.signal }),
			controller,
			(event) => event.type === "text_delta",
		);
		expect(types).toEqual(["start", "text_start", "text_delta", "error"]);
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("aborting while waiting for the response ends with aborted and no start event", async () => {
		const requestArrived = server.enqueueHang();
		const controller = new AbortController();
		const stream = streamAnthropic(model(), context, { ...options, signal: controller.signal });
		await requestArrived;
		controller.abort();
		const { types, result } = await collect(stream);
		expect(types).toEqual(["error"]);
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
	});

	it("an already aborted signal ends with aborted without sending a request", async () => {
		const before = server.requests.length;
		const { result } = await collect(streamAnthropic(model(), context, { ...options, signal: AbortSignal.abort() }));
		expect(result.stopReason).toBe("aborted");
		expect(server.requests.length).toBe(before);
	});
});

describe("missing credentials", () => {
	it("stream without a key ends in an error event instead of throwing", async () => {
		const saved = { oauth: process.env.ANTHROPIC_OAUTH_TOKEN, key: process.env.ANTHROPIC_API_KEY };
		delete process.env.ANTHROPIC_OAUTH_TOKEN;
		delete process.env.ANTHROPIC_API_KEY;
		try {
			const { types, result } = await collect(streamAnthropic(model(), context));
			expect(types).toEqual(["error"]);
			expect(result.errorMessage).toBe("No API key for provider: anthropic");
			const simple = await collect(streamSimpleAnthropic(model(), context));
			expect(simple.result.errorMessage).toBe("No API key for provider: anthropic");
		} finally {
			if (saved.oauth !== undefined) process.env.ANTHROPIC_OAUTH_TOKEN = saved.oauth;
			if (saved.key !== undefined) process.env.ANTHROPIC_API_KEY = saved.key;
		}
	});

	it("onPayload throwing ends in an error event", async () => {
		const { types, result } = await collect(
			streamAnthropic(model(), context, {
				...options,
				onPayload: () => {
					throw new Error("payload rejected");
				},
			}),
		);
		expect(types).toEqual(["error"]);
		expect(result.errorMessage).toBe("payload rejected");
	});
});
