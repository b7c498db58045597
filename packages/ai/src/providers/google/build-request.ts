import type { GenerateContentParameters } from "@google/genai";
import type { Context, GoogleOptions, Model } from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { convertMessages } from "./convert-messages.js";
import { convertToolChoice, convertTools } from "./convert-tools.js";
import { buildThinkingConfig } from "./thinking.js";

/**
 * The generateContentStream parameters, before `onPayload`. The abort signal and the
 * SDK's transport switches are added when the request is sent, so the payload stays plain data.
 */
export function buildRequestParams(
	model: Model,
	context: Context,
	options: GoogleOptions | undefined,
): GenerateContentParameters {
	const config: NonNullable<GenerateContentParameters["config"]> = {};
	if (options?.temperature !== undefined) config.temperature = options.temperature;
	if (options?.maxTokens !== undefined) config.maxOutputTokens = options.maxTokens;
	if (context.systemPrompt) config.systemInstruction = sanitizeSurrogates(context.systemPrompt);
	if (context.tools && context.tools.length > 0) {
		config.tools = convertTools(context.tools);
		if (options?.toolChoice) config.toolConfig = convertToolChoice(options.toolChoice);
	}
	const thinkingConfig = buildThinkingConfig(model, options?.thinking);
	if (thinkingConfig) config.thinkingConfig = thinkingConfig;
	return { model: model.id, contents: convertMessages(context.messages, model), config };
}
