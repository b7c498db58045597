import { afterEach, describe, expect, it, vi } from "vitest";
import { stream, streamSimple, Type } from "../../../src/index.js";
import { buildResponsesPayload } from "../../../src/providers/openai-responses/build-payload.js";
import type { Context, Model, OpenAIResponsesOptions } from "../../../src/types.js";
import { completed, created, messageItem, responsesReply } from "../../helpers/openai-responses-sse.js";
import { openaiTestModel, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();
afterEach(() => vi.unstubAllEnvs());

const context: Context = { systemPrompt: "Be precise.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const openai = (overrides: Partial<Model<"openai-responses">> = {}) =>
	openaiTestModel("openai-responses", "https://api.openai.com/v1", { provider: "openai", ...overrides });
const payloadFor = (model: Model<"openai-responses">, options: OpenAIResponsesOptions = {}, ctx = context) =>
	buildResponsesPayload(model, ctx, options);

async function sent(
	model: Model<"openai-responses">,
	options: Parameters<typeof streamSimple>[2] = {},
	simple = false,
) {
	server.enqueue(responsesReply([created(), ...messageItem(0, "m", "ok"), completed()]));
	const s = simple
		? streamSimple(model, context, { apiKey: "k", ...options })
		: stream(model, context, { apiKey: "k", ...options });
	const { result } = await collect(s);
	expect(result.stopReason).toBe("stop");
	return server.lastRequest!;
}

describe("request on the wire", () => {
	it("posts model, input, stream and store:false to <baseUrl>/responses", async () => {
		const request = await sent(openaiTestModel("openai-responses", `${server.url}/v1`), {
			maxTokens: 500,
			temperature: 0.5,
		});
		expect(request.url).toBe("/v1/responses");
		expect(request.body).toEqual({
			model: "test-model",
			input: [
				{ role: "system", content: "Be precise." },
				{ role: "user", content: [{ type: "input_text", text: "hi" }] },
			],
			stream: true,
			store: false,
			max_output_tokens: 500,
			temperature: 0.5,
		});
		expect(request.headers["x-stainless-retry-count"]).toBe("0");
	});

	it("lets onPayload replace the body", async () => {
		const request = await sent(openaiTestModel("openai-responses", server.url), {
			onPayload: (payload) => ({ ...(payload as object), truncation: "auto" }),
		});
		expect(request.body).toMatchObject({ truncation: "auto", store: false });
	});
});

describe("optional fields", () => {
	it("declares tools as non-strict functions", () => {
		const tool = { name: "ls", description: "List", parameters: Type.Object({ dir: Type.Optional(Type.String()) }) };
		expect(payloadFor(openai(), {}, { ...context, tools: [tool] }).tools).toEqual([
			{ type: "function", name: "ls", description: "List", parameters: tool.parameters, strict: false },
		]);
	});

	it("passes the service tier", () => {
		expect(payloadFor(openai(), { serviceTier: "flex" }).service_tier).toBe("flex");
	});
});

describe("prompt caching", () => {
	it("uses the session id as prompt_cache_key unless caching is off", () => {
		expect(payloadFor(openai(), { sessionId: "sess-1" }).prompt_cache_key).toBe("sess-1");
		expect(payloadFor(openai(), { sessionId: "sess-1", cacheRetention: "none" })).not.toHaveProperty(
			"prompt_cache_key",
		);
		expect(payloadFor(openai())).not.toHaveProperty("prompt_cache_key");
	});

	it("asks for 24h retention only for long retention on api.openai.com", () => {
		expect(payloadFor(openai(), { cacheRetention: "long" }).prompt_cache_retention).toBe("24h");
		expect(payloadFor(openai(), { cacheRetention: "short" })).not.toHaveProperty("prompt_cache_retention");
		const proxy = openaiTestModel("openai-responses", "https://proxy.example.com/v1");
		expect(payloadFor(proxy, { cacheRetention: "long" })).not.toHaveProperty("prompt_cache_retention");
	});

	it("takes long retention from AGENT_CACHE_RETENTION when no retention is given", () => {
		vi.stubEnv("AGENT_CACHE_RETENTION", "long");
		expect(payloadFor(openai()).prompt_cache_retention).toBe("24h");
	});
});

describe("reasoning", () => {
	it("requests effort and summary with encrypted reasoning included", () => {
		const payload = payloadFor(openai({ reasoning: true }), { reasoningEffort: "high" });
		expect(payload.reasoning).toEqual({ effort: "high", summary: "auto" });
		expect(payload.include).toEqual(["reasoning.encrypted_content"]);
		expect(payloadFor(openai({ reasoning: true }), { reasoningSummary: "detailed" }).reasoning).toEqual({
			effort: "medium",
			summary: "detailed",
		});
	});

	it("sends no reasoning fields for non-reasoning models", () => {
		const payload = payloadFor(openai({ reasoning: false, id: "gpt-5" }), { reasoningEffort: "high" });
		expect(payload).not.toHaveProperty("reasoning");
		expect(payload).not.toHaveProperty("include");
		expect(JSON.stringify(payload.input)).not.toContain("Juice");
	});

	it("appends the reasoning-suppressing developer message to gpt-5 models when no reasoning is requested", () => {
		const payload = payloadFor(openai({ reasoning: true, id: "gpt-5.4", name: "GPT-5.4" }));
		expect(payload.input.at(-1)).toEqual({
			role: "developer",
			content: [{ type: "input_text", text: "# Juice: 0 !important" }],
		});
		expect(payload).not.toHaveProperty("reasoning");
	});

	it("does not add the developer message to other reasoning models", () => {
		expect(JSON.stringify(payloadFor(openai({ reasoning: true, id: "o3", name: "o3" })).input)).not.toContain(
			"Juice",
		);
	});
});

describe("streamSimple", () => {
	it("clamps xhigh to high unless the model supports it, and defaults maxTokens", async () => {
		const clamped = openaiTestModel("openai-responses", server.url, {
			reasoning: true,
			id: "gpt-5",
			maxTokens: 128000,
		});
		expect((await sent(clamped, { reasoning: "xhigh" }, true)).body).toMatchObject({
			reasoning: { effort: "high", summary: "auto" },
			max_output_tokens: 32000,
		});
		const xhigh = openaiTestModel("openai-responses", server.url, { reasoning: true, id: "gpt-5.4" });
		expect((await sent(xhigh, { reasoning: "xhigh" }, true)).body).toMatchObject({ reasoning: { effort: "xhigh" } });
	});

	it("suppresses reasoning for gpt-5 when no level is given", async () => {
		const model = openaiTestModel("openai-responses", server.url, { reasoning: true, id: "gpt-5-mini" });
		const body = (await sent(model, {}, true)).body as { input: unknown[] };
		expect(JSON.stringify(body.input.at(-1))).toContain("# Juice: 0 !important");
	});
});
