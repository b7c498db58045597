import type { MessageDeltaUsage, Usage as WireUsage } from "@anthropic-ai/sdk/resources/messages";
import { calculateCost } from "../../models.js";
import type { Model, Usage } from "../../types.js";

function recompute(usage: Usage, model: Model): void {
	usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
	calculateCost(model, usage);
}

/** `message_start` carries the whole input side; `input` is already the non-cached part on this API. */
export function applyStartUsage(usage: Usage, wire: Partial<WireUsage> | undefined, model: Model): void {
	usage.input = wire?.input_tokens ?? 0;
	usage.output = wire?.output_tokens ?? 0;
	usage.cacheRead = wire?.cache_read_input_tokens ?? 0;
	usage.cacheWrite = wire?.cache_creation_input_tokens ?? 0;
	recompute(usage, model);
}

/**
 * `message_delta` carries cumulative counts. Only fields that are present and non-null replace ours, so a
 * proxy that omits `input_tokens` there keeps the value from `message_start`.
 */
export function applyDeltaUsage(usage: Usage, wire: Partial<MessageDeltaUsage> | undefined, model: Model): void {
	if (!wire) return;
	if (wire.input_tokens != null) usage.input = wire.input_tokens;
	if (wire.output_tokens != null) usage.output = wire.output_tokens;
	if (wire.cache_read_input_tokens != null) usage.cacheRead = wire.cache_read_input_tokens;
	if (wire.cache_creation_input_tokens != null) usage.cacheWrite = wire.cache_creation_input_tokens;
	recompute(usage, model);
}
