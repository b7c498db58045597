import type { GenerateContentResponseUsageMetadata } from "@google/genai";
import { calculateCost } from "../../models.js";
import type { Model, Usage } from "../../types.js";

/**
 * Usage from `usageMetadata` (cumulative per chunk). `output` counts the answer and the thoughts.
 *
 * Ours differs: the reference sets `input = promptTokenCount`, but Gemini's prompt count *includes* the
 * cached tokens it also reports in `cachedContentTokenCount`. That priced cached tokens twice (at the full
 * input price and again at the cache price) and made `input + cacheRead` exceed the real prompt, which
 * isContextOverflow's silent-overflow check reads. `input` is the non-cached part here, as on every other
 * API; `totalTokens` is Gemini's own total.
 */
export function applyUsageMetadata(usage: Usage, metadata: GenerateContentResponseUsageMetadata, model: Model): void {
	const prompt = metadata.promptTokenCount ?? 0;
	const cached = metadata.cachedContentTokenCount ?? 0;
	usage.input = Math.max(0, prompt - cached);
	usage.output = (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0);
	usage.cacheRead = cached;
	usage.cacheWrite = 0;
	usage.totalTokens = metadata.totalTokenCount ?? usage.input + usage.output + usage.cacheRead;
	calculateCost(model, usage);
}
