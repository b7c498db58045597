import { describe, expect, it } from "vitest";
import { streamGoogle, streamSimpleGoogle } from "../../../src/providers/google/index.js";
import type { Context } from "../../../src/types.js";
import { isContextOverflow } from "../../../src/utils/overflow.js";
import { geminiChunk, geminiHttpError, geminiReply, geminiTextChunks } from "../../helpers/google-sse.js";
import { expectNoUnhandledRejections, gemini25Flash, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect, collectAbortingWhen } from "../../helpers/stream-events.js";

expectNoUnhandledRejections();
const server = useFakeServer();
const model = () => gemini25Flash(`${server.url}/v1beta`);

const context: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };
const options = { apiKey: "gemini-key" };

describe("HTTP errors", () => {
	it.each([
		[429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."],
		[500, "INTERNAL", "An internal error has occurred."],
		[503, "UNAVAILABLE", "The model is overloaded. Please try again later."],
		[403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers."],
	])(
		"a %i ends in one error event with the status and Google's text, after a single request",
		async (code, status, text) => {
			const before = server.requests.length;
			server.enqueue(geminiHttpError(code, status, text));
			const { types, result } = await collect(streamGoogle(model(), context, options));
			expect(types).toEqual(["error"]);
			expect(result.stopReason).toBe("error");
			expect(result.errorMessage).toMatch(new RegExp(`^${code} `));
			expect(result.errorMessage).toContain(status);
			expect(result.errorMessage).toContain(text);
			expect(result.content).toEqual([]);
			// The SDK makes one attempt: the caller's retry policy sees every failure.
			expect(server.requests.length - before).toBe(1);
			expect(isContextOverflow(result)).toBe(false);
		},
	);

	it("appends RetryInfo's retryDelay to a 429 as ' (retry after <N>s)'", async () => {
		server.enqueue({
			kind: "json",
			status: 429,
			body: {
				error: {
					code: 429,
					message: "Quota exceeded.",
					status: "RESOURCE_EXHAUSTED",
					details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "21.5s" }],
				},
			},
		});
		const { result } = await collect(streamGoogle(model(), context, options));
		expect(result.errorMessage).toMatch(/^429 .*Quota exceeded.* \(retry after 22s\)$/);
	});

	it("reports 'input token count ... exceeds the maximum' so isContextOverflow recognises it", async () => {
		server.enqueue(
			geminiHttpError(
				400,
				"INVALID_ARGUMENT",
				"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
			),
		);
		const { result } = await collect(streamGoogle(model(), context, options));
		expect(result.errorMessage).toContain("400 ");
		expect(isContextOverflow(result)).toBe(true);
	});

	it("keeps a non-JSON error body's text", async () => {
		server.enqueue({
			kind: "raw",
			status: 502,
			body: "Bad Gateway from proxy",
			headers: { "content-type": "text/plain" },
		});
		const { result } = await collect(streamGoogle(model(), context, options));
		expect(result.errorMessage).toMatch(/^502 /);
		expect(result.errorMessage).toContain("Bad Gateway from proxy");
	});
});

describe("errors inside the stream", () => {
	it("an error chunk after content keeps the partial text and reports status and text", async () => {
		server.enqueue(
			geminiReply([
				geminiChunk([{ text: "partial" }]),
				{ data: { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } } },
			]),
		);
		const { types, result } = await collect(streamGoogle(model(), context, options));
		expect(types).toEqual(["start", "text_start", "text_delta", "error"]);
		expect(result.errorMessage).toMatch(/^503 /);
		expect(result.errorMessage).toContain("UNAVAILABLE");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("a connection cut mid-stream ends in an error naming it, keeps partial content, and is not resumed by the SDK", async () => {
		const before = server.requests.length;
		server.enqueue(
			geminiReply(geminiTextChunks(["partial", " more", " never"]), {
				cutAfter: 1,
				// Pacing lets the written chunk leave the server before the socket is destroyed.
				chunkDelayMs: 1,
			}),
		);
		const { types, result } = await collect(streamGoogle(model(), context, options));
		expect(types).toEqual(["start", "text_start", "text_delta", "error"]);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/terminated|other side closed/);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
		expect(server.requests.length - before).toBe(1);
	});

	it("a stream dropped after a checkpoint is not reopened by the SDK's automatic continuation", async () => {
		const before = server.requests.length;
		// A checkpoint token lets the SDK resume a dropped stream by itself with a second request.
		const checkpoint = geminiChunk([{ text: "partial" }]);
		(checkpoint as { data: { candidates: Record<string, unknown>[] } }).data.candidates[0].continuationToken =
			"ckpt-1";
		server.enqueue(geminiReply([checkpoint, ...geminiTextChunks(["never"])], { cutAfter: 1, chunkDelayMs: 1 }));
		const { types, result } = await collect(streamGoogle(model(), context, options));
		expect(types).toEqual(["start", "text_start", "text_delta", "error"]);
		expect(result.errorMessage).toMatch(/terminated|other side closed/);
		expect(server.requests.length - before).toBe(1);
	});

	it("a connection dropped before any response ends in an error, after a single attempt", async () => {
		const before = server.requests.length;
		server.enqueue({ kind: "destroy" });
		const { types, result } = await collect(streamGoogle(model(), context, options));
		expect(types).toEqual(["error"]);
		expect(result.errorMessage).toMatch(/fetch failed|other side closed/);
		expect(server.requests.length - before).toBe(1);
	});

	it("a malformed SSE data line ends in an error that says the stream was malformed", async () => {
		server.enqueue(
			geminiReply([geminiChunk([{ text: "ok" }]), "data: {not json\n\n", ...geminiTextChunks(["never"])]),
		);
		const { types, result } = await collect(streamGoogle(model(), context, options));
		expect(types).toEqual(["start", "text_start", "text_delta", "error"]);
		expect(result.errorMessage).toMatch(/^Malformed event in the provider's stream: /);
	});
});

describe("abort", () => {
	it("aborting mid-stream ends with stopReason aborted and keeps the partial content", async () => {
		server.enqueue(geminiReply([geminiChunk([{ text: "partial" }])], { holdOpen: true }));
		const controller = new AbortController();
		const { types, result } = await collectAbortingWhen(
			streamGoogle(model(), context, { ...options, signal: controller.signal }),
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
		const stream = streamGoogle(model(), context, { ...options, signal: controller.signal });
		await requestArrived;
		controller.abort();
		const { types, result } = await collect(stream);
		expect(types).toEqual(["error"]);
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
	});

	it("an already aborted signal ends with aborted", async () => {
		const { result } = await collect(streamGoogle(model(), context, { ...options, signal: AbortSignal.abort() }));
		expect(result.stopReason).toBe("aborted");
	});
});

describe("missing credentials and bad payloads", () => {
	it("stream without a key ends in an error event instead of throwing", async () => {
		const saved = process.env.GEMINI_API_KEY;
		delete process.env.GEMINI_API_KEY;
		try {
			const { types, result } = await collect(streamGoogle(model(), context));
			expect(types).toEqual(["error"]);
			expect(result.errorMessage).toBe("No API key for provider: google");
			expect((await collect(streamSimpleGoogle(model(), context))).result.errorMessage).toBe(
				"No API key for provider: google",
			);
		} finally {
			if (saved !== undefined) process.env.GEMINI_API_KEY = saved;
		}
	});

	it("a payload the SDK rejects before sending ends in an error event", async () => {
		const { types, result } = await collect(
			streamGoogle(model(), context, {
				...options,
				onPayload: (payload) => ({
					...(payload as object),
					config: { routingConfig: { autoMode: {} } },
				}),
			}),
		);
		expect(types).toEqual(["error"]);
		expect(result.errorMessage).toContain("routingConfig");
	});
});
