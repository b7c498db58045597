import type { CachePointBlock } from "@aws-sdk/client-bedrock-runtime";
import type { CacheRetention, Model } from "../../types.js";

/**
 * Models Bedrock offers prompt caching for: Claude 3.5 Haiku, 3.7 Sonnet and the Claude 4 family, and Amazon Nova
 * (Micro, Lite, Pro, Premier). Other models reject cache points.
 */
export function supportsPromptCaching(model: Pick<Model, "id">): boolean {
	const id = model.id.toLowerCase();
	if (id.includes("amazon.nova-") && !id.includes("nova-sonic") && !id.includes("nova-canvas")) return true;
	if (!id.includes("claude")) return false;
	return /-4[-.]|claude-3-7-sonnet|claude-3-5-haiku/.test(id);
}

/**
 * The marker placed after the system prompt and on the last user message. A one-hour TTL is asked for only on
 * `long` retention and only for Claude (Nova caches for five minutes and takes no TTL); none at all for `none`.
 */
export function cachePointFor(model: Pick<Model, "id">, retention: CacheRetention): CachePointBlock | undefined {
	if (retention === "none" || !supportsPromptCaching(model)) return undefined;
	const isClaude = model.id.toLowerCase().includes("claude");
	return { type: "default", ...(retention === "long" && isClaude ? { ttl: "1h" } : {}) };
}
