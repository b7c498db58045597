import type { ConverseStreamCommandInput } from "@aws-sdk/client-bedrock-runtime";
import type { BedrockOptions, Context, Model } from "../../types.js";
import { resolveCacheRetention } from "../simple-options.js";
import { convertMessages, convertSystemPrompt } from "./convert-messages.js";
import { convertToolConfig } from "./convert-tools.js";
import { cachePointFor } from "./prompt-caching.js";
import { buildAdditionalModelRequestFields } from "./thinking.js";

/** The ConverseStream input, before `onPayload`. */
export function buildConverseInput(
	model: Model,
	context: Context,
	options: BedrockOptions | undefined,
): ConverseStreamCommandInput {
	const cachePoint = cachePointFor(model, resolveCacheRetention(options?.cacheRetention));
	const additionalModelRequestFields = buildAdditionalModelRequestFields(model, options);
	const inferenceConfig: NonNullable<ConverseStreamCommandInput["inferenceConfig"]> = {};
	if (options?.maxTokens !== undefined) inferenceConfig.maxTokens = options.maxTokens;
	// Ours: Claude rejects a temperature while it thinks; the reference sent it anyway.
	if (options?.temperature !== undefined && !additionalModelRequestFields)
		inferenceConfig.temperature = options.temperature;
	const input: ConverseStreamCommandInput = {
		modelId: model.id,
		messages: convertMessages(context.messages, model, cachePoint),
	};
	const system = convertSystemPrompt(context.systemPrompt, cachePoint);
	if (system) input.system = system;
	if (Object.keys(inferenceConfig).length > 0) input.inferenceConfig = inferenceConfig;
	const toolConfig = convertToolConfig(context.tools, options?.toolChoice);
	if (toolConfig) input.toolConfig = toolConfig;
	if (additionalModelRequestFields) {
		input.additionalModelRequestFields =
			additionalModelRequestFields as ConverseStreamCommandInput["additionalModelRequestFields"];
	}
	return input;
}
