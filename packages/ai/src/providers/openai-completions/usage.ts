import { calculateCost } from "../../models.js";
import type { Model, Usage } from "../../types.js";
import { emptyUsage } from "../assistant-output.js";
import type { WireUsage } from "./wire-types.js";

/**
 * Whether `completion_tokens` leaves the reasoning tokens out. OpenAI (and OpenRouter) count reasoning
 * inside `completion_tokens`; some compatible servers (xAI) report it beside it. `total_tokens` tells
 * which: it equals prompt + completion when reasoning is included, prompt + completion + reasoning when not.
 */
function reasoningReportedSeparately(usage: WireUsage, reasoning: number): boolean {
	if (reasoning <= 0 || typeof usage.total_tokens !== "number") return false;
	const prompt = usage.prompt_tokens ?? 0;
	const completion = usage.completion_tokens ?? 0;
	return usage.total_tokens === prompt + completion + reasoning && usage.total_tokens !== prompt + completion;
}

/**
 * Usage in our convention: `input` is the non-cached prompt tokens, `cacheRead` the cached
 * ones. Ours differs from the reference, which always added reasoning tokens to `completion_tokens` and so
 * double-counted them on OpenAI; we add them only where the server reports them separately.
 */
export function parseCompletionsUsage(usage: WireUsage, model: Model): Usage {
	const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
	const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
	const result = emptyUsage();
	result.input = Math.max(0, (usage.prompt_tokens ?? 0) - cached);
	result.output = (usage.completion_tokens ?? 0) + (reasoningReportedSeparately(usage, reasoning) ? reasoning : 0);
	result.cacheRead = cached;
	result.cacheWrite = 0;
	result.totalTokens = result.input + result.output + result.cacheRead;
	calculateCost(model, result);
	return result;
}
