// azure-openai-responses: the Responses API of Azure OpenAI through the official SDK's
// Azure client. Payload, input conversion and stream parsing are the shared Responses logic. Loaded lazily by
// register-builtins.ts on the first call of this API.
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { getEnvApiKey } from "../../env-api-keys.js";
import type { AssistantMessageEventStream } from "../../event-stream.js";
import { supportsXhigh } from "../../models.js";
import type { AzureOpenAIResponsesOptions, Context, Model, SimpleStreamOptions } from "../../types.js";
import { buildResponsesPayload, type ResponsesPayload } from "../openai-responses/build-payload.js";
import { ResponsesStreamParser } from "../openai-responses/parse-stream.js";
import { RESPONSES_ID_NORMALIZING_PROVIDERS } from "../openai-responses/tool-call-id.js";
import { describeOpenAIError } from "../openai-shared/error-message.js";
import { runProviderStream } from "../run-stream.js";
import { serializedBody } from "../serialized-payload.js";
import { buildBaseOptions, clampReasoning } from "../simple-options.js";
import { createAzureClient } from "./client.js";
import { AZURE_API_KEY_REQUIRED, resolveAzureEndpoint, resolveDeploymentName } from "./config.js";

/** Azure validates `call_id|item_id` pairs like OpenAI does, so its own tool-call ids are normalised too. */
const AZURE_ID_NORMALIZING_PROVIDERS = [...RESPONSES_ID_NORMALIZING_PROVIDERS, "azure-openai-responses"];

export function streamAzureOpenAIResponses(
	model: Model<"azure-openai-responses">,
	context: Context,
	options?: AzureOpenAIResponsesOptions,
): AssistantMessageEventStream {
	return runProviderStream<ResponsesPayload, ResponseStreamEvent>({
		model,
		options,
		describeError: describeOpenAIError,
		prepare: () => {
			const apiKey = options?.apiKey || getEnvApiKey(model.provider) || process.env.AZURE_OPENAI_API_KEY;
			if (!apiKey) throw new Error(AZURE_API_KEY_REQUIRED);
			const endpoint = resolveAzureEndpoint(model, options);
			// Without an `onPayload` hook each message's items are shared between requests (see openai-responses).
			const reuseConversions = !options?.onPayload;
			const payload = buildResponsesPayload(model, context, options, {
				normalizeIdsFor: AZURE_ID_NORMALIZING_PROVIDERS,
				reuseConversions,
			});
			payload.model = resolveDeploymentName(model, options);
			return {
				payload,
				send: (body, { fetch, signal, whenOver }) =>
					createAzureClient(endpoint, apiKey, { ...model.headers, ...options?.headers }, fetch).responses.create(
						body,
						reuseConversions ? { signal, ...serializedBody(body, "input", { whenOver }) } : { signal },
					),
				createProcessor: (output, stream) => new ResponsesStreamParser(model, output, stream, options?.serviceTier),
			};
		},
	});
}

/** Provider-neutral options: `reasoning` becomes `reasoningEffort` (xhigh only where the model takes it). */
export function streamSimpleAzureOpenAIResponses(
	model: Model<"azure-openai-responses">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	const reasoning = options?.reasoning;
	return streamAzureOpenAIResponses(model, context, {
		...buildBaseOptions(model, options, options?.apiKey ?? ""),
		reasoningEffort: supportsXhigh(model) ? reasoning : clampReasoning(reasoning),
	});
}
