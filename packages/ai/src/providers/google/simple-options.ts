import { getEnvApiKey } from "../../env-api-keys.js";
import type { GoogleOptions, Model, SimpleStreamOptions } from "../../types.js";
import { buildBaseOptions } from "../simple-options.js";
import { thinkingForLevel } from "./thinking.js";

/**
 * Maps provider-neutral options to Google's. Without a level no thinkingConfig is sent
 * at all, so each model thinks by its own default.
 */
export function toGoogleOptions(model: Model, options: SimpleStreamOptions | undefined): GoogleOptions {
	// An empty key makes streamGoogle fall back to the environment, then fail with a clear error.
	const base = buildBaseOptions(model, options, options?.apiKey || getEnvApiKey(model.provider) || "");
	if (!options?.reasoning) return base;
	return { ...base, thinking: thinkingForLevel(model, options.reasoning, options.thinkingBudgets) };
}
