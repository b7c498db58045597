import { describe, expect, it } from "vitest";
import { getModel, getModels, getProviders, MODELS, type Model, modelsAreEqual, supportsXhigh } from "../src/index.js";

/** Spec ai §6: the API(s) and base URL(s) of each provider we serve. */
const PROVIDER_ENDPOINTS: Record<string, Record<string, string>> = {
	anthropic: { "anthropic-messages": "https://api.anthropic.com" },
	openai: { "openai-responses": "https://api.openai.com/v1" },
	google: { "google-generative-ai": "https://generativelanguage.googleapis.com/v1beta" },
	xai: { "openai-completions": "https://api.x.ai/v1" },
	groq: { "openai-completions": "https://api.groq.com/openai/v1" },
	cerebras: { "openai-completions": "https://api.cerebras.ai/v1" },
	openrouter: { "openai-completions": "https://openrouter.ai/api/v1" },
	"vercel-ai-gateway": { "anthropic-messages": "https://ai-gateway.vercel.sh" },
	zai: { "openai-completions": "https://api.z.ai/api/coding/paas/v4" },
	// Ours differs: served through Mistral's OpenAI-compatible endpoint instead of mistral-conversations.
	mistral: { "openai-completions": "https://api.mistral.ai/v1" },
	minimax: { "anthropic-messages": "https://api.minimax.io/anthropic" },
	"minimax-cn": { "anthropic-messages": "https://api.minimaxi.com/anthropic" },
	huggingface: { "openai-completions": "https://router.huggingface.co/v1" },
	opencode: {
		"anthropic-messages": "https://opencode.ai/zen",
		"google-generative-ai": "https://opencode.ai/zen/v1",
		"openai-completions": "https://opencode.ai/zen/v1",
		"openai-responses": "https://opencode.ai/zen/v1",
	},
	"opencode-go": {
		"anthropic-messages": "https://opencode.ai/zen/go",
		"openai-completions": "https://opencode.ai/zen/go/v1",
	},
	"kimi-coding": { "anthropic-messages": "https://api.kimi.com/coding" },
};

/** Spec ai §12 "Default model per provider", for the providers in our catalog. */
const DEFAULT_MODELS: Record<string, string> = {
	anthropic: "claude-opus-4-6",
	openai: "gpt-5.4",
	google: "gemini-2.5-pro",
	openrouter: "openai/gpt-5.1-codex",
	"vercel-ai-gateway": "anthropic/claude-opus-4-6",
	xai: "grok-4-fast-non-reasoning",
	groq: "openai/gpt-oss-120b",
	cerebras: "zai-glm-4.6",
	zai: "glm-4.6",
	mistral: "devstral-medium-latest",
	minimax: "MiniMax-M2.1",
	"minimax-cn": "MiniMax-M2.1",
	huggingface: "moonshotai/Kimi-K2.5",
	opencode: "claude-opus-4-6",
	"opencode-go": "kimi-k2.5",
	"kimi-coding": "kimi-k2-thinking",
};
/** Defaults the spec records as absent from the reference catalog too. */
const KNOWN_ABSENT_DEFAULTS = new Set(["cerebras/zai-glm-4.6", "vercel-ai-gateway/anthropic/claude-opus-4-6"]);

const EXCLUDED_PROVIDERS = [
	"amazon-bedrock",
	"azure-openai-responses",
	"openai-codex",
	"google-gemini-cli",
	"google-antigravity",
	"google-vertex",
	"github-copilot",
];

const allModels: Model[] = getProviders().flatMap((provider) => getModels(provider));

describe("catalog providers", () => {
	it("lists exactly the providers whose API we serve", () => {
		expect(new Set(getProviders())).toEqual(new Set(Object.keys(PROVIDER_ENDPOINTS)));
	});

	it.each(EXCLUDED_PROVIDERS)("has no models for %s", (provider) => {
		expect(getModels(provider)).toEqual([]);
	});

	it("returns undefined for an unknown model or provider", () => {
		expect(getModel("anthropic", "claude-nonexistent")).toBeUndefined();
		expect(getModel("nobody", "gpt-5.4")).toBeUndefined();
	});
});

describe.each(Object.keys(PROVIDER_ENDPOINTS))("catalog entries of %s", (provider) => {
	const models = getModels(provider);

	it("exist", () => {
		expect(models.length).toBeGreaterThan(0);
	});

	it("name their provider, an API it is served by and that API's base URL", () => {
		const endpoints = PROVIDER_ENDPOINTS[provider] ?? {};
		for (const model of models) {
			expect(model.provider).toBe(provider);
			expect(Object.keys(endpoints)).toContain(model.api);
			expect(model.baseUrl, model.id).toBe(endpoints[model.api]);
		}
	});

	it("are keyed by their own unique id", () => {
		const table = MODELS[provider as keyof typeof MODELS];
		for (const [key, model] of Object.entries(table)) expect(model.id).toBe(key);
		expect(new Set(models.map((model) => model.id)).size).toBe(models.length);
	});

	it("have positive windows with output limits inside the context window", () => {
		for (const model of models) {
			expect(Number.isInteger(model.contextWindow) && model.contextWindow > 0, model.id).toBe(true);
			expect(Number.isInteger(model.maxTokens) && model.maxTokens > 0, model.id).toBe(true);
			expect(model.maxTokens, model.id).toBeLessThanOrEqual(model.contextWindow);
		}
	});

	it("have finite non-negative prices, text input and a display name", () => {
		for (const model of models) {
			for (const price of Object.values(model.cost))
				expect(Number.isFinite(price) && price >= 0, model.id).toBe(true);
			expect(model.input).toContain("text");
			for (const kind of model.input) expect(["text", "image"]).toContain(kind);
			expect(model.name.trim()).not.toBe("");
		}
	});
});

describe("catalog compat settings (spec ai §7.2)", () => {
	it("mark every zai model as zai-thinking without the developer role", () => {
		for (const model of getModels("zai")) {
			expect(model.compat).toEqual({ supportsDeveloperRole: false, thinkingFormat: "zai" });
		}
	});

	it("mark every huggingface model as having no developer role", () => {
		for (const model of getModels("huggingface")) expect(model.compat).toEqual({ supportsDeveloperRole: false });
	});

	it("give Mistral models the switches its OpenAI-compatible endpoint needs", () => {
		for (const model of getModels("mistral")) {
			expect(model.compat).toMatchObject({
				supportsStore: false,
				supportsDeveloperRole: false,
				maxTokensField: "max_tokens",
				requiresToolResultName: true,
			});
		}
	});

	it("leave compat unset on every other provider", () => {
		const withCompat = allModels.filter((model) => model.compat !== undefined);
		expect(new Set(withCompat.map((model) => model.provider))).toEqual(new Set(["zai", "huggingface", "mistral"]));
	});
});

describe("catalog rows from the spec snapshot", () => {
	it("keep each transcribed field", () => {
		expect(getModel("anthropic", "claude-opus-4-6")).toEqual({
			id: "claude-opus-4-6",
			name: "Claude Opus 4.6",
			api: "anthropic-messages",
			provider: "anthropic",
			baseUrl: "https://api.anthropic.com",
			reasoning: true,
			input: ["text", "image"],
			cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
			contextWindow: 1000000,
			maxTokens: 128000,
		});
		expect(getModel("cerebras", "llama3.1-8b")).toMatchObject({
			reasoning: false,
			input: ["text"],
			contextWindow: 32000,
			maxTokens: 8000,
			cost: { input: 0.1, output: 0.1, cacheRead: 0, cacheWrite: 0 },
		});
	});

	it("route each opencode model through the API its row names", () => {
		expect(getModel("opencode", "gemini-3-pro")?.api).toBe("google-generative-ai");
		expect(getModel("opencode", "glm-4.7")?.api).toBe("openai-completions");
		expect(getModel("opencode", "gpt-5.4")?.api).toBe("openai-responses");
		expect(getModel("opencode-go", "minimax-m2.5")).toMatchObject({
			api: "anthropic-messages",
			baseUrl: "https://opencode.ai/zen/go",
		});
	});
});

describe("default model per provider", () => {
	it.each(Object.entries(DEFAULT_MODELS))(
		"of %s is in the catalog unless the spec records it absent",
		(provider, id) => {
			const present = getModel(provider, id) !== undefined;
			expect(present).toBe(!KNOWN_ABSENT_DEFAULTS.has(`${provider}/${id}`));
		},
	);
});

describe("modelsAreEqual", () => {
	const opus = getModel("anthropic", "claude-opus-4-6");
	it("compares provider and id only", () => {
		expect(modelsAreEqual(opus, opus && { ...opus, name: "renamed", contextWindow: 1 })).toBe(true);
		expect(modelsAreEqual(opus, getModel("opencode", "claude-opus-4-6"))).toBe(false);
		expect(modelsAreEqual(opus, getModel("anthropic", "claude-sonnet-4-6"))).toBe(false);
	});

	it("is false when either side is missing", () => {
		expect(modelsAreEqual(opus, undefined)).toBe(false);
		expect(modelsAreEqual(null, opus)).toBe(false);
		expect(modelsAreEqual(undefined, undefined)).toBe(false);
	});
});

describe("supportsXhigh", () => {
	it.each(["gpt-5.2", "gpt-5.3-codex", "gpt-5.4-pro", "claude-opus-4-6", "anthropic/claude-opus-4.6"])(
		"accepts %s",
		(id) => {
			expect(supportsXhigh({ id })).toBe(true);
		},
	);

	it.each(["gpt-5.1", "gpt-5", "claude-opus-4-5", "claude-sonnet-4-6", "gemini-2.5-pro"])("clamps %s", (id) => {
		expect(supportsXhigh({ id })).toBe(false);
	});
});
