import type { ResponseCreateParamsStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import type { Context, Model, OpenAIResponsesOptions } from "../../types.js";
import { resolveCacheRetention } from "../simple-options.js";
import { convertResponsesInput, type ResponsesInputOptions } from "./convert-messages.js";
import { convertResponsesTools } from "./convert-tools.js";

/** The streaming request body; `input` is always the item list we built. */
export type ResponsesPayload = ResponseCreateParamsStreaming & { input: ResponseInputItem[] };

/** Appended for gpt-5 models when no reasoning is requested, to keep them from reasoning anyway. */
export const SUPPRESS_REASONING_TEXT = "# Juice: 0 !important";

// Ours differs: the reference tests `model.name.startsWith("gpt-5")`, but catalog names are display names
// ("GPT-5.4"), so the switch never fired for them. The id is what identifies the family.
function isGpt5(model: Model): boolean {
	return /^gpt-5/i.test(model.id) || /^gpt-5/i.test(model.name);
}

/**
 * The Responses request body; shared by every Responses-based API. With `inputOptions.reuseConversions` its
 * input items are shared with other requests, so the caller must not change them (only without `onPayload`).
 */
export function buildResponsesPayload(
	model: Model,
	context: Context,
	options: OpenAIResponsesOptions | undefined,
	inputOptions?: ResponsesInputOptions,
): ResponsesPayload {
	const input = convertResponsesInput(model, context, inputOptions);
	const payload: ResponsesPayload = { model: model.id, input, stream: true, store: false };

	const retention = resolveCacheRetention(options?.cacheRetention);
	if (options?.sessionId && retention !== "none") payload.prompt_cache_key = options.sessionId;
	if (retention === "long" && model.baseUrl.includes("api.openai.com")) payload.prompt_cache_retention = "24h";
	if (options?.maxTokens) payload.max_output_tokens = options.maxTokens;
	if (options?.temperature !== undefined) payload.temperature = options.temperature;
	if (options?.serviceTier) payload.service_tier = options.serviceTier;
	if (context.tools && context.tools.length > 0) payload.tools = convertResponsesTools(context.tools);

	if (model.reasoning) {
		if (options?.reasoningEffort || options?.reasoningSummary) {
			payload.reasoning = {
				effort: options.reasoningEffort || "medium",
				summary: options.reasoningSummary || "auto",
			};
			// With store:false the reasoning comes back encrypted, so it can be replayed on the next turn.
			payload.include = ["reasoning.encrypted_content"];
		} else if (isGpt5(model)) {
			input.push({ role: "developer", content: [{ type: "input_text", text: SUPPRESS_REASONING_TEXT }] });
		}
	}
	return payload;
}
