import { describe, expect, it, vi } from "vitest";
import { getModel, getModels, getProviders, MODELS, type Model, modelsAreEqual, supportsXhigh } from "../src/index.js";

/** The API(s) and base URL(s) of each provider we serve, as the reference catalog has them. */
const PROVIDER_ENDPOINTS: Record<string, Record<string, string>> = {
	anthropic: { "anthropic-messages": "https://api.anthropic.com" },
	openai: { "openai-responses": "https://api.openai.com/v1" },
	// The resource's URL comes from AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME at run time.
	"azure-openai-responses": { "azure-openai-responses": "" },
	google: { "google-generative-ai": "https://generativelanguage.googleapis.com/v1beta" },
	// A template: the SDK picks the endpoint of the location (or the express-mode one for an API key).
	"google-vertex": { "google-vertex": "https://{location}-aiplatform.googleapis.com" },
	// The SDK replaces the region with the configured one.
	"amazon-bedrock": { "bedrock-converse-stream": "https://bedrock-runtime.us-east-1.amazonaws.com" },
	xai: { "openai-completions": "https://api.x.ai/v1" },
	groq: { "openai-completions": "https://api.groq.com/openai/v1" },
	cerebras: { "openai-completions": "https://api.cerebras.ai/v1" },
	openrouter: { "openai-completions": "https://openrouter.ai/api/v1" },
	"vercel-ai-gateway": { "anthropic-messages": "https://ai-gateway.vercel.sh" },
	zai: { "openai-completions": "https://api.z.ai/api/coding/paas/v4" },
	mistral: { "mistral-conversations": "https://api.mistral.ai" },
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
	"openai-codex": { "openai-codex-responses": "https://chatgpt.com/backend-api" },
	"github-copilot": {
		"anthropic-messages": "https://api.individual.githubcopilot.com",
		"openai-completions": "https://api.individual.githubcopilot.com",
		"openai-responses": "https://api.individual.githubcopilot.com",
	},
	"google-gemini-cli": { "google-gemini-cli": "https://cloudcode-pa.googleapis.com" },
	"google-antigravity": { "google-gemini-cli": "https://daily-cloudcode-pa.sandbox.googleapis.com" },
};

/** Bedrock models name the public endpoint of their region (`eu.*` profiles an EU one). */
const BEDROCK_ENDPOINT = /^https:\/\/bedrock-runtime\.[a-z]{2}-[a-z]+-\d\.amazonaws\.com$/;

/** The model the reference starts with for each provider of our catalog. */
const DEFAULT_MODELS: Record<string, string> = {
	"amazon-bedrock": "us.anthropic.claude-opus-4-6-v1",
	anthropic: "claude-opus-4-6",
	openai: "gpt-5.4",
	"azure-openai-responses": "gpt-5.2",
	"google-vertex": "gemini-3-pro-preview",
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
	"openai-codex": "gpt-5.4",
	"google-gemini-cli": "gemini-2.5-pro",
	"google-antigravity": "gemini-3.1-pro-high",
	"github-copilot": "gpt-4o",
};
/** Default models that the reference catalog lacks too. */
const KNOWN_ABSENT_DEFAULTS = new Set(["cerebras/zai-glm-4.6", "vercel-ai-gateway/anthropic/claude-opus-4-6"]);

const allModels: Model[] = getProviders().flatMap((provider) => getModels(provider));

describe("catalog providers", () => {
	it("lists exactly the providers whose API we serve", () => {
		expect(new Set(getProviders())).toEqual(new Set(Object.keys(PROVIDER_ENDPOINTS)));
	});

	it("returns undefined for an unknown model or provider", () => {
		expect(getModel("anthropic", "claude-nonexistent")).toBeUndefined();
		expect(getModel("nobody", "gpt-5.4")).toBeUndefined();
	});

	it("knows no model or provider named after what every object inherits", () => {
		for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
			expect(getModel("anthropic", name)).toBeUndefined();
			expect(getModel(name, "constructor")).toBeUndefined();
			expect(getModels(name)).toEqual([]);
		}
	});

	it("lists providers and each provider's models in catalog order, each model its catalog object", () => {
		expect(getProviders()).toEqual(Object.keys(MODELS));
		for (const [provider, models] of Object.entries(MODELS)) {
			const listed = getModels(provider);
			expect(listed).toHaveLength(Object.keys(models).length);
			for (const [index, [id, model]] of Object.entries(models).entries()) {
				expect(listed[index]).toBe(model);
				expect(getModel(provider, id)).toBe(model);
			}
			expect(getModels(provider)).not.toBe(listed);
		}
	});

	it("parses a provider's models the first time they are read, and no other provider's", async () => {
		vi.resetModules();
		const parse = vi.spyOn(JSON, "parse");
		try {
			const fresh = (await import("../src/models.js")) as typeof import("../src/models.js");
			expect(fresh.getProviders()).toEqual(getProviders());
			expect(parse).not.toHaveBeenCalled();
			const model = fresh.getModel("anthropic", "claude-sonnet-4-5");
			expect(model?.provider).toBe("anthropic");
			expect(fresh.getModels("anthropic")).toContain(model);
			expect(fresh.getModels("openai")).toHaveLength(getModels("openai").length);
			expect(parse).toHaveBeenCalledTimes(2);
		} finally {
			parse.mockRestore();
		}
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
			if (provider === "amazon-bedrock") expect(model.baseUrl, model.id).toMatch(BEDROCK_ENDPOINT);
			else expect(model.baseUrl, model.id).toBe(endpoints[model.api]);
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

describe("catalog compat settings", () => {
	it("mark every zai model as zai-thinking without the developer role", () => {
		for (const model of getModels("zai")) {
			expect(model.compat).toEqual({ supportsDeveloperRole: false, thinkingFormat: "zai" });
		}
	});

	it("mark every huggingface model as having no developer role", () => {
		for (const model of getModels("huggingface")) expect(model.compat).toEqual({ supportsDeveloperRole: false });
	});

	it("are set only on Chat Completions models", () => {
		const withCompat = allModels.filter((model) => model.compat !== undefined);
		expect(new Set(withCompat.map((model) => model.api))).toEqual(new Set(["openai-completions"]));
	});
});

describe("catalog rows as the reference catalog has them", () => {
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
	});
});

describe("catalog coverage", () => {
	it("holds every model the reference (pi-ai 0.58.3) lists for the providers we serve", async () => {
		// The reference's package (a devDependency of the catalog generator) exports only its entry; its catalog
		// module beside it imports nothing.
		const file = new URL("../node_modules/pi-ai-0.58.3/dist/models.generated.js", import.meta.url).href;
		const reference = (await import(/* @vite-ignore */ file)).MODELS as Record<string, Record<string, Model>>;
		let checked = 0;
		for (const provider of Object.keys(PROVIDER_ENDPOINTS)) {
			for (const id of Object.keys(reference[provider] ?? {})) {
				expect(getModel(provider, id), `${provider}/${id}`).toBeDefined();
				checked++;
			}
		}
		expect(checked).toBeGreaterThan(700);
	});

	it("serves each cloud account's current models", () => {
		expect(getModel("amazon-bedrock", "global.anthropic.claude-opus-4-6-v1")?.api).toBe("bedrock-converse-stream");
		expect(getModel("google-vertex", "gemini-3.1-pro-preview")?.api).toBe("google-vertex");
		expect(getModel("azure-openai-responses", "gpt-5.4")?.api).toBe("azure-openai-responses");
		expect(getModel("mistral", "devstral-medium-latest")?.api).toBe("mistral-conversations");
	});
});

describe("default model per provider", () => {
	it.each(Object.entries(DEFAULT_MODELS))(
		"of %s is in the catalog unless the reference catalog lacks it too",
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
