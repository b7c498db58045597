import { afterEach, describe, expect, it } from "vitest";
import { createFauxProvider, getApiProvider, resetApiProviders, stream, streamSimple } from "../src/index.js";
import type { Model } from "../src/types.js";

afterEach(() => resetApiProviders());

describe("API registry", () => {
	it("registers the eight built-in APIs at load time", () => {
		for (const api of [
			"anthropic-messages",
			"openai-completions",
			"openai-responses",
			"google-generative-ai",
			"google-vertex",
			"azure-openai-responses",
			"bedrock-converse-stream",
			"mistral-conversations",
		]) {
			expect(getApiProvider(api)).toBeDefined();
		}
	});

	it("throws for an API nobody registered", () => {
		const model = { api: "nope", provider: "x", id: "m" } as unknown as Model;
		expect(() => stream(model, { messages: [] })).toThrow("No API provider registered for api: nope");
	});

	it("rejects a model passed to another API's implementation", () => {
		const faux = createFauxProvider({ api: "faux-a" });
		const wrong = { ...faux.model(), api: "faux-b" };
		expect(() => getApiProvider("faux-a")?.stream(wrong, { messages: [] })).toThrow(
			"Mismatched api: faux-b expected faux-a",
		);
	});

	it("streamSimple throws synchronously when a built-in provider has no API key", () => {
		const model: Model = {
			id: "m",
			name: "m",
			api: "anthropic-messages",
			provider: "no-such-provider",
			baseUrl: "http://127.0.0.1:1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 1000,
			maxTokens: 100,
		};
		expect(() => streamSimple(model, { messages: [] })).toThrow("No API key for provider: no-such-provider");
	});
});
