import { getEnvApiKey } from "../../env-api-keys.js";
import type { AnthropicOptions, Model, SimpleStreamOptions } from "../../types.js";
import { adjustMaxTokensForThinking, buildBaseOptions } from "../simple-options.js";
import { effortForLevel, isAdaptiveThinkingModel } from "./thinking.js";

/**
 * Maps provider-neutral options to Anthropic's: no level turns thinking off; adaptive
 * models get an effort; older models a budget added to the output allowance.
 */
export function toAnthropicOptions(model: Model, options: SimpleStreamOptions | undefined): AnthropicOptions {
	// An empty key makes streamAnthropic fall back to the environment, then fail with a clear error.
	const base = buildBaseOptions(model, options, options?.apiKey || getEnvApiKey(model.provider) || "");
	const level = options?.reasoning;
	if (!level) return { ...base, thinkingEnabled: false };
	if (isAdaptiveThinkingModel(model)) {
		return { ...base, thinkingEnabled: true, effort: effortForLevel(model, level) };
	}
	const { maxTokens, thinkingBudget } = adjustMaxTokensForThinking(
		base.maxTokens ?? model.maxTokens,
		model.maxTokens,
		level,
		options?.thinkingBudgets,
	);
	return { ...base, maxTokens, thinkingEnabled: true, thinkingBudgetTokens: thinkingBudget };
}
