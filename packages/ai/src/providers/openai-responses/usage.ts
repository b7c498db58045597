import type { ResponseUsage } from "openai/resources/responses/responses";
import { calculateCost } from "../../models.js";
import type { Model, Usage } from "../../types.js";
import { emptyUsage } from "../assistant-output.js";

/** Price multipliers of OpenAI's service tiers; other tiers bill at the list price. */
const SERVICE_TIER_PRICE_FACTOR: Readonly<Record<string, number>> = { flex: 0.5, priority: 2 };

/**
 * Usage in our convention: `input` excludes cached tokens, which go to `cacheRead`. Output tokens already
 * include reasoning on this API. Costs follow the service tier the response was served with.
 */
export function parseResponsesUsage(
	usage: Partial<ResponseUsage> | null | undefined,
	model: Model,
	serviceTier: string | null | undefined,
): Usage {
	const result = emptyUsage();
	const cached = usage?.input_tokens_details?.cached_tokens ?? 0;
	result.input = Math.max(0, (usage?.input_tokens ?? 0) - cached);
	result.output = usage?.output_tokens ?? 0;
	result.cacheRead = cached;
	result.totalTokens = usage?.total_tokens ?? result.input + result.output + result.cacheRead;
	const cost = calculateCost(model, result);
	const factor = SERVICE_TIER_PRICE_FACTOR[serviceTier ?? ""] ?? 1;
	if (factor !== 1) {
		cost.input *= factor;
		cost.output *= factor;
		cost.cacheRead *= factor;
		cost.cacheWrite *= factor;
		cost.total *= factor;
	}
	return result;
}
