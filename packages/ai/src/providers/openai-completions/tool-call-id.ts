import type { Model } from "../../types.js";
import { createMistralToolCallIdNormalizer } from "../../utils/mistral-tool-call-id.js";

const MAX_TOOL_CALL_ID_LENGTH = 40;

/**
 * Tool-call ids from other models, made acceptable to Chat Completions. A Responses id
 * `call|item` keeps only the call part, sanitised; OpenAI rejects ids over 40 characters.
 */
export function normalizeCompletionsToolCallId(id: string, model: Model): string {
	if (id.includes("|")) {
		const callId = id.slice(0, id.indexOf("|"));
		return callId.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, MAX_TOOL_CALL_ID_LENGTH);
	}
	if (model.provider === "openai" && id.length > MAX_TOOL_CALL_ID_LENGTH) return id.slice(0, MAX_TOOL_CALL_ID_LENGTH);
	return id;
}

function isMistral(model: Model): boolean {
	return model.provider === "mistral" || model.baseUrl.includes("mistral.ai");
}

/**
 * The id normalizer for one request. Mistral rejects any tool-call id that is not exactly nine letters
 * or digits, so ids from other models get a collision-free nine-character id there (one mapping per
 * request keeps each call and its result paired); every other server gets the rules above.
 */
export function toolCallIdNormalizerFor(model: Model): (id: string, model: Model) => string {
	if (!isMistral(model)) return normalizeCompletionsToolCallId;
	const toMistralId = createMistralToolCallIdNormalizer();
	return (id) => toMistralId(id);
}
