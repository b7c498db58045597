import { describe, expect, it } from "vitest";
import { detectCompletionsCompat, resolveCompletionsCompat } from "../../../src/providers/openai-completions/compat.js";
import { openaiTestModel } from "../../helpers/provider-test-harness.js";

const modelAt = (provider: string, baseUrl: string, id = "m") =>
	openaiTestModel("openai-completions", baseUrl, { provider, id });

describe("non-standard endpoints", () => {
	it.each([
		["cerebras", "https://api.cerebras.ai/v1"],
		["custom", "https://proxy.cerebras.ai/v1"],
		["xai", "https://api.x.ai/v1"],
		["custom", "https://api.x.ai/v1"],
		["custom", "https://llm.chutes.ai/v1"],
		["custom", "https://api.deepseek.com/v1"],
		["zai", "https://api.z.ai/api/coding/paas/v4"],
		["custom", "https://api.z.ai/api/paas/v4"],
		["opencode", "https://opencode.ai/zen/v1"],
		["custom", "https://opencode.ai/zen/v1"],
	])("%s at %s gets neither store nor the developer role", (provider, baseUrl) => {
		const compat = detectCompletionsCompat(modelAt(provider, baseUrl));
		expect(compat.supportsStore).toBe(false);
		expect(compat.supportsDeveloperRole).toBe(false);
	});

	it.each([
		["openai", "https://api.openai.com/v1"],
		["groq", "https://api.groq.com/openai/v1"],
		["openrouter", "https://openrouter.ai/api/v1"],
		["ollama", "http://localhost:11434/v1"],
	])("%s is standard: store and developer role", (provider, baseUrl) => {
		const compat = detectCompletionsCompat(modelAt(provider, baseUrl));
		expect(compat.supportsStore).toBe(true);
		expect(compat.supportsDeveloperRole).toBe(true);
	});
});

describe("per-provider defaults", () => {
	it("turns reasoning_effort off for xAI and Z.ai only", () => {
		expect(detectCompletionsCompat(modelAt("xai", "https://api.x.ai/v1")).supportsReasoningEffort).toBe(false);
		expect(detectCompletionsCompat(modelAt("zai", "https://api.z.ai/v4")).supportsReasoningEffort).toBe(false);
		expect(detectCompletionsCompat(modelAt("cerebras", "https://api.cerebras.ai/v1")).supportsReasoningEffort).toBe(
			true,
		);
	});

	it("uses the zai thinking format for Z.ai and openai elsewhere", () => {
		expect(detectCompletionsCompat(modelAt("zai", "https://api.z.ai/v4")).thinkingFormat).toBe("zai");
		expect(detectCompletionsCompat(modelAt("openai", "https://api.openai.com/v1")).thinkingFormat).toBe("openai");
	});

	it("uses max_tokens only for chutes.ai", () => {
		expect(detectCompletionsCompat(modelAt("custom", "https://llm.chutes.ai/v1")).maxTokensField).toBe("max_tokens");
		expect(detectCompletionsCompat(modelAt("openai", "https://api.openai.com/v1")).maxTokensField).toBe(
			"max_completion_tokens",
		);
	});

	it("maps every level to default for Groq's qwen/qwen3-32b", () => {
		const compat = detectCompletionsCompat(modelAt("groq", "https://api.groq.com/openai/v1", "qwen/qwen3-32b"));
		expect(compat.reasoningEffortMap).toMatchObject({ low: "default", medium: "default", high: "default" });
		expect(
			detectCompletionsCompat(modelAt("groq", "https://api.groq.com/openai/v1", "llama")).reasoningEffortMap,
		).toEqual({});
	});

	it("defaults the remaining switches", () => {
		expect(detectCompletionsCompat(modelAt("openai", "https://api.openai.com/v1"))).toMatchObject({
			supportsUsageInStreaming: true,
			requiresToolResultName: false,
			requiresAssistantAfterToolResult: false,
			requiresThinkingAsText: false,
			openRouterRouting: {},
			vercelGatewayRouting: {},
			supportsStrictMode: true,
		});
	});
});

describe("model compat overrides", () => {
	it("overrides detected values field by field and leaves unset fields detected", () => {
		const model = openaiTestModel("openai-completions", "https://api.cerebras.ai/v1", {
			provider: "cerebras",
			compat: { supportsStore: true, maxTokensField: "max_tokens", supportsDeveloperRole: undefined },
		});
		const compat = resolveCompletionsCompat(model);
		expect(compat.supportsStore).toBe(true);
		expect(compat.maxTokensField).toBe("max_tokens");
		expect(compat.supportsDeveloperRole).toBe(false);
	});
});
