import { describe, expect, it } from "vitest";
import { stream, streamSimple, Type } from "../../../src/index.js";
import { buildCompletionsPayload } from "../../../src/providers/openai-completions/build-payload.js";
import { resolveCompletionsCompat } from "../../../src/providers/openai-completions/compat.js";
import type { Context, Model, OpenAICompletionsOptions, Tool } from "../../../src/types.js";
import { assistant } from "../../helpers/messages.js";
import { finish, textChunks } from "../../helpers/openai-completions-sse.js";
import { openaiTestModel, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();

const readTool: Tool = {
	name: "read",
	description: "Read a file",
	parameters: Type.Object({ path: Type.String() }),
};
const context: Context = {
	systemPrompt: "You are helpful.",
	messages: [{ role: "user", content: "hi", timestamp: 1 }],
};

async function sent(model: Model<"openai-completions">, ctx: Context, options: OpenAICompletionsOptions = {}) {
	server.enqueue({ kind: "sse", chunks: [...textChunks("ok"), ...finish()] });
	const { result } = await collect(stream(model, ctx, { apiKey: "k", ...options }));
	expect(result.stopReason).toBe("stop");
	return server.lastRequest!;
}

const payloadFor = (
	model: Model<"openai-completions">,
	ctx: Context = context,
	options: OpenAICompletionsOptions = {},
) => buildCompletionsPayload(model, ctx, options, resolveCompletionsCompat(model));

describe("request on the wire", () => {
	it("posts to <baseUrl>/chat/completions with model, messages, stream, usage and store flags", async () => {
		const request = await sent(openaiTestModel("openai-completions", `${server.url}/v1`), context, {
			maxTokens: 1234,
			temperature: 0.2,
		});
		expect(request.method).toBe("POST");
		expect(request.url).toBe("/v1/chat/completions");
		expect(request.body).toEqual({
			model: "test-model",
			messages: [
				{ role: "system", content: "You are helpful." },
				{ role: "user", content: "hi" },
			],
			stream: true,
			stream_options: { include_usage: true },
			store: false,
			max_completion_tokens: 1234,
			temperature: 0.2,
		});
		expect(request.headers.authorization).toBe("Bearer k");
		expect(request.headers["x-stainless-retry-count"]).toBe("0");
	});

	it("sends the payload returned by onPayload instead of the built one", async () => {
		let seen: unknown;
		const request = await sent(openaiTestModel("openai-completions", server.url), context, {
			onPayload: (payload) => {
				seen = payload;
				return { ...(payload as object), custom_field: 42 };
			},
		});
		expect(seen).toMatchObject({ model: "test-model", stream: true });
		expect(request.body).toMatchObject({ custom_field: 42, model: "test-model" });
	});

	it("merges headers: model headers, then Copilot's dynamic headers, then the caller's", async () => {
		const model = openaiTestModel("openai-completions", server.url, {
			provider: "github-copilot",
			headers: { "User-Agent": "GitHubCopilotChat/0.35.0", "X-Model": "model", "Openai-Intent": "from-model" },
		});
		const ctx: Context = {
			messages: [
				{ role: "user", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }], timestamp: 1 },
				{ role: "user", content: "what is this?", timestamp: 2 },
			],
		};
		const request = await sent(model, ctx, { headers: { "X-Model": "caller" } });
		expect(request.headers["user-agent"]).toBe("GitHubCopilotChat/0.35.0");
		expect(request.headers["x-model"]).toBe("caller");
		expect(request.headers["openai-intent"]).toBe("conversation-edits");
		expect(request.headers["x-initiator"]).toBe("user");
		expect(request.headers["copilot-vision-request"]).toBe("true");
	});
});

describe("clients reused across requests", () => {
	it("still send each request's own key and headers", async () => {
		const model = openaiTestModel("openai-completions", server.url);
		const first = await sent(model, context, { apiKey: "key-one", headers: { "X-Trace": "a" } });
		const second = await sent(model, context, { apiKey: "key-two" });
		const third = await sent(model, context, { apiKey: "key-one", headers: { "X-Trace": "a" } });
		expect([first, second, third].map((request) => request.headers.authorization)).toEqual([
			"Bearer key-one",
			"Bearer key-two",
			"Bearer key-one",
		]);
		expect([first, second, third].map((request) => request.headers["x-trace"])).toEqual(["a", undefined, "a"]);
	});
});

describe("payload fields", () => {
	const model = openaiTestModel("openai-completions", "http://127.0.0.1:1/v1", { provider: "custom" });

	it("omits the max-tokens field unless maxTokens is given, and uses max_tokens where configured", () => {
		expect(payloadFor(model)).not.toHaveProperty("max_completion_tokens");
		expect(payloadFor(model)).not.toHaveProperty("max_tokens");
		const chutes = openaiTestModel("openai-completions", "https://llm.chutes.ai/v1");
		expect(payloadFor(chutes, context, { maxTokens: 50 })).toMatchObject({ max_tokens: 50 });
	});

	it("leaves out store and stream_options where the server does not support them", () => {
		const cerebras = openaiTestModel("openai-completions", "https://api.cerebras.ai/v1", {
			provider: "cerebras",
			compat: { supportsUsageInStreaming: false },
		});
		const payload = payloadFor(cerebras);
		expect(payload).not.toHaveProperty("store");
		expect(payload).not.toHaveProperty("stream_options");
	});

	it("declares tools with strict:false, or without strict where unsupported", () => {
		const withTools = { ...context, tools: [readTool] };
		expect(payloadFor(model, withTools).tools).toEqual([
			{
				type: "function",
				function: { name: "read", description: "Read a file", parameters: readTool.parameters, strict: false },
			},
		]);
		const noStrict = openaiTestModel("openai-completions", "http://x", { compat: { supportsStrictMode: false } });
		expect(payloadFor(noStrict, withTools).tools?.[0].function).not.toHaveProperty("strict");
	});

	it("sends tools: [] when the history has tool calls but no tools are given", () => {
		const ctx: Context = {
			messages: [
				{ role: "user", content: "q", timestamp: 1 },
				assistant({ api: "openai-completions", provider: "custom", id: "test-model" }, [
					{ type: "toolCall", id: "c1", name: "ls", arguments: {} },
				]),
				{ role: "toolResult", toolCallId: "c1", toolName: "ls", content: [], isError: false, timestamp: 3 },
			],
		};
		expect(payloadFor(model, ctx).tools).toEqual([]);
		expect(payloadFor(model)).not.toHaveProperty("tools");
	});

	it("passes tool_choice through", () => {
		const choice = { type: "function" as const, function: { name: "read" } };
		expect(payloadFor(model, { ...context, tools: [readTool] }, { toolChoice: choice }).tool_choice).toEqual(choice);
	});
});

describe("reasoning", () => {
	const reasoner = (overrides: Partial<Model<"openai-completions">> = {}) =>
		openaiTestModel("openai-completions", "http://127.0.0.1:1/v1", {
			provider: "custom",
			reasoning: true,
			...overrides,
		});

	it("sends reasoning_effort for reasoning models, mapped through reasoningEffortMap", () => {
		expect(payloadFor(reasoner(), context, { reasoningEffort: "low" }).reasoning_effort).toBe("low");
		const mapped = reasoner({ compat: { reasoningEffortMap: { low: "minimal-ish" } } });
		expect(payloadFor(mapped, context, { reasoningEffort: "low" }).reasoning_effort).toBe("minimal-ish");
		const groqQwen = reasoner({ provider: "groq", id: "qwen/qwen3-32b" });
		expect(payloadFor(groqQwen, context, { reasoningEffort: "high" }).reasoning_effort).toBe("default");
	});

	it("sends no reasoning_effort for non-reasoning models, without an effort, or where unsupported", () => {
		expect(payloadFor(reasoner({ reasoning: false }), context, { reasoningEffort: "low" })).not.toHaveProperty(
			"reasoning_effort",
		);
		expect(payloadFor(reasoner())).not.toHaveProperty("reasoning_effort");
		const xai = reasoner({ provider: "xai", baseUrl: "https://api.x.ai/v1" });
		expect(payloadFor(xai, context, { reasoningEffort: "high" })).not.toHaveProperty("reasoning_effort");
	});

	it("switches thinking with enable_thinking for Z.ai and Qwen", () => {
		const zai = reasoner({ provider: "zai", baseUrl: "https://api.z.ai/api/coding/paas/v4" });
		expect(payloadFor(zai, context, { reasoningEffort: "medium" })).toMatchObject({ enable_thinking: true });
		expect(payloadFor(zai)).toMatchObject({ enable_thinking: false });
		expect(payloadFor(zai, context, { reasoningEffort: "medium" })).not.toHaveProperty("reasoning_effort");
		const qwen = reasoner({ compat: { thinkingFormat: "qwen" } });
		expect(payloadFor(qwen, context, { reasoningEffort: "low" })).toMatchObject({ enable_thinking: true });
	});

	it("uses chat_template_kwargs for Qwen served through a chat template", () => {
		const qwen = reasoner({ compat: { thinkingFormat: "qwen-chat-template" } });
		expect(payloadFor(qwen, context, { reasoningEffort: "low" }).chat_template_kwargs).toEqual({
			enable_thinking: true,
		});
		expect(payloadFor(qwen).chat_template_kwargs).toEqual({ enable_thinking: false });
	});
});

describe("gateways", () => {
	it("sends OpenRouter routing as provider", () => {
		const model = openaiTestModel("openai-completions", "https://openrouter.ai/api/v1", {
			provider: "openrouter",
			compat: { openRouterRouting: { only: ["anthropic"], order: ["anthropic", "google"] } },
		});
		expect(payloadFor(model).provider).toEqual({ only: ["anthropic"], order: ["anthropic", "google"] });
		expect(payloadFor(openaiTestModel("openai-completions", "https://openrouter.ai/api/v1"))).not.toHaveProperty(
			"provider",
		);
	});

	it("sends Vercel AI Gateway routing as providerOptions.gateway", () => {
		const model = openaiTestModel("openai-completions", "https://ai-gateway.vercel.sh/v1", {
			compat: { vercelGatewayRouting: { order: ["bedrock"] } },
		});
		expect(payloadFor(model).providerOptions).toEqual({ gateway: { order: ["bedrock"] } });
	});

	it("marks the last text of the last user message for OpenRouter Anthropic models", () => {
		const model = openaiTestModel("openai-completions", "https://openrouter.ai/api/v1", {
			provider: "openrouter",
			id: "anthropic/claude-sonnet-4.5",
		});
		const messages = payloadFor(model).messages;
		expect(messages.at(-1)).toEqual({
			role: "user",
			content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }],
		});
		expect(messages[0]).toEqual({ role: "system", content: "You are helpful." });
	});

	it("adds no cache marker for other OpenRouter models or when caching is off", () => {
		const other = openaiTestModel("openai-completions", "https://openrouter.ai/api/v1", { id: "openai/gpt-5" });
		expect(JSON.stringify(payloadFor(other))).not.toContain("cache_control");
		const claude = openaiTestModel("openai-completions", "https://openrouter.ai/api/v1", {
			id: "anthropic/claude-opus-4",
		});
		expect(JSON.stringify(payloadFor(claude, context, { cacheRetention: "none" }))).not.toContain("cache_control");
	});
});

describe("streamSimple", () => {
	it("clamps xhigh to high for models without xhigh and keeps it for gpt-5.2", async () => {
		const clamped = openaiTestModel("openai-completions", server.url, { reasoning: true, provider: "custom" });
		server.enqueue({ kind: "sse", chunks: [...textChunks("ok"), ...finish()] });
		await collect(streamSimple(clamped, context, { apiKey: "k", reasoning: "xhigh" }));
		expect(server.lastRequest?.body).toMatchObject({ reasoning_effort: "high", max_completion_tokens: 16000 });

		const xhigh = openaiTestModel("openai-completions", server.url, {
			reasoning: true,
			id: "gpt-5.2",
			maxTokens: 128000,
		});
		server.enqueue({ kind: "sse", chunks: [...textChunks("ok"), ...finish()] });
		await collect(streamSimple(xhigh, context, { apiKey: "k", reasoning: "xhigh" }));
		expect(server.lastRequest?.body).toMatchObject({ reasoning_effort: "xhigh", max_completion_tokens: 32000 });
	});

	it("forwards toolChoice", async () => {
		const model = openaiTestModel("openai-completions", server.url);
		server.enqueue({ kind: "sse", chunks: [...textChunks("ok"), ...finish()] });
		const options = { apiKey: "k", toolChoice: "required" };
		await collect(streamSimple(model, { ...context, tools: [readTool] }, options));
		expect(server.lastRequest?.body).toMatchObject({ tool_choice: "required" });
	});
});
