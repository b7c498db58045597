import { afterEach, describe, expect, it, vi } from "vitest";
import { isContextOverflow, stream } from "../../../src/index.js";
import { OPENAI_API_KEY_REQUIRED } from "../../../src/providers/openai-shared/api-key.js";
import type { Context } from "../../../src/types.js";
import type { FakeReply } from "../../helpers/fake-server.js";
import { chunk, DONE, finish, textChunks, toolCallChunks } from "../../helpers/openai-completions-sse.js";
import { openaiTestModel, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect, collectAbortingWhen, internalFieldsOf } from "../../helpers/stream-events.js";

const server = useFakeServer();
afterEach(() => vi.unstubAllEnvs());

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const model = () => openaiTestModel("openai-completions", server.url);
const run = (options: { signal?: AbortSignal; apiKey?: string } = {}) =>
	collect(stream(model(), context, { apiKey: "test-key", ...options }));

async function failWith(reply: FakeReply) {
	server.enqueue(reply);
	const outcome = await run();
	expect(outcome.types.at(-1)).toBe("error");
	expect(outcome.types).not.toContain("done");
	expect(outcome.result.stopReason).toBe("error");
	return outcome;
}

describe("HTTP errors", () => {
	it("keeps status and provider text for a 429, without a start event or an SDK retry", async () => {
		const before = server.requests.length;
		const { result, types } = await failWith({
			kind: "json",
			status: 429,
			body: { error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" } },
		});
		expect(result.errorMessage).toBe("429 Rate limit reached for requests");
		expect(types).toEqual(["error"]);
		expect(server.requests.length - before).toBe(1);
	});

	it("appends retry-after-ms to a 429 as ' (retry after <N>s)'", async () => {
		const { result } = await failWith({
			kind: "json",
			status: 429,
			headers: { "retry-after-ms": "1500" },
			body: { error: { message: "Rate limit reached for requests", type: "requests" } },
		});
		expect(result.errorMessage).toBe("429 Rate limit reached for requests (retry after 2s)");
	});

	it("keeps status and plain-text body for a 500", async () => {
		const { result } = await failWith({ kind: "raw", status: 500, body: "Internal Server Error" });
		expect(result.errorMessage).toBe("500 Internal Server Error");
	});

	it("keeps the overloaded text of a 503", async () => {
		const { result } = await failWith({
			kind: "json",
			status: 503,
			body: {
				error: { message: "The engine is currently overloaded, please try again later", type: "server_error" },
			},
		});
		expect(result.errorMessage).toBe("503 The engine is currently overloaded, please try again later");
	});

	it("is not retried by the SDK even when the server asks for it", async () => {
		const before = server.requests.length;
		await failWith({
			kind: "json",
			status: 500,
			body: { error: { message: "boom" } },
			headers: { "x-should-retry": "true" },
		});
		expect(server.requests.length - before).toBe(1);
	});

	it("appends OpenRouter's metadata.raw after a newline", async () => {
		const raw = '{"type":"error","error":{"type":"invalid_request_error","message":"messages.1: bad"}}';
		const { result } = await failWith({
			kind: "json",
			status: 400,
			body: {
				error: { message: "Provider returned error", code: 400, metadata: { raw, provider_name: "Anthropic" } },
			},
		});
		expect(result.errorMessage).toBe(`400 Provider returned error\n${raw}`);
	});

	it("keeps the text of an error body without an error object (vLLM)", async () => {
		const { result } = await failWith({
			kind: "json",
			status: 400,
			body: {
				object: "error",
				message: "This model's maximum context length is 4096 tokens.",
				type: "BadRequestError",
			},
		});
		expect(result.errorMessage).toBe("400 This model's maximum context length is 4096 tokens.");
	});

	it("keeps an error given as a bare string (Ollama) without JSON quotes", async () => {
		const { result } = await failWith({ kind: "json", status: 404, body: { error: "model 'llama9' not found" } });
		expect(result.errorMessage).toBe("404 model 'llama9' not found");
	});

	it("cuts an HTML error page down to its first 4000 characters", async () => {
		const page = `<html><head><title>502 Bad Gateway</title></head><body>${"x".repeat(10_000)}</body></html>`;
		const { result } = await failWith({
			kind: "raw",
			status: 502,
			body: page,
			headers: { "content-type": "text/html" },
		});
		expect(result.errorMessage?.startsWith("502 <html><head><title>502 Bad Gateway</title>")).toBe(true);
		expect(result.errorMessage).toMatch(/\.\.\. \[truncated \d+ chars\]$/);
		expect(result.errorMessage?.length).toBeLessThan(4100);
	});

	it("reports 401 and 403 as errors with their status", async () => {
		expect(
			(await failWith({ kind: "json", status: 401, body: { error: { message: "Incorrect API key provided" } } }))
				.result.errorMessage,
		).toBe("401 Incorrect API key provided");
		expect(
			(await failWith({ kind: "json", status: 403, body: { error: { message: "Forbidden" } } })).result.errorMessage,
		).toBe("403 Forbidden");
	});
});

describe("context overflow", () => {
	it.each([
		[
			"OpenAI",
			400,
			{
				error: { message: "Your input exceeds the context window of this model.", code: "context_length_exceeded" },
			},
		],
		[
			"OpenRouter",
			400,
			{
				error: {
					message: "This endpoint's maximum context length is 128000 tokens. However, you requested 140000.",
					code: 400,
				},
			},
		],
		["Groq", 400, { error: { message: "Please reduce the length of the messages or completion." } }],
		["xAI", 400, { error: "This model's maximum prompt length is 131072 but the request contains 150000 tokens." }],
	])("recognises the %s overflow error", async (_name, status, body) => {
		const { result } = await failWith({ kind: "json", status, body });
		expect(isContextOverflow(result)).toBe(true);
	});

	it("recognises Cerebras's bare 400 without a body", async () => {
		const { result } = await failWith({ kind: "raw", status: 400, body: "" });
		expect(result.errorMessage).toBe("400 status code (no body)");
		expect(isContextOverflow(result)).toBe(true);
	});

	it("does not treat a 429 as overflow", async () => {
		const { result } = await failWith({
			kind: "json",
			status: 429,
			body: { error: { message: "Too Many Requests" } },
		});
		expect(isContextOverflow(result)).toBe(false);
	});
});

describe("broken streams", () => {
	it("ends with an error naming the dropped connection and keeps the partial text", async () => {
		const { result, types } = await failWith({
			kind: "sse",
			chunks: [...textChunks("Hello there, friend"), ...finish()],
			cutAfter: 2,
			// Pacing lets Node flush the written chunks before the socket is destroyed (writes are corked per tick).
			chunkDelayMs: 1,
		});
		expect(types[0]).toBe("start");
		expect(result.content).toEqual([{ type: "text", text: "Hello ther" }]);
		expect(result.errorMessage).toMatch(/terminated|other side closed/);
	});

	it("reports a connection that closes before any answer as a connection error", async () => {
		const { result } = await failWith({ kind: "destroy" });
		expect(result.errorMessage).toMatch(/^Connection error/);
	});

	it("ends with an error for a malformed SSE data line", async () => {
		const { result } = await failWith({
			kind: "sse",
			chunks: [...textChunks("partial"), "data: {not json\n\n", ...finish()],
		});
		expect(result.errorMessage).toMatch(/^Malformed event in the provider's stream: /);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("ignores SSE comments and lines without a field", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [": OPENROUTER PROCESSING\n\n", ...textChunks("ok"), "garbage-line\n\n", ...finish()],
		});
		const { result } = await run();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([{ type: "text", text: "ok" }]);
	});

	it("fails a stream that ends cleanly without a finish_reason instead of reporting a half tool call as done", async () => {
		const { result } = await failWith({
			kind: "sse",
			chunks: toolCallChunks(0, "c1", "write", '{"path":"a.txt","content":"hel'),
		});
		expect(result.errorMessage).toMatch(/no finish_reason/);
		expect(internalFieldsOf(result)).toEqual([]);
	});

	it("keeps status-like code and text of an error sent inside the stream", async () => {
		const { result } = await failWith({
			kind: "sse",
			chunks: [...textChunks("Hi"), { data: { error: { code: 502, message: "Upstream provider error" } } }],
		});
		expect(result.errorMessage).toBe("502 Upstream provider error");
		expect(result.content).toEqual([{ type: "text", text: "Hi" }]);
	});

	it("ends with error for a content filter stop and says so", async () => {
		const { result } = await failWith({ kind: "sse", chunks: [...textChunks("Some"), ...finish("content_filter")] });
		expect(result.errorMessage).toMatch(/content filter/);
	});

	it("ends with error for an unknown finish_reason", async () => {
		const { result } = await failWith({ kind: "sse", chunks: [...textChunks("x"), ...finish("weird_reason")] });
		expect(result.errorMessage).toBe("Unhandled stop reason: weird_reason");
	});
});

describe("abort", () => {
	it("stops mid-stream with stopReason aborted, keeping the partial content", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [chunk({ content: "Hello" }), chunk({ content: " wor" })],
			holdOpen: true,
		});
		const controller = new AbortController();
		let text = "";
		const { types, result } = await collectAbortingWhen(
			stream(model(), context, { apiKey: "k", signal: controller.signal }),
			controller,
			(event) => {
				if (event.type === "text_delta") text += event.delta;
				return text === "Hello wor";
			},
		);
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(result.content).toEqual([{ type: "text", text: "Hello wor" }]);
		expect(types.at(-1)).toBe("error");
	});

	it("ends a request the server never answers when the signal fires", async () => {
		const requestArrived = server.enqueueHang();
		const controller = new AbortController();
		const pending = run({ signal: controller.signal });
		await requestArrived;
		controller.abort();
		const { result, types } = await pending;
		expect(result.stopReason).toBe("aborted");
		expect(types).toEqual(["error"]);
	});

	it("does not send a request when the signal is already aborted", async () => {
		const before = server.requests.length;
		const { result } = await run({ signal: AbortSignal.abort() });
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(server.requests.length).toBe(before);
	});
});

describe("API keys", () => {
	it("fails with the reference's message when OpenAI itself has no key", async () => {
		vi.stubEnv("OPENAI_API_KEY", "");
		const openai = openaiTestModel("openai-completions", "https://api.openai.com/v1", { provider: "openai" });
		const { result, types } = await collect(stream(openai, context));
		expect(types).toEqual(["error"]);
		expect(result.errorMessage).toBe(OPENAI_API_KEY_REQUIRED);
	});

	it("sends no Authorization header to a keyless local server", async () => {
		vi.stubEnv("OPENAI_API_KEY", "");
		server.enqueue({ kind: "sse", chunks: [...textChunks("local"), ...finish()] });
		const local = openaiTestModel("openai-completions", server.url, { provider: "ollama" });
		const { result } = await collect(stream(local, context));
		expect(result.stopReason).toBe("stop");
		expect(server.lastRequest?.headers.authorization).toBeUndefined();
	});

	it("falls back to OPENAI_API_KEY when the provider has no key of its own", async () => {
		vi.stubEnv("OPENAI_API_KEY", "sk-from-env");
		server.enqueue({ kind: "sse", chunks: [...textChunks("x"), ...finish()] });
		await collect(stream(openaiTestModel("openai-completions", server.url, { provider: "custom" }), context));
		expect(server.lastRequest?.headers.authorization).toBe("Bearer sk-from-env");
	});

	it("prefers the provider's environment variable over OPENAI_API_KEY", async () => {
		vi.stubEnv("OPENAI_API_KEY", "sk-openai");
		vi.stubEnv("GROQ_API_KEY", "gsk-groq");
		server.enqueue({ kind: "sse", chunks: [...textChunks("x"), ...finish()] });
		await collect(stream(openaiTestModel("openai-completions", server.url, { provider: "groq" }), context));
		expect(server.lastRequest?.headers.authorization).toBe("Bearer gsk-groq");
	});
});

describe("stream hygiene", () => {
	it("ends every call exactly once with a terminal event even when the server sends [DONE] early", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [...textChunks("a"), chunk({}, { finish_reason: "stop" }), DONE, ...textChunks("ignored")],
		});
		const { types, result } = await run();
		expect(types.filter((t) => t === "done" || t === "error")).toEqual(["done"]);
		expect(result.content).toEqual([{ type: "text", text: "a" }]);
	});
});
