// The request builders the package entry exports under the reference's names: buildRequest (the Cloud Code Assist
// envelope) and convertMessages (Chat Completions messages). Neither needs a provider SDK loaded.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { buildRequest, convertMessages, type Model, type OpenAICompletionsCompat } from "../src/index.js";
import type { Context } from "../src/types.js";
import { openaiTestModel } from "./helpers/provider-test-harness.js";

const context: Context = {
	systemPrompt: "Be brief.",
	messages: [{ role: "user", content: "hello", timestamp: 1 }],
	tools: [{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) }],
};

function geminiCliModel(overrides: Partial<Model<"google-gemini-cli">> = {}): Model<"google-gemini-cli"> {
	return {
		id: "gemini-3-pro-preview",
		name: "Gemini 3 Pro (Cloud Code Assist)",
		api: "google-gemini-cli",
		provider: "google-gemini-cli",
		baseUrl: "https://cloudcode-pa.googleapis.com",
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1_048_576,
		maxTokens: 65_536,
		...overrides,
	};
}

describe("buildRequest", () => {
	it("wraps a generateContent request in the project and model envelope", () => {
		const request = buildRequest(geminiCliModel(), context, "my-project", {
			maxTokens: 512,
			toolChoice: "any",
			thinking: { enabled: true, level: "HIGH" },
		});
		expect(request.project).toBe("my-project");
		expect(request.model).toBe("gemini-3-pro-preview");
		expect(request.request.contents).toEqual([{ role: "user", parts: [{ text: "hello" }] }]);
		expect(request.request.systemInstruction).toEqual({ parts: [{ text: "Be brief." }] });
		expect(request.request.generationConfig).toEqual({
			maxOutputTokens: 512,
			thinkingConfig: { includeThoughts: true, thinkingLevel: "HIGH" },
		});
		expect(request.request.tools?.[0]?.functionDeclarations?.[0]?.name).toBe("read");
		expect(request.request.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY" } });
	});

	it("introduces Antigravity requests as its agent when asked to", () => {
		const request = buildRequest(geminiCliModel(), context, "p", {}, true);
		expect(request.request.systemInstruction?.parts[0]?.text).toContain("You are Antigravity");
		expect(request.requestType).toBe("agent");
		expect(request.userAgent).toBe("antigravity");
	});
});

describe("convertMessages", () => {
	const compat: Required<OpenAICompletionsCompat> = {
		supportsStore: true,
		supportsDeveloperRole: true,
		supportsReasoningEffort: true,
		reasoningEffortMap: {},
		supportsUsageInStreaming: true,
		maxTokensField: "max_completion_tokens",
		requiresToolResultName: false,
		requiresAssistantAfterToolResult: false,
		requiresThinkingAsText: false,
		thinkingFormat: "openai",
		openRouterRouting: {},
		vercelGatewayRouting: {},
		supportsStrictMode: true,
	};

	it("turns the system prompt and messages into Chat Completions messages", () => {
		const model = openaiTestModel("openai-completions", "http://127.0.0.1:9");
		expect(convertMessages({ ...model, reasoning: false }, context, compat)).toEqual([
			{ role: "system", content: "Be brief." },
			{ role: "user", content: "hello" },
		]);
	});

	it("sends the system prompt in the developer role to reasoning models that support it", () => {
		const model = openaiTestModel("openai-completions", "http://127.0.0.1:9");
		const messages = convertMessages({ ...model, reasoning: true }, context, compat);
		expect(messages[0]).toEqual({ role: "developer", content: "Be brief." });
	});
});
