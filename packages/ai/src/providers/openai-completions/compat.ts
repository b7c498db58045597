import type { Model, OpenAICompletionsCompat } from "../../types.js";

/** Every compat switch with a value: auto-detected, then overridden field by field by `model.compat`. */
export type ResolvedCompletionsCompat = Required<OpenAICompletionsCompat>;

function hostMatches(model: Model, provider: string, urlFragment: string): boolean {
	return model.provider === provider || model.baseUrl.includes(urlFragment);
}

const isCerebras = (model: Model) => hostMatches(model, "cerebras", "cerebras.ai");
const isXai = (model: Model) => hostMatches(model, "xai", "api.x.ai");
const isZai = (model: Model) => hostMatches(model, "zai", "api.z.ai");
const isOpencode = (model: Model) => hostMatches(model, "opencode", "opencode.ai");
const isChutes = (model: Model) => model.baseUrl.includes("chutes.ai");
const isDeepseek = (model: Model) => model.baseUrl.includes("deepseek.com");

/** Endpoints that reject OpenAI-only fields such as `store` and the `developer` role. */
function isNonStandardEndpoint(model: Model): boolean {
	return (
		isCerebras(model) || isXai(model) || isChutes(model) || isDeepseek(model) || isZai(model) || isOpencode(model)
	);
}

/** The compat values inferred from the provider id and base URL alone. */
export function detectCompletionsCompat(model: Model): ResolvedCompletionsCompat {
	const standard = !isNonStandardEndpoint(model);
	const groqQwen = model.provider === "groq" && model.id === "qwen/qwen3-32b";
	return {
		supportsStore: standard,
		supportsDeveloperRole: standard,
		supportsReasoningEffort: !isXai(model) && !isZai(model),
		reasoningEffortMap: groqQwen
			? { minimal: "default", low: "default", medium: "default", high: "default", xhigh: "default" }
			: {},
		supportsUsageInStreaming: true,
		maxTokensField: isChutes(model) ? "max_tokens" : "max_completion_tokens",
		requiresToolResultName: false,
		requiresAssistantAfterToolResult: false,
		requiresThinkingAsText: false,
		thinkingFormat: isZai(model) ? "zai" : "openai",
		openRouterRouting: {},
		vercelGatewayRouting: {},
		supportsStrictMode: true,
	};
}

/** Auto-detected compat with the model's own `compat` laid over it; unset fields keep the detected value. */
export function resolveCompletionsCompat(model: Model<"openai-completions">): ResolvedCompletionsCompat {
	const resolved = detectCompletionsCompat(model);
	const overrides = (model.compat ?? {}) as OpenAICompletionsCompat;
	const target = resolved as Record<string, unknown>;
	for (const [key, value] of Object.entries(overrides)) {
		if (value !== undefined) target[key] = value;
	}
	return resolved;
}
