import type { Model } from "@agent/ai";
import { describe, expect, it } from "vitest";
import {
	clampThinkingLevel,
	findInitialModel,
	type ModelSource,
	parseModelPattern,
	resolveCliModel,
	resolveModelScope,
} from "../../src/core/config/index.js";

function model(provider: string, id: string, name = id, reasoning = true): Model {
	return {
		id,
		name,
		api: "openai-completions",
		provider,
		baseUrl: `https://${provider}.example`,
		reasoning,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 10_000,
	};
}

const MODELS: Model[] = [
	model("anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5 (latest)"),
	model("anthropic", "claude-sonnet-4-5-20250929", "Claude Sonnet 4.5"),
	model("anthropic", "claude-opus-4-6", "Claude Opus 4.6"),
	model("anthropic", "claude-3-5-haiku-latest", "Claude Haiku 3.5 (latest)", false),
	model("anthropic", "claude-3-5-haiku-20241022", "Claude Haiku 3.5", false),
	model("openai", "gpt-4o", "GPT-4o", false),
	model("openai", "gpt-5.4", "GPT-5.4"),
	model("openrouter", "anthropic/claude-sonnet-4", "Anthropic: Claude Sonnet 4"),
	model("openrouter", "openai/gpt-5.1-codex", "OpenAI: GPT-5.1-Codex"),
	model("ollama", "llama3.1:8b", "Llama 3.1 8B", false),
];

const key = (m: Model | undefined) => (m ? `${m.provider}/${m.id}` : undefined);

describe("--model / --provider resolution (exact id, then fuzzy)", () => {
	it.each([
		// [--provider, --model, resolved, thinking level]
		[undefined, "claude-opus-4-6", "anthropic/claude-opus-4-6", undefined],
		[undefined, "anthropic/claude-opus-4-6", "anthropic/claude-opus-4-6", undefined],
		[undefined, "ANTHROPIC/Claude-Opus-4-6", "anthropic/claude-opus-4-6", undefined],
		[undefined, "opus", "anthropic/claude-opus-4-6", undefined],
		[undefined, "sonnet-4-5", "anthropic/claude-sonnet-4-5", undefined],
		[undefined, "haiku", "anthropic/claude-3-5-haiku-latest", undefined],
		[undefined, "20241022", "anthropic/claude-3-5-haiku-20241022", undefined],
		[undefined, "Opus 4.6", "anthropic/claude-opus-4-6", undefined],
		[undefined, "opus:high", "anthropic/claude-opus-4-6", "high"],
		[undefined, "anthropic/claude-opus-4-6:xhigh", "anthropic/claude-opus-4-6", "xhigh"],
		[undefined, "llama3.1:8b", "ollama/llama3.1:8b", undefined],
		[undefined, "llama3.1:8b:low", "ollama/llama3.1:8b", "low"],
		[undefined, "openrouter/anthropic/claude-sonnet-4", "openrouter/anthropic/claude-sonnet-4", undefined],
		[undefined, "openai/gpt-5.1-codex", "openrouter/openai/gpt-5.1-codex", undefined],
		["openai", "openai/gpt-4o", "openai/gpt-4o", undefined],
		["OpenAI", "GPT-4O", "openai/gpt-4o", undefined],
		["openrouter", "anthropic/claude-sonnet-4", "openrouter/anthropic/claude-sonnet-4", undefined],
		["anthropic", undefined, "anthropic/claude-opus-4-6", undefined],
	] as const)("--provider %s --model %s → %s (%s)", (provider, pattern, expected, level) => {
		const result = resolveCliModel(provider, pattern, MODELS);
		expect(result.error).toBeUndefined();
		expect(result.warning).toBeUndefined();
		expect(key(result.model)).toBe(expected);
		expect(result.thinkingLevel).toBe(level);
	});

	it("rejects an unknown provider", () => {
		expect(resolveCliModel("nope", "x", MODELS)).toEqual({
			error: 'Unknown provider "nope". Use --list-models to see available providers/models.',
		});
	});

	it("fails on an invalid thinking suffix (strict)", () => {
		expect(resolveCliModel(undefined, "opus:turbo", MODELS)).toEqual({
			error: 'Model "opus:turbo" not found. Use --list-models to see available models.',
		});
	});

	it("fails when nothing matches", () => {
		expect(resolveCliModel(undefined, "zzz", MODELS).error).toBe(
			'Model "zzz" not found. Use --list-models to see available models.',
		);
		expect(resolveCliModel("nope", undefined, MODELS).error).toContain("Unknown provider");
	});

	it("uses an unknown id of a known provider as a custom model based on the provider's default", () => {
		const result = resolveCliModel("openai", "gpt-9-preview", MODELS);
		expect(result.warning).toBe(
			'Warning: Model "gpt-9-preview" not found for provider "openai". Using custom model id.',
		);
		expect(result.model).toMatchObject({
			provider: "openai",
			id: "gpt-9-preview",
			name: "gpt-9-preview",
			baseUrl: "https://openai.example",
		});
		expect(resolveCliModel(undefined, "ollama/qwen3:32b", MODELS).model).toMatchObject({
			provider: "ollama",
			id: "qwen3:32b",
		});
	});
});

describe("pattern matching details", () => {
	it("prefers aliases, then the id sorting last", () => {
		expect(key(parseModelPattern("sonnet", MODELS).model)).toBe("anthropic/claude-sonnet-4-5");
		expect(key(parseModelPattern("claude-3-5-haiku", MODELS).model)).toBe("anthropic/claude-3-5-haiku-latest");
		const datedOnly = [model("a", "m-20240101"), model("a", "m-20250101")];
		expect(key(parseModelPattern("m-", datedOnly).model)).toBe("a/m-20250101");
	});

	it("does not treat an ambiguous exact id as exact", () => {
		const twins = [model("p1", "same"), model("p2", "same")];
		expect(parseModelPattern("same", twins).model?.id).toBe("same");
		expect(key(parseModelPattern("p2/same", twins).model)).toBe("p2/same");
	});

	it("warns about an invalid level when not strict", () => {
		expect(parseModelPattern("opus:turbo", MODELS)).toMatchObject({
			model: { id: "claude-opus-4-6" },
			warning: 'Invalid thinking level "turbo" in pattern "opus:turbo". Using default instead.',
		});
	});
});

describe("--models scopes", () => {
	it("matches globs on provider/id or id, patterns, levels, in order without duplicates", () => {
		const { scopedModels, warnings } = resolveModelScope(
			[
				"claude-sonnet-*:high",
				"gpt-4o",
				"anthropic/claude-sonnet-4-5",
				"openrouter/*",
				"nomatch*",
				"opus:bogus",
				" ",
			],
			MODELS,
		);
		expect(scopedModels.map((s) => [key(s.model), s.thinkingLevel])).toEqual([
			["anthropic/claude-sonnet-4-5", "high"],
			["anthropic/claude-sonnet-4-5-20250929", "high"],
			["openai/gpt-4o", undefined],
			["openrouter/anthropic/claude-sonnet-4", undefined],
			["openrouter/openai/gpt-5.1-codex", undefined],
			["anthropic/claude-opus-4-6", undefined],
		]);
		expect(warnings).toEqual([
			'Warning: No models match pattern "nomatch*"',
			'Warning: Invalid thinking level "bogus" in pattern "opus:bogus". Using default instead.',
		]);
	});

	it("is case-insensitive and supports ? and [] in globs", () => {
		const { scopedModels } = resolveModelScope(["GPT-?.4", "claude-3-5-haiku-[l]*"], MODELS);
		expect(scopedModels.map((s) => key(s.model))).toEqual(["openai/gpt-5.4", "anthropic/claude-3-5-haiku-latest"]);
	});
});

function source(models: Model[], withAuth: string[]): ModelSource {
	return {
		getAll: () => models,
		getAvailable: () => models.filter((m) => withAuth.includes(m.provider)),
		find: (provider, id) => models.find((m) => m.provider === provider && m.id === id),
		hasAuth: (provider) => withAuth.includes(provider),
	};
}

describe("initial model", () => {
	const catalog = [...MODELS, model("google", "gemini-2.5-pro")];

	it("uses --model first, with its level, even without credentials", () => {
		expect(findInitialModel(source(catalog, []), { cliModel: "opus:low" })).toMatchObject({
			model: { id: "claude-opus-4-6" },
			thinkingLevel: "low",
		});
		expect(findInitialModel(source(catalog, []), { cliModel: "zzz" }).error).toContain('Model "zzz" not found');
	});

	it("prefers the saved default inside the scope, else the first scoped model, unless continuing", () => {
		const scopedModels = resolveModelScope(["gpt-4o", "opus:high"], catalog).scopedModels;
		const s = source(catalog, ["openai", "anthropic"]);
		expect(
			key(
				findInitialModel(s, { scopedModels, defaultProvider: "anthropic", defaultModelId: "claude-opus-4-6" })
					.model,
			),
		).toBe("anthropic/claude-opus-4-6");
		expect(findInitialModel(s, { scopedModels }).model?.id).toBe("gpt-4o");
		expect(
			findInitialModel(s, {
				scopedModels,
				isContinuing: true,
				sessionModel: { provider: "openai", modelId: "gpt-5.4" },
			}).model?.id,
		).toBe("gpt-5.4");
	});

	it("restores the session's model only when it exists and has credentials", () => {
		const s = source(catalog, ["openai"]);
		expect(findInitialModel(s, { sessionModel: { provider: "openai", modelId: "gpt-4o" } }).model?.id).toBe("gpt-4o");
		const fallback = findInitialModel(s, {
			sessionModel: { provider: "anthropic", modelId: "claude-opus-4-6" },
			defaultProvider: "google",
			defaultModelId: "gemini-2.5-pro",
		});
		expect(fallback.warnings).toEqual(["Could not restore model anthropic/claude-opus-4-6"]);
		// The saved default is used even without credentials.
		expect(key(fallback.model)).toBe("google/gemini-2.5-pro");
	});

	it("otherwise takes the first provider in the default list that has credentials and its default model", () => {
		expect(key(findInitialModel(source(catalog, ["google", "openai"]), {}).model)).toBe("openai/gpt-5.4");
		expect(key(findInitialModel(source(catalog, ["ollama"]), {}).model)).toBe("ollama/llama3.1:8b");
		expect(findInitialModel(source(catalog, []), {})).toEqual({ warnings: [] });
	});
});

describe("thinking level clamping", () => {
	it("turns thinking off for models without reasoning and lowers xhigh where unsupported", () => {
		expect(clampThinkingLevel("high", model("openai", "gpt-4o", "GPT-4o", false))).toBe("off");
		expect(clampThinkingLevel("xhigh", model("anthropic", "claude-sonnet-4-5"))).toBe("high");
		expect(clampThinkingLevel("xhigh", model("anthropic", "claude-opus-4-6"))).toBe("xhigh");
	});
});
