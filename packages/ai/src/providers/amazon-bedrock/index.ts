// bedrock-converse-stream: Amazon Bedrock's ConverseStream through the official AWS SDK, its
// credential chain and its binary event stream, sent through the reply guard (fetch-handler.ts). Loaded lazily by
// register-builtins.ts; nothing else imports this module statically, so the SDK loads on first use.
import {
	ConverseStreamCommand,
	type ConverseStreamCommandInput,
	type ConverseStreamOutput,
} from "@aws-sdk/client-bedrock-runtime";
import type { AssistantMessageEventStream, BedrockOptions, Context, Model, SimpleStreamOptions } from "../../types.js";
import { runProviderStream } from "../run-stream.js";
import { adjustMaxTokensForThinking, buildBaseOptions, clampReasoning } from "../simple-options.js";
import { buildConverseInput } from "./build-request.js";
import { createBedrockClient } from "./client.js";
import { describeBedrockError } from "./errors.js";
import { BedrockStreamParser } from "./parse-stream.js";
import { isClaude, supportsAdaptiveThinking } from "./thinking.js";

const NO_EVENT_STREAM = "Bedrock answered without an event stream";

/** Streams one reply from Bedrock. Never throws; failures end the stream with `error`. */
export function streamBedrock(
	model: Model<"bedrock-converse-stream">,
	context: Context,
	options?: BedrockOptions,
): AssistantMessageEventStream {
	return runProviderStream<ConverseStreamCommandInput, ConverseStreamOutput>({
		model,
		options,
		wireFormat: "aws-eventstream",
		describeError: describeBedrockError,
		prepare: () => ({
			payload: buildConverseInput(model, context, options),
			send: async (input, { fetch, signal }) => {
				const client = createBedrockClient(model, options, fetch);
				const response = await client.send(new ConverseStreamCommand(input), { abortSignal: signal });
				if (!response.stream) throw new Error(NO_EVENT_STREAM);
				return response.stream;
			},
			createProcessor: (output, stream) => new BedrockStreamParser(model, output, stream),
		}),
	});
}

/**
 * Provider-neutral options. Claude thinks adaptively (4.6) or within a budget that is added to the output allowance;
 * other models get the level as is (no switch is sent for them).
 */
export function streamSimpleBedrock(
	model: Model<"bedrock-converse-stream">,
	context: Context,
	options?: SimpleStreamOptions & Pick<BedrockOptions, "region" | "profile">,
): AssistantMessageEventStream {
	const base: BedrockOptions = {
		...buildBaseOptions(model, options, options?.apiKey ?? ""),
		region: options?.region,
		profile: options?.profile,
	};
	const level = options?.reasoning;
	if (!level) return streamBedrock(model, context, base);
	if (!isClaude(model) || supportsAdaptiveThinking(model)) {
		return streamBedrock(model, context, { ...base, reasoning: level, thinkingBudgets: options?.thinkingBudgets });
	}
	const clamped = clampReasoning(level) ?? "medium";
	const adjusted = adjustMaxTokensForThinking(base.maxTokens ?? 0, model.maxTokens, level, options?.thinkingBudgets);
	return streamBedrock(model, context, {
		...base,
		maxTokens: adjusted.maxTokens,
		reasoning: level,
		thinkingBudgets: { ...options?.thinkingBudgets, [clamped]: adjusted.thinkingBudget },
	});
}
