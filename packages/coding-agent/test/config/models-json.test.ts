import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { getModels, getProviders } from "@agent/ai";
import { describe, expect, it } from "vitest";
import { AuthStorage, loadModelsJson, ModelRegistry, parseModelsJson } from "../../src/core/config/index.js";
import { useTempDirs } from "../helpers/session-fixtures.js";

const FILE = "/home/u/.agent/models.json";

function errorOf(config: unknown): string | undefined {
	return parseModelsJson(JSON.stringify(config), FILE).error;
}

describe("a valid models.json", () => {
	it("accepts the reference's example", () => {
		const result = parseModelsJson(
			JSON.stringify({
				providers: {
					ollama: {
						baseUrl: "http://localhost:11434/v1",
						api: "openai-completions",
						apiKey: "ollama",
						compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
						models: [{ id: "llama3.1:8b" }, { id: "gpt-oss:20b", reasoning: true }],
					},
					anthropic: { baseUrl: "https://my-proxy.example.com/v1" },
					openrouter: {
						modelOverrides: {
							"anthropic/claude-sonnet-4": {
								name: "Claude Sonnet 4 (Bedrock route)",
								compat: { openRouterRouting: { only: ["amazon-bedrock"] } },
							},
						},
					},
				},
			}),
			FILE,
		);
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.config?.providers ?? {})).toEqual(["ollama", "anthropic", "openrouter"]);
	});

	it("tolerates extra properties", () => {
		expect(errorOf({ providers: { x: { baseUrl: "http://x", comment: "mine" } }, $schema: "s" })).toBeUndefined();
	});

	it("is an empty configuration when the file does not exist", () => {
		expect(loadModelsJson("/nonexistent/models.json")).toEqual({ config: { providers: {} } });
	});
});

describe("models.json errors name the file and the field", () => {
	it("reports JSON syntax errors", () => {
		const result = parseModelsJson("{ providers: ", FILE);
		expect(result.error).toMatch(/^Failed to parse models\.json: .+\n\nFile: \/home\/u\/\.agent\/models\.json$/);
	});

	it("lists every schema violation with its path", () => {
		expect(
			errorOf({
				providers: {
					ollama: {
						baseUrl: "",
						apiKey: "k",
						headers: { "X-A": 1 },
						models: [
							{ id: "a", contextWindow: "big", input: ["text", "audio"], cost: { input: 1 } },
							{ name: "no id" },
						],
					},
				},
			}),
		).toBe(
			[
				"Invalid models.json schema:",
				"  - providers.ollama.baseUrl: must be a non-empty string",
				"  - providers.ollama.headers.X-A: must be a string",
				'  - providers.ollama.models[0].input[1]: must be "text" or "image"',
				"  - providers.ollama.models[0].cost.output: is required",
				"  - providers.ollama.models[0].cost.cacheRead: is required",
				"  - providers.ollama.models[0].cost.cacheWrite: is required",
				"  - providers.ollama.models[0].contextWindow: must be a number",
				"  - providers.ollama.models[1].id: is required",
				"",
				`File: ${FILE}`,
			].join("\n"),
		);
	});

	it("requires a providers object", () => {
		expect(errorOf({})).toContain("  - providers: is required");
		expect(errorOf({ providers: [] })).toContain("  - providers: must be an object");
		expect(errorOf([])).toContain("  - (root): must be an object");
	});

	it("checks compat fields", () => {
		expect(errorOf({ providers: { x: { compat: { thinkingFormat: "other", supportsStore: "yes" } } } })).toContain(
			'  - providers.x.compat.thinkingFormat: must be one of "openai", "zai", "qwen", "qwen-chat-template"',
		);
	});

	it.each([
		[
			{ x: { apiKey: "k", headers: { A: "b" } } },
			'Provider x: must specify "baseUrl", "compat", "modelOverrides", or "models".',
		],
		[
			{ x: { apiKey: "k", api: "openai-completions", models: [{ id: "m" }] } },
			'Provider x: "baseUrl" is required when defining custom models.',
		],
		[
			{ x: { baseUrl: "http://x", api: "openai-completions", models: [{ id: "m" }] } },
			'Provider x: "apiKey" is required when defining custom models.',
		],
		[
			{ x: { baseUrl: "http://x", apiKey: "k", models: [{ id: "m" }] } },
			'Provider x, model m: no "api" specified. Set at provider or model level.',
		],
		[
			{ x: { baseUrl: "http://x", apiKey: "k", api: "openai-completions", models: [{ id: "m", maxTokens: 0 }] } },
			'Provider x, model m: "maxTokens" must be greater than 0.',
		],
	])("rejects semantic errors: %j", (providers, message) => {
		expect(errorOf({ providers })).toBe(`Failed to load models.json: ${message}\n\nFile: ${FILE}`);
	});
});

describe("a rejected models.json", () => {
	const tempDir = useTempDirs("agent-models-");

	it("leaves the built-in models usable and keeps the error for the UI", () => {
		const path = join(tempDir(), "models.json");
		writeFileSync(path, JSON.stringify({ providers: { ollama: { apiKey: "x" } } }));
		const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), path, {});
		expect(registry.getError()).toContain(`File: ${path}`);
		expect(registry.getAll()).toEqual(getProviders().flatMap((provider) => getModels(provider)));
	});
});
