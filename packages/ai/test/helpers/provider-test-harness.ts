// What provider tests and benchmarks set up around an adapter: a FakeServer for the file, models that
// point at it, and a guard against leaked promise rejections.
import { afterAll, beforeAll, expect } from "vitest";
import type { Model } from "../../src/types.js";
import { FakeServer } from "./fake-server.js";

/** A FakeServer for the tests of one file: listening before the first test, closed after the last. */
export function useFakeServer(): FakeServer {
	const server = new FakeServer();
	beforeAll(() => server.listen());
	afterAll(() => server.close());
	return server;
}

/**
 * Vitest reports unhandled rejections as failures; this also names the file that leaked one, by
 * failing the file when any arrived while its tests ran.
 */
export function expectNoUnhandledRejections(): void {
	const unhandled: unknown[] = [];
	const onUnhandled = (reason: unknown) => unhandled.push(reason);
	beforeAll(() => {
		process.on("unhandledRejection", onUnhandled);
	});
	afterAll(() => {
		process.off("unhandledRejection", onUnhandled);
		expect(unhandled).toEqual([]);
	});
}

export function claudeSonnet4(
	baseUrl: string,
	overrides: Partial<Model<"anthropic-messages">> = {},
): Model<"anthropic-messages"> {
	return {
		id: "claude-sonnet-4-0",
		name: "Claude Sonnet 4",
		api: "anthropic-messages",
		provider: "anthropic",
		baseUrl,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: 64_000,
		...overrides,
	};
}

/** `baseUrl` includes the API version path, e.g. `${server.url}/v1beta`. */
export function gemini25Pro(
	baseUrl: string,
	overrides: Partial<Model<"google-generative-ai">> = {},
): Model<"google-generative-ai"> {
	return {
		id: "gemini-2.5-pro",
		name: "Gemini 2.5 Pro",
		api: "google-generative-ai",
		provider: "google",
		baseUrl,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 1.25, output: 10, cacheRead: 0.31, cacheWrite: 0 },
		contextWindow: 1_048_576,
		maxTokens: 65_536,
		...overrides,
	};
}

/** `baseUrl` includes the API version path, e.g. `${server.url}/v1beta`. */
export function gemini25Flash(
	baseUrl: string,
	overrides: Partial<Model<"google-generative-ai">> = {},
): Model<"google-generative-ai"> {
	return gemini25Pro(baseUrl, {
		id: "gemini-2.5-flash",
		name: "Gemini 2.5 Flash",
		cost: { input: 0.3, output: 2.5, cacheRead: 0.075, cacheWrite: 0 },
		...overrides,
	});
}

/** A model of an OpenAI API (or a server speaking it): `test-model` of `test-provider`. */
export function openaiTestModel<TApi extends "openai-completions" | "openai-responses">(
	api: TApi,
	baseUrl: string,
	overrides: Partial<Model<TApi>> = {},
): Model<TApi> {
	return {
		id: "test-model",
		name: "Test Model",
		api,
		provider: "test-provider",
		baseUrl,
		reasoning: false,
		input: ["text", "image"],
		cost: { input: 2, output: 10, cacheRead: 0.5, cacheWrite: 0 },
		contextWindow: 128000,
		maxTokens: 16000,
		...overrides,
	};
}

/** Claude Sonnet 4.5 on Bedrock, its endpoint overridden to `baseUrl`. */
export function bedrockClaude(
	baseUrl: string,
	overrides: Partial<Model<"bedrock-converse-stream">> = {},
): Model<"bedrock-converse-stream"> {
	return {
		id: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
		name: "Claude Sonnet 4.5 (US)",
		api: "bedrock-converse-stream",
		provider: "amazon-bedrock",
		baseUrl,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: 64_000,
		...overrides,
	};
}

/** Gemini 2.5 Flash on Vertex AI; `baseUrl` replaces the regional host (the SDK adds `/v1/…`). */
export function vertexGemini(baseUrl: string, overrides: Partial<Model<"google-vertex">> = {}): Model<"google-vertex"> {
	return {
		id: "gemini-2.5-flash",
		name: "Gemini 2.5 Flash (Vertex)",
		api: "google-vertex",
		provider: "google-vertex",
		baseUrl,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
		contextWindow: 1_048_576,
		maxTokens: 65_536,
		...overrides,
	};
}

/** A deployment of an Azure OpenAI resource; `baseUrl` ends in `/openai/v1` as Azure's does. */
export function azureTestModel(
	baseUrl: string,
	overrides: Partial<Model<"azure-openai-responses">> = {},
): Model<"azure-openai-responses"> {
	return {
		id: "gpt-5.2",
		name: "GPT-5.2",
		api: "azure-openai-responses",
		provider: "azure-openai-responses",
		baseUrl,
		reasoning: false,
		input: ["text", "image"],
		cost: { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 0 },
		contextWindow: 400_000,
		maxTokens: 128_000,
		...overrides,
	};
}

/** A Mistral model; `baseUrl` is the server root (the SDK adds `/v1/chat/completions`). */
export function mistralTestModel(
	baseUrl: string,
	overrides: Partial<Model<"mistral-conversations">> = {},
): Model<"mistral-conversations"> {
	return {
		id: "devstral-medium-latest",
		name: "Devstral 2 (latest)",
		api: "mistral-conversations",
		provider: "mistral",
		baseUrl,
		reasoning: false,
		input: ["text"],
		cost: { input: 0.4, output: 2, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 262_144,
		maxTokens: 262_144,
		...overrides,
	};
}
