import { afterEach, describe, expect, it, vi } from "vitest";
import { isContextOverflow, stream } from "../../../src/index.js";
import { OPENAI_API_KEY_REQUIRED } from "../../../src/providers/openai-shared/api-key.js";
import type { Context } from "../../../src/types.js";
import type { FakeReply } from "../../helpers/fake-server.js";
import {
	completed,
	created,
	event,
	functionCallItem,
	messageItem,
	responsesReply,
} from "../../helpers/openai-responses-sse.js";
import { openaiTestModel, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect, collectAbortingWhen, internalFieldsOf } from "../../helpers/stream-events.js";

const server = useFakeServer();
afterEach(() => vi.unstubAllEnvs());

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const model = () => openaiTestModel("openai-responses", server.url);
const run = (options: { signal?: AbortSignal } = {}) => collect(stream(model(), context, { apiKey: "k", ...options }));

async function failWith(reply: FakeReply) {
	server.enqueue(reply);
	const outcome = await run();
	expect(outcome.types.at(-1)).toBe("error");
	expect(outcome.types).not.toContain("done");
	expect(outcome.result.stopReason).toBe("error");
	expect(internalFieldsOf(outcome.result)).toEqual([]);
	return outcome;
}

describe("HTTP errors", () => {
	it("keeps status and text of a 429 and makes exactly one request", async () => {
		const before = server.requests.length;
		const { result, types } = await failWith({
			kind: "json",
			status: 429,
			body: {
				error: {
					message: "Rate limit reached for gpt-5 on tokens per min",
					type: "tokens",
					code: "rate_limit_exceeded",
				},
			},
		});
		expect(result.errorMessage).toBe("429 Rate limit reached for gpt-5 on tokens per min");
		expect(types).toEqual(["error"]);
		expect(server.requests.length - before).toBe(1);
	});

	it("keeps status and text of a 500 and of an overloaded 503", async () => {
		expect((await failWith({ kind: "raw", status: 500, body: "upstream failure" })).result.errorMessage).toBe(
			"500 upstream failure",
		);
		expect(
			(
				await failWith({
					kind: "json",
					status: 503,
					body: { error: { message: "Service overloaded", type: "server_error" } },
				})
			).result.errorMessage,
		).toBe("503 Service overloaded");
	});

	it("reports a context overflow that isContextOverflow recognises", async () => {
		const { result } = await failWith({
			kind: "json",
			status: 400,
			body: {
				error: {
					message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
					type: "invalid_request_error",
					code: "context_length_exceeded",
				},
			},
		});
		expect(isContextOverflow(result)).toBe(true);
	});
});

describe("errors inside the stream", () => {
	it("turns an error event into 'Error Code <code>: <message>', keeping partial text", async () => {
		const { result } = await failWith(
			responsesReply([
				created(),
				...messageItem(0, "m", "partial").slice(0, 3),
				event("error", { code: "server_error", message: "The server had an error", param: null }),
			]),
		);
		expect(result.errorMessage).toBe("Error Code server_error: The server had an error");
		expect(result.content).toEqual([{ type: "text", text: "parti" }]);
	});

	it("reports response.failed with its error code and message", async () => {
		const { result } = await failWith(
			responsesReply([
				created(),
				event("response.failed", {
					response: { id: "r", status: "failed", error: { code: "rate_limit_exceeded", message: "Slow down" } },
				}),
			]),
		);
		expect(result.errorMessage).toBe("rate_limit_exceeded: Slow down");
	});

	it("reports response.failed without error details by its incomplete reason, or as unknown", async () => {
		const incomplete = await failWith(
			responsesReply([
				event("response.failed", {
					response: { id: "r", status: "failed", incomplete_details: { reason: "content_filter" } },
				}),
			]),
		);
		expect(incomplete.result.errorMessage).toBe("incomplete: content_filter");
		const unknown = await failWith(
			responsesReply([event("response.failed", { response: { id: "r", status: "failed" } })]),
		);
		expect(unknown.result.errorMessage).toBe("Unknown error (no error details in response)");
	});

	it("fails a completed response whose status is cancelled", async () => {
		const { result } = await failWith(
			responsesReply([created(), ...messageItem(0, "m", "x"), completed({ status: "cancelled" })]),
		);
		expect(result.errorMessage).toBe("Unknown error (no error details in response)");
	});
});

describe("broken streams", () => {
	it("ends with an error naming the dropped connection, keeping partial content without internal fields", async () => {
		const chunks = [
			created(),
			...functionCallItem(0, "call_1", "fc_1", "write", '{"path":"a.txt","content":"hello"}', 4),
			completed(),
		];
		const { result, types } = await failWith({ kind: "sse", chunks, cutAfter: 5, chunkDelayMs: 1 });
		expect(types[0]).toBe("start");
		expect(result.errorMessage).toMatch(/terminated|other side closed/);
		expect(result.content).toMatchObject([{ type: "toolCall", id: "call_1|fc_1", name: "write" }]);
	});

	it("fails a stream that ends without response.completed", async () => {
		const { result } = await failWith(responsesReply([created(), ...messageItem(0, "m", "half")]));
		expect(result.errorMessage).toBe(
			"The response stream ended before the provider finished the reply (no response.completed received)",
		);
	});

	it("ends with an error for a malformed SSE data line", async () => {
		const { result } = await failWith(
			responsesReply([created(), "event: response.output_text.delta\ndata: {oops\n\n", completed()]),
		);
		expect(result.errorMessage).toMatch(/^Malformed event in the provider's stream: /);
	});
});

describe("abort", () => {
	it("stops mid-stream with stopReason aborted and keeps the partial text", async () => {
		server.enqueue(
			responsesReply([created(), ...messageItem(0, "m", "Hello world, this is long").slice(0, 4)], {
				holdOpen: true,
			}),
		);
		const controller = new AbortController();
		let text = "";
		const { result } = await collectAbortingWhen(
			stream(model(), context, { apiKey: "k", signal: controller.signal }),
			controller,
			(event) => {
				if (event.type === "text_delta") text += event.delta;
				return text === "Hello worl";
			},
		);
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(result.content).toEqual([{ type: "text", text: "Hello worl" }]);
	});

	it("ends a request the server never answers once the signal fires", async () => {
		const requestArrived = server.enqueueHang();
		const controller = new AbortController();
		const pending = run({ signal: controller.signal });
		await requestArrived;
		controller.abort();
		const { result, types } = await pending;
		expect(types).toEqual(["error"]);
		expect(result.stopReason).toBe("aborted");
	});
});

describe("API keys", () => {
	it("fails with the reference's message for OpenAI without a key", async () => {
		vi.stubEnv("OPENAI_API_KEY", "");
		const openai = openaiTestModel("openai-responses", "https://api.openai.com/v1", { provider: "openai" });
		const { result } = await collect(stream(openai, context));
		expect(result.errorMessage).toBe(OPENAI_API_KEY_REQUIRED);
	});

	it("talks to a keyless local server without an Authorization header", async () => {
		vi.stubEnv("OPENAI_API_KEY", "");
		server.enqueue(responsesReply([created(), ...messageItem(0, "m", "local"), completed()]));
		const { result } = await collect(
			stream(openaiTestModel("openai-responses", server.url, { provider: "lmstudio" }), context),
		);
		expect(result.stopReason).toBe("stop");
		expect(server.lastRequest?.headers.authorization).toBeUndefined();
	});
});
