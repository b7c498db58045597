// Choosing models from what the user typed (docs/cli.md "Model", docs/models.md "Choosing a model"): --model/--provider, --models scopes, the initial model.
// Pure functions over a model list; the registry supplies the lists and credentials.
import type { ThinkingLevel } from "@agent/agent-core";
import { type Model, supportsXhigh } from "@agent/ai";

/** The default model of each provider, in the order initial selection tries them. */
export const DEFAULT_MODEL_PER_PROVIDER: Readonly<Record<string, string>> = {
	"amazon-bedrock": "us.anthropic.claude-opus-4-6-v1",
	anthropic: "claude-opus-4-6",
	openai: "gpt-5.4",
	"azure-openai-responses": "gpt-5.2",
	"openai-codex": "gpt-5.4",
	google: "gemini-2.5-pro",
	"google-gemini-cli": "gemini-2.5-pro",
	"google-antigravity": "gemini-3.1-pro-high",
	"google-vertex": "gemini-3-pro-preview",
	"github-copilot": "gpt-4o",
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

/** Thinking level of a newly selected model when nothing else says. */
export const DEFAULT_THINKING_LEVEL: ThinkingLevel = "medium";

const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

export function isThinkingLevel(value: string): value is ThinkingLevel {
	return (THINKING_LEVELS as readonly string[]).includes(value);
}

/** The level a model can take: `off` without reasoning, `xhigh` lowered to `high` where unsupported. */
export function clampThinkingLevel(level: ThinkingLevel, model: Pick<Model, "id" | "reasoning">): ThinkingLevel {
	if (!model.reasoning) return "off";
	if (level === "xhigh" && !supportsXhigh(model)) return "high";
	return level;
}

export interface ModelPatternMatch {
	model?: Model;
	/** From a `:level` suffix. */
	thinkingLevel?: ThinkingLevel;
	warning?: string;
}

const DATED_ID = /-\d{8}$/;

/** Ids without a `-YYYYMMDD` date, or ending in `-latest`, name the current version of a model. */
function isAlias(id: string): boolean {
	return id.endsWith("-latest") || !DATED_ID.test(id);
}

/** Case-insensitive `provider/id` (unique), else `id` (unique among the candidates). */
export function findExactModelMatch(pattern: string, candidates: readonly Model[]): Model | undefined {
	const wanted = pattern.toLowerCase();
	const byFullId = candidates.filter((m) => `${m.provider}/${m.id}`.toLowerCase() === wanted);
	if (byFullId.length === 1) return byFullId[0];
	const byId = candidates.filter((m) => m.id.toLowerCase() === wanted);
	return byId.length === 1 ? byId[0] : undefined;
}

function findPartialModelMatch(pattern: string, candidates: readonly Model[]): Model | undefined {
	const wanted = pattern.toLowerCase();
	const matches = candidates.filter(
		(m) => m.id.toLowerCase().includes(wanted) || m.name.toLowerCase().includes(wanted),
	);
	if (matches.length === 0) return undefined;
	const aliases = matches.filter((m) => isAlias(m.id));
	const pool = aliases.length > 0 ? aliases : matches;
	// The id sorting last: the newest alias, or the newest date.
	return pool.reduce((best, m) => (m.id > best.id ? m : best));
}

/**
 * Resolves one pattern among `candidates` : exact match, then substring of id or name preferring
 * aliases, then a trailing `:level`. With `strictThinking`, an unknown level fails the match (for `--model`);
 * without, it warns and resolves the prefix (for `--models` scopes).
 */
export function parseModelPattern(
	pattern: string,
	candidates: readonly Model[],
	options: { strictThinking?: boolean } = {},
): ModelPatternMatch {
	const direct = findExactModelMatch(pattern, candidates) ?? findPartialModelMatch(pattern, candidates);
	if (direct) return { model: direct };
	const colon = pattern.lastIndexOf(":");
	if (colon <= 0) return {};
	const prefix = pattern.slice(0, colon);
	const suffix = pattern.slice(colon + 1);
	if (isThinkingLevel(suffix)) {
		const inner = parseModelPattern(prefix, candidates, options);
		return inner.model ? { ...inner, thinkingLevel: suffix } : {};
	}
	if (options.strictThinking) return {};
	const inner = parseModelPattern(prefix, candidates, options);
	if (!inner.model) return {};
	return { ...inner, warning: `Invalid thinking level "${suffix}" in pattern "${pattern}". Using default instead.` };
}

function canonicalProvider(name: string, models: readonly Model[]): string | undefined {
	const wanted = name.toLowerCase();
	return models.find((m) => m.provider.toLowerCase() === wanted)?.provider;
}

export interface CliModelResolution {
	model?: Model;
	thinkingLevel?: ThinkingLevel;
	/** Printed to stderr; selection continues. */
	warning?: string;
	/** Exit 1 with this message. */
	error?: string;
}

/** The provider's default model, else its first model. */
export function defaultModelOfProvider(provider: string, models: readonly Model[]): Model | undefined {
	const ofProvider = models.filter((m) => m.provider === provider);
	const defaultId = DEFAULT_MODEL_PER_PROVIDER[provider];
	return ofProvider.find((m) => m.id === defaultId) ?? ofProvider[0];
}

/**
 * `--model` / `--provider` against **all** models (credentials are not required, so `--api-key` can set up a
 * first run).
 */
export function resolveCliModel(
	cliProvider: string | undefined,
	cliModel: string | undefined,
	allModels: readonly Model[],
): CliModelResolution {
	let provider: string | undefined;
	if (cliProvider !== undefined) {
		provider = canonicalProvider(cliProvider, allModels);
		if (!provider)
			return { error: `Unknown provider "${cliProvider}". Use --list-models to see available providers/models.` };
	}
	if (cliModel === undefined) {
		const model = provider ? defaultModelOfProvider(provider, allModels) : undefined;
		return model ? { model } : {};
	}

	let pattern = cliModel;
	let inferred = false;
	if (provider) {
		if (pattern.toLowerCase().startsWith(`${provider.toLowerCase()}/`)) pattern = pattern.slice(provider.length + 1);
	} else {
		const slash = pattern.indexOf("/");
		const maybeProvider = slash > 0 ? canonicalProvider(pattern.slice(0, slash), allModels) : undefined;
		if (maybeProvider) {
			provider = maybeProvider;
			pattern = pattern.slice(slash + 1);
			inferred = true;
		} else {
			// Ids may contain slashes (OpenRouter's `vendor/model`): the whole string first.
			const exact = findExactModelMatch(cliModel, allModels);
			if (exact) return { model: exact };
		}
	}

	const candidates = provider ? allModels.filter((m) => m.provider === provider) : allModels;
	let match = parseModelPattern(pattern, candidates, { strictThinking: true });
	if (!match.model && inferred) match = parseModelPattern(cliModel, allModels, { strictThinking: true });
	if (match.model)
		return { model: match.model, ...(match.thinkingLevel ? { thinkingLevel: match.thinkingLevel } : {}) };

	if (provider) {
		const base = defaultModelOfProvider(provider, allModels);
		if (base) {
			return {
				model: { ...base, id: pattern, name: pattern },
				warning: `Warning: Model "${pattern}" not found for provider "${provider}". Using custom model id.`,
			};
		}
	}
	const display = cliProvider !== undefined ? `${cliProvider}/${cliModel}` : cliModel;
	return { error: `Model "${display}" not found. Use --list-models to see available models.` };
}

export interface ScopedModel {
	model: Model;
	/** Explicit `:level` of the pattern; without it, cycling keeps the session's current level. */
	thinkingLevel?: ThinkingLevel;
}

function globToRegExp(glob: string): RegExp {
	let source = "";
	for (let i = 0; i < glob.length; i++) {
		const char = glob[i] as string;
		if (char === "*") source += ".*";
		else if (char === "?") source += ".";
		else if (char === "[") {
			const close = glob.indexOf("]", i + 1);
			if (close < 0) source += "\\[";
			else {
				const body = glob.slice(i + 1, close).replace(/\\/g, "\\\\");
				source += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
				i = close;
			}
		} else source += char.replace(/[.+^${}()|\\]/g, "\\$&");
	}
	return new RegExp(`^${source}$`, "i");
}

const GLOB_CHARS = /[*?[]/;

/**
 * `--models` / `enabledModels` against the **available** models: globs (case-insensitive, on
 * `provider/id` or `id`, optional `:level`) and model patterns. Duplicates dropped, pattern order kept.
 */
export function resolveModelScope(
	patterns: readonly string[],
	availableModels: readonly Model[],
): { scopedModels: ScopedModel[]; warnings: string[] } {
	const scopedModels: ScopedModel[] = [];
	const warnings: string[] = [];
	const seen = new Set<string>();
	const add = (model: Model, thinkingLevel: ThinkingLevel | undefined) => {
		const key = `${model.provider}/${model.id}`;
		if (seen.has(key)) return;
		seen.add(key);
		scopedModels.push(thinkingLevel ? { model, thinkingLevel } : { model });
	};
	for (const raw of patterns) {
		const pattern = raw.trim();
		if (!pattern) continue;
		if (GLOB_CHARS.test(pattern)) {
			let glob = pattern;
			let level: ThinkingLevel | undefined;
			const colon = pattern.lastIndexOf(":");
			const suffix = colon > 0 ? pattern.slice(colon + 1) : "";
			if (colon > 0 && isThinkingLevel(suffix)) {
				glob = pattern.slice(0, colon);
				level = suffix;
			}
			const regex = globToRegExp(glob);
			const matches = availableModels.filter((m) => regex.test(`${m.provider}/${m.id}`) || regex.test(m.id));
			if (matches.length === 0) warnings.push(`Warning: No models match pattern "${pattern}"`);
			for (const model of matches) add(model, level);
			continue;
		}
		const match = parseModelPattern(pattern, availableModels);
		if (match.warning) warnings.push(`Warning: ${match.warning}`);
		if (match.model) add(match.model, match.thinkingLevel);
		else warnings.push(`Warning: No models match pattern "${pattern}"`);
	}
	return { scopedModels, warnings };
}

/** What initial selection needs from the registry. */
export interface ModelSource {
	getAll(): Model[];
	getAvailable(): Model[];
	find(provider: string, modelId: string): Model | undefined;
	hasAuth(provider: string): boolean;
}

export interface InitialModelOptions {
	cliProvider?: string;
	cliModel?: string;
	scopedModels?: readonly ScopedModel[];
	/** `-c` or `-r`: skip scope-based selection. */
	isContinuing?: boolean;
	/** The model recorded on the opened session's branch, when it has messages. */
	sessionModel?: { provider: string; modelId: string } | null;
	defaultProvider?: string;
	defaultModelId?: string;
}

export interface InitialModelSelection {
	model?: Model;
	/** Set when the choice carries a level (`--model x:high`, a scoped `:level`). */
	thinkingLevel?: ThinkingLevel;
	warnings: string[];
	/** `--model` could not be resolved: exit 1 with this message. */
	error?: string;
}

/** The model a run starts with (docs/cli.md "Model"), first rule that gives one. */
export function findInitialModel(source: ModelSource, options: InitialModelOptions): InitialModelSelection {
	const warnings: string[] = [];
	if (options.cliModel !== undefined || options.cliProvider !== undefined) {
		const resolved = resolveCliModel(options.cliProvider, options.cliModel, source.getAll());
		if (resolved.error) return { warnings, error: resolved.error };
		if (resolved.warning) warnings.push(resolved.warning);
		if (resolved.model) {
			return {
				model: resolved.model,
				...(resolved.thinkingLevel ? { thinkingLevel: resolved.thinkingLevel } : {}),
				warnings,
			};
		}
	}
	const scoped = options.scopedModels ?? [];
	if (scoped.length > 0 && !options.isContinuing) {
		const saved = scoped.find(
			(s) => s.model.provider === options.defaultProvider && s.model.id === options.defaultModelId,
		);
		const chosen = saved ?? (scoped[0] as ScopedModel);
		return {
			model: chosen.model,
			...(chosen.thinkingLevel ? { thinkingLevel: chosen.thinkingLevel } : {}),
			warnings,
		};
	}
	if (options.sessionModel) {
		const { provider, modelId } = options.sessionModel;
		const restored = source.find(provider, modelId);
		if (restored && source.hasAuth(provider)) return { model: restored, warnings };
		warnings.push(`Could not restore model ${provider}/${modelId}`);
	}
	if (options.defaultProvider && options.defaultModelId) {
		const saved = source.find(options.defaultProvider, options.defaultModelId);
		if (saved) return { model: saved, warnings };
	}
	const available = source.getAvailable();
	for (const [provider, modelId] of Object.entries(DEFAULT_MODEL_PER_PROVIDER)) {
		const model = available.find((m) => m.provider === provider && m.id === modelId);
		if (model) return { model, warnings };
	}
	return available[0] ? { model: available[0], warnings } : { warnings };
}
