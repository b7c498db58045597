// openai-responses: the OpenAI Responses API, through the official SDK. The payload builder,
// input conversion and stream parser here are the shared Responses logic other Responses-based APIs reuse.
// Loaded lazily by register-builtins.ts on the first call of this API.
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import type { AssistantMessageEventStream } from "../../event-stream.js";
import { supportsXhigh } from "../../models.js";
import type { Context, Model, OpenAIResponsesOptions, SimpleStreamOptions } from "../../types.js";
import { resolveOpenAIApiKey } from "../openai-shared/api-key.js";
import { createOpenAIClient } from "../openai-shared/client.js";
import { describeOpenAIError } from "../openai-shared/error-message.js";
import { runProviderStream } from "../run-stream.js";
import { serializedBody } from "../serialized-payload.js";
import { buildBaseOptions, clampReasoning } from "../simple-options.js";
import { buildResponsesPayload, type ResponsesPayload } from "./build-payload.js";
import { ResponsesStreamParser } from "./parse-stream.js";

export function streamOpenAIResponses(
	model: Model<"openai-responses">,
	context: Context,
	options?: OpenAIResponsesOptions,
): AssistantMessageEventStream {
	return runProviderStream<ResponsesPayload, ResponseStreamEvent>({
		model,
		options,
		describeError: describeOpenAIError,
		prepare: () => {
			const apiKey = resolveOpenAIApiKey(model, options?.apiKey);
			// Without an `onPayload` hook (which may change the payload in place) each message's items are shared
			// between requests and the body is assembled from an earlier request's JSON.
			const reuseConversions = !options?.onPayload;
			return {
				payload: buildResponsesPayload(model, context, options, { reuseConversions }),
				send: (payload, { fetch, signal, whenOver }) =>
					createOpenAIClient({ model, apiKey, context, headers: options?.headers, fetch }).responses.create(
						payload,
						reuseConversions ? { signal, ...serializedBody(payload, "input", { whenOver }) } : { signal },
					),
				createProcessor: (output, stream) => new ResponsesStreamParser(model, output, stream, options?.serviceTier),
			};
		},
	});
}

/** Provider-neutral options: `reasoning` becomes `reasoningEffort` (xhigh only where the model takes it). */
export function streamSimpleOpenAIResponses(
	model: Model<"openai-responses">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	const reasoning = options?.reasoning;
	return streamOpenAIResponses(model, context, {
		...buildBaseOptions(model, options, options?.apiKey ?? ""),
		apiKey: options?.apiKey,
		reasoningEffort: supportsXhigh(model) ? reasoning : clampReasoning(reasoning),
	});
}
