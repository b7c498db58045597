import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
	getApiProvider,
	getModels,
	getProviders,
	type Model,
} from "@agent/ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthStorage, clearConfigValueCache, ModelRegistry } from "../../src/core/config/index.js";
import { SessionManager } from "../../src/core/session/index.js";
import { assistantMessage, userMessage, useTempDirs } from "../helpers/session-fixtures.js";

afterEach(() => clearConfigValueCache());

function firstBuiltIn(): Model {
	for (const provider of getProviders()) {
		const [model] = getModels(provider);
		if (model) return model;
	}
	throw new Error("empty catalog");
}

describe("model registry contents", () => {
	const tempDir = useTempDirs("agent-registry-");

	function registryWith(config: unknown, env: NodeJS.ProcessEnv = {}): ModelRegistry {
		const path = join(tempDir(), "models.json");
		writeFileSync(path, JSON.stringify(config));
		const registry = new ModelRegistry(AuthStorage.inMemory({}, env), path, env);
		expect(registry.getError()).toBeUndefined();
		return registry;
	}

	it("holds the whole built-in catalog without models.json", () => {
		const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {});
		const expected = getProviders().flatMap((p) => getModels(p));
		expect(registry.getAll()).toEqual(expected);
		expect(registry.getAll()[0]).not.toBe(expected[0]);
	});

	it("adds custom providers' models with the documented defaults", () => {
		const registry = registryWith({
			providers: {
				ollama: {
					baseUrl: "http://localhost:11434/v1",
					api: "openai-completions",
					apiKey: "ollama",
					compat: { supportsDeveloperRole: false },
					models: [
						{ id: "llama3.1:8b" },
						{ id: "gpt-oss:20b", reasoning: true, compat: { maxTokensField: "max_tokens" } },
					],
				},
			},
		});
		expect(registry.find("ollama", "llama3.1:8b")).toEqual({
			id: "llama3.1:8b",
			name: "llama3.1:8b",
			api: "openai-completions",
			provider: "ollama",
			baseUrl: "http://localhost:11434/v1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128000,
			maxTokens: 16384,
			compat: { supportsDeveloperRole: false },
		});
		expect(registry.find("ollama", "gpt-oss:20b")).toMatchObject({
			reasoning: true,
			compat: { supportsDeveloperRole: false, maxTokensField: "max_tokens" },
		});
		expect(registry.getProviders()).toContain("ollama");
	});

	it("applies provider-level baseUrl, headers and compat to every built-in model of that provider", () => {
		const builtIn = firstBuiltIn();
		const registry = registryWith(
			{
				providers: {
					[builtIn.provider]: {
						baseUrl: "https://proxy.example/v1",
						headers: { "X-Team": "TEAM_VAR", "X-None": "!false" },
					},
				},
			},
			{ TEAM_VAR: "core" },
		);
		for (const model of registry.getAll().filter((m) => m.provider === builtIn.provider)) {
			expect(model.baseUrl).toBe("https://proxy.example/v1");
			expect(model.headers).toMatchObject({ "X-Team": "core" });
			expect(model.headers).not.toHaveProperty("X-None");
		}
		expect(getModels(builtIn.provider)[0]?.baseUrl).toBe(builtIn.baseUrl);
	});

	it("applies modelOverrides with partial costs, ignoring unknown ids", () => {
		const builtIn = firstBuiltIn();
		const registry = registryWith({
			providers: {
				[builtIn.provider]: {
					modelOverrides: {
						[builtIn.id]: { name: "Renamed", cost: { input: 99 }, contextWindow: 1234 },
						"no-such-model": { name: "ignored" },
					},
				},
			},
		});
		const model = registry.find(builtIn.provider, builtIn.id);
		expect(model).toMatchObject({ name: "Renamed", contextWindow: 1234, cost: { ...builtIn.cost, input: 99 } });
		expect(registry.find(builtIn.provider, "no-such-model")).toBeUndefined();
	});

	it("overrides the cloud providers' models and endpoints like any other", () => {
		const registry = registryWith({
			providers: {
				"amazon-bedrock": {
					baseUrl: "https://vpce-1.bedrock-runtime.us-east-1.vpce.amazonaws.com",
					modelOverrides: { "us.anthropic.claude-opus-4-6-v1": { maxTokens: 32000 } },
				},
				"google-vertex": { modelOverrides: { "gemini-2.5-pro": { name: "Gemini (work)" } } },
			},
		});
		expect(registry.find("amazon-bedrock", "us.anthropic.claude-opus-4-6-v1")).toMatchObject({
			api: "bedrock-converse-stream",
			baseUrl: "https://vpce-1.bedrock-runtime.us-east-1.vpce.amazonaws.com",
			maxTokens: 32000,
		});
		expect(registry.find("google-vertex", "gemini-2.5-pro")?.name).toBe("Gemini (work)");
	});

	it("makes the cloud providers available from their environment credentials", () => {
		const providersOf = (env: NodeJS.ProcessEnv) =>
			new Set(
				new ModelRegistry(AuthStorage.inMemory({}, env), undefined, env).getAvailable().map((m) => m.provider),
			);
		expect(providersOf({ AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" })).toEqual(new Set(["amazon-bedrock"]));
		expect(providersOf({ AWS_BEARER_TOKEN_BEDROCK: "t" })).toEqual(new Set(["amazon-bedrock"]));
		expect(providersOf({ GOOGLE_CLOUD_API_KEY: "k" })).toEqual(new Set(["google-vertex"]));
		expect(providersOf({ AZURE_OPENAI_API_KEY: "k" })).toEqual(new Set(["azure-openai-responses"]));
	});

	it("replaces a built-in model by a custom one with the same provider and id", () => {
		const builtIn = firstBuiltIn();
		const registry = registryWith({
			providers: {
				[builtIn.provider]: {
					baseUrl: "http://local",
					apiKey: "k",
					api: "openai-completions",
					models: [{ id: builtIn.id, contextWindow: 1000 }, { id: "brand-new" }],
				},
			},
		});
		const all = registry.getAll().filter((m) => m.provider === builtIn.provider);
		expect(all.filter((m) => m.id === builtIn.id)).toHaveLength(1);
		expect(registry.find(builtIn.provider, builtIn.id)).toMatchObject({
			contextWindow: 1000,
			api: "openai-completions",
		});
		expect(all[all.length - 1]?.id).toBe("brand-new");
	});

	it("adds Authorization: Bearer <apiKey> to custom models when authHeader is set", () => {
		const registry = registryWith(
			{
				providers: {
					proxy: {
						baseUrl: "http://p",
						api: "anthropic-messages",
						apiKey: "PROXY_KEY",
						authHeader: true,
						headers: { "X-A": "a" },
						models: [{ id: "m", headers: { "X-A": "model-wins" } }],
					},
				},
			},
			{ PROXY_KEY: "secret-123" },
		);
		expect(registry.find("proxy", "m")?.headers).toEqual({ "X-A": "model-wins", Authorization: "Bearer secret-123" });
	});

	it("re-reads models.json on refresh", () => {
		const path = join(tempDir(), "models.json");
		writeFileSync(path, JSON.stringify({ providers: {} }));
		const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), path, {});
		expect(registry.find("ollama", "m")).toBeUndefined();
		writeFileSync(
			path,
			JSON.stringify({
				providers: {
					ollama: { baseUrl: "http://o", apiKey: "o", api: "openai-completions", models: [{ id: "m" }] },
				},
			}),
		);
		registry.refresh();
		expect(registry.find("ollama", "m")).toBeDefined();
	});
});

describe("availability", () => {
	const tempDir = useTempDirs("agent-registry-");

	it("lists only models whose provider has a credential", async () => {
		const path = join(tempDir(), "models.json");
		writeFileSync(
			path,
			JSON.stringify({
				providers: {
					keyed: { baseUrl: "http://k", api: "openai-completions", apiKey: "LOCAL", models: [{ id: "a" }] },
					unresolved: { baseUrl: "http://u", api: "openai-completions", apiKey: "!false", models: [{ id: "b" }] },
				},
			}),
		);
		const env = { LOCAL: "local-key" };
		const auth = AuthStorage.inMemory({}, env);
		const registry = new ModelRegistry(auth, path, env);
		expect(registry.getAvailable().map((m) => `${m.provider}/${m.id}`)).toEqual(["keyed/a"]);
		expect(await registry.getApiKey({ provider: "keyed" })).toBe("local-key");
		auth.setRuntimeApiKey("unresolved", "flag");
		expect(registry.getAvailable().map((m) => m.provider)).toEqual(["keyed", "unresolved"]);
	});

	it("counts environment keys for built-in providers", () => {
		const registry = new ModelRegistry(AuthStorage.inMemory({}, { ANTHROPIC_API_KEY: "x" }), undefined, {
			ANTHROPIC_API_KEY: "x",
		});
		const providers = new Set(registry.getAvailable().map((m) => m.provider));
		expect([...providers]).toEqual(getModels("anthropic").length > 0 ? ["anthropic"] : []);
	});
});

describe("providers registered by extensions", () => {
	it("replace the provider's models and register their stream under provider:<name>", () => {
		const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {});
		const streamSimple = (): AssistantMessageEventStream => createAssistantMessageEventStream();
		registry.registerProvider("my-llm", {
			baseUrl: "http://mine",
			api: "my-llm-api",
			apiKey: "k",
			models: [{ id: "one" }],
			streamSimple,
		});
		expect(
			registry
				.getAll()
				.filter((m) => m.provider === "my-llm")
				.map((m) => m.id),
		).toEqual(["one"]);
		expect(getApiProvider("my-llm-api")).toBeDefined();
		expect(registry.hasAuth("my-llm")).toBe(true);
		registry.unregisterProvider("my-llm");
		expect(registry.find("my-llm", "one")).toBeUndefined();
		expect(getApiProvider("my-llm-api")).toBeUndefined();
		expect(registry.hasAuth("my-llm")).toBe(false);
	});

	it("with only a baseUrl, move the existing models", () => {
		const builtIn = firstBuiltIn();
		const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {});
		registry.registerProvider(builtIn.provider, { baseUrl: "http://moved" });
		expect(registry.find(builtIn.provider, builtIn.id)?.baseUrl).toBe("http://moved");
		registry.unregisterProvider(builtIn.provider);
		expect(registry.find(builtIn.provider, builtIn.id)?.baseUrl).toBe(builtIn.baseUrl);
	});
});

describe("secrets never reach session files", () => {
	const tempDir = useTempDirs("agent-registry-");

	it("keeps keys and auth headers out of the entries a model switch writes", async () => {
		const dir = tempDir();
		const modelsPath = join(dir, "models.json");
		writeFileSync(
			modelsPath,
			JSON.stringify({
				providers: {
					proxy: {
						baseUrl: "http://p",
						api: "anthropic-messages",
						apiKey: "!echo sk-proxy-SECRET",
						authHeader: true,
						models: [{ id: "m" }],
					},
				},
			}),
		);
		const auth = AuthStorage.inMemory({ anthropic: { type: "api_key", key: "sk-ant-SECRET" } }, {});
		const registry = new ModelRegistry(auth, modelsPath, {});
		const model = registry.find("proxy", "m") as Model;
		expect(model.headers?.Authorization).toContain("SECRET");
		const session = SessionManager.create("/p", join(dir, "sessions"));
		session.appendModelChange(model.provider, model.id);
		session.appendMessage(userMessage("q"));
		session.appendMessage(assistantMessage("a", { provider: model.provider, model: model.id }));
		expect(await registry.getApiKey(model)).toBe("sk-proxy-SECRET");
		session.close();
		expect(readFileSync(session.getSessionFile() as string, "utf8")).not.toContain("SECRET");
	});
});

describe("models the registry hands out are its own copies", () => {
	const tempDir = useTempDirs("agent-registry-");

	it("a model equals the catalog's but is another object, the same one on every later lookup", () => {
		const builtIn = firstBuiltIn();
		const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {});
		const found = registry.find(builtIn.provider, builtIn.id) as Model;
		expect(found).toEqual(builtIn);
		expect(found).not.toBe(builtIn);
		expect(registry.find(builtIn.provider, builtIn.id)).toBe(found);
		expect(registry.getAll()).toContain(found);
		const all = registry.getAll();
		expect(all.every((model, index) => model === registry.getAll()[index])).toBe(true);
		expect(all.some((model) => getModels(model.provider).includes(model))).toBe(false);
	});

	it("getAvailable hands out the same copies as find and getAll", () => {
		const anthropic = getModels("anthropic");
		const registry = new ModelRegistry(
			AuthStorage.inMemory({ anthropic: { type: "api_key", key: "k" } }, {}),
			undefined,
			{},
		);
		const available = registry.getAvailable();
		expect(available).toEqual(anthropic);
		for (const model of anthropic) expect(available).not.toContain(model);
		const [first] = available as [Model];
		expect(registry.find(first.provider, first.id)).toBe(first);
		expect(registry.getAll()).toContain(first);
	});

	it("changing a model it handed out changes neither the catalog nor the model after a refresh", () => {
		const builtIn = firstBuiltIn();
		const before = structuredClone(builtIn);
		const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {});
		const found = registry.find(builtIn.provider, builtIn.id) as Model;
		found.baseUrl = "http://changed";
		found.input.push("image");
		found.cost.input = 1234;
		expect(builtIn).toEqual(before);
		registry.refresh();
		expect(registry.find(builtIn.provider, builtIn.id)).toEqual(before);
	});

	it("a sign-in that changes its models in place changes copies, never the catalog", () => {
		const copilot = getModels("github-copilot");
		const before = structuredClone(copilot);
		const auth = AuthStorage.inMemory(
			{ "github-copilot": { type: "oauth", refresh: "r", access: "a", expires: 0 } },
			{},
		);
		auth.registerOAuthProvider({
			id: "github-copilot",
			name: "GitHub Copilot",
			login: async () => ({ refresh: "r", access: "a", expires: 0 }),
			refreshToken: async (credentials) => credentials,
			getApiKey: (credentials) => credentials.access,
			modifyModels: (models) => {
				for (const model of models) if (model.provider === "github-copilot") model.baseUrl = "https://in.place";
				return models;
			},
		});
		const registry = new ModelRegistry(auth, undefined, {});
		const modified = registry.getAll().filter((model) => model.provider === "github-copilot");
		expect(modified.map((model) => model.baseUrl)).toEqual(copilot.map(() => "https://in.place"));
		expect(copilot).toEqual(before);
	});

	it("models.json's provider settings and overrides apply to copies, never the catalog", () => {
		const builtIn = firstBuiltIn();
		const before = structuredClone(builtIn);
		const path = join(tempDir(), "models.json");
		writeFileSync(
			path,
			JSON.stringify({
				providers: {
					[builtIn.provider]: { baseUrl: "http://proxy", modelOverrides: { [builtIn.id]: { name: "Renamed" } } },
				},
			}),
		);
		const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), path, {});
		expect(registry.find(builtIn.provider, builtIn.id)).toEqual({
			...before,
			baseUrl: "http://proxy",
			name: "Renamed",
		});
		expect(builtIn).toEqual(before);
	});
});

describe("the list is built when first needed", () => {
	const tempDir = useTempDirs("agent-registry-");

	it("a start that looks up its model reads only that provider's part of the catalog", async () => {
		vi.resetModules();
		const parse = vi.spyOn(JSON, "parse");
		try {
			const fresh = await import("../../src/core/config/index.js");
			const catalogParses = () =>
				parse.mock.calls.filter(([text]) => typeof text === "string" && text.includes('"provider":"')).length;
			const registry = new fresh.ModelRegistry(fresh.AuthStorage.inMemory({}, {}), undefined, {});
			expect(catalogParses()).toBe(0);
			expect(registry.find("anthropic", "claude-sonnet-4-5")?.provider).toBe("anthropic");
			expect(registry.find("anthropic", "no-such-model")).toBeUndefined();
			expect(catalogParses()).toBe(1);
			expect(registry.getAll()).toEqual(getProviders().flatMap((provider) => getModels(provider)));
		} finally {
			parse.mockRestore();
		}
	});

	it("models found first are the very models of the whole list, which is as if built at once", () => {
		const path = join(tempDir(), "models.json");
		writeFileSync(
			path,
			JSON.stringify({
				providers: {
					anthropic: {
						baseUrl: "http://proxy",
						modelOverrides: { "claude-sonnet-4-5": { name: "Renamed" } },
						apiKey: "k",
						models: [{ id: "claude-local", api: "anthropic-messages" }],
					},
					ollama: {
						baseUrl: "http://localhost:11434/v1",
						api: "openai-completions",
						apiKey: "ollama",
						models: [{ id: "llama" }],
					},
				},
			}),
		);
		const registration = {
			baseUrl: "http://registered",
			apiKey: "k",
			api: "openai-completions" as const,
			models: [{ id: "r1" }, { id: "r2" }],
		};
		const make = () => {
			const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), path, {});
			registry.registerProvider("openai", registration);
			return registry;
		};
		expect(make().getError()).toBeUndefined();
		const atOnce = make().getAll();
		const registry = make();
		const found = [
			registry.find("anthropic", "claude-local"),
			registry.find("anthropic", "claude-sonnet-4-5"),
			registry.find("ollama", "llama"),
			registry.find("openai", "r2"),
		];
		expect(found.map((model) => model?.name)).toEqual(["claude-local", "Renamed", "llama", "r2"]);
		const all = registry.getAll();
		expect(all).toEqual(atOnce);
		for (const model of found) expect(all).toContain(model);
		expect(registry.find("openai", "gpt-4o")).toBeUndefined();
	});
});
