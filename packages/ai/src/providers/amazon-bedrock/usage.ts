import type { TokenUsage } from "@aws-sdk/client-bedrock-runtime";
import { calculateCost } from "../../models.js";
import type { Model, Usage } from "../../types.js";

/** Converse reports cache reads and writes apart from `inputTokens`, as Anthropic does. */
export function applyTokenUsage(usage: Usage, tokens: TokenUsage, model: Model): void {
	usage.input = tokens.inputTokens ?? 0;
	usage.output = tokens.outputTokens ?? 0;
	usage.cacheRead = tokens.cacheReadInputTokens ?? 0;
	usage.cacheWrite = tokens.cacheWriteInputTokens ?? 0;
	usage.totalTokens = tokens.totalTokens ?? usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
	calculateCost(model, usage);
}
