import type { UsageInfo } from "@mistralai/mistralai/models/components";
import { calculateCost } from "../../models.js";
import type { Model, Usage } from "../../types.js";

/** Mistral reports prompt and completion tokens; cached prompt tokens, when present, are not billed apart. */
export function applyMistralUsage(usage: Usage, info: UsageInfo, model: Model): void {
	usage.input = info.promptTokens ?? 0;
	usage.output = info.completionTokens ?? 0;
	usage.cacheRead = 0;
	usage.cacheWrite = 0;
	usage.totalTokens = info.totalTokens ?? usage.input + usage.output;
	calculateCost(model, usage);
}
