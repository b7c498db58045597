// openai-completions: OpenAI Chat Completions and every compatible server, through the
// official SDK. Loaded lazily by register-builtins.ts on the first call of this API.
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { AssistantMessageEventStream } from "../../event-stream.js";
import { supportsXhigh } from "../../models.js";
import type { Context, Model, OpenAICompletionsOptions, SimpleStreamOptions } from "../../types.js";
import { resolveOpenAIApiKey } from "../openai-shared/api-key.js";
import { createOpenAIClient } from "../openai-shared/client.js";
import { describeOpenAIError } from "../openai-shared/error-message.js";
import { runProviderStream } from "../run-stream.js";
import { serializedBody } from "../serialized-payload.js";
import { buildBaseOptions, clampReasoning } from "../simple-options.js";
import { buildCompletionsPayload } from "./build-payload.js";
import { resolveCompletionsCompat } from "./compat.js";
import { CompletionsStreamParser } from "./parse-stream.js";
import type { CompletionsPayload, WireChunk } from "./wire-types.js";

export function streamOpenAICompletions(
	model: Model<"openai-completions">,
	context: Context,
	options?: OpenAICompletionsOptions,
): AssistantMessageEventStream {
	return runProviderStream<CompletionsPayload, WireChunk>({
		model,
		options,
		describeError: describeOpenAIError,
		prepare: () => {
			const apiKey = resolveOpenAIApiKey(model, options?.apiKey);
			// An `onPayload` hook may change the payload in place, so only without one are the wire messages
			// shared between requests and the body assembled from each message's JSON of an earlier request.
			const reuseConversions = !options?.onPayload;
			const compat = resolveCompletionsCompat(model);
			return {
				payload: buildCompletionsPayload(model, context, options, compat, { reuseConversions }),
				send: async (payload, { fetch, signal, whenOver }) => {
					const client = createOpenAIClient({ model, apiKey, context, headers: options?.headers, fetch });
					// The payload carries compatible servers' extra fields; the SDK sends the body as given.
					const body = payload as unknown as ChatCompletionCreateParamsStreaming;
					const request = reuseConversions
						? { signal, ...serializedBody(payload, "messages", { whenOver }) }
						: { signal };
					const stream = await client.chat.completions.create(body, request);
					return stream as AsyncIterable<WireChunk>;
				},
				createProcessor: (output, stream) => new CompletionsStreamParser(model, output, stream),
			};
		},
	});
}

/** Provider-neutral options: `reasoning` becomes `reasoningEffort` (xhigh only where the model takes it). */
export function streamSimpleOpenAICompletions(
	model: Model<"openai-completions">,
	context: Context,
	options?: SimpleStreamOptions & Pick<OpenAICompletionsOptions, "toolChoice">,
): AssistantMessageEventStream {
	const reasoning = options?.reasoning;
	return streamOpenAICompletions(model, context, {
		...buildBaseOptions(model, options, options?.apiKey ?? ""),
		apiKey: options?.apiKey,
		reasoningEffort: supportsXhigh(model) ? reasoning : clampReasoning(reasoning),
		toolChoice: options?.toolChoice,
	});
}
