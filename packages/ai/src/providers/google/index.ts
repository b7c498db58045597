// google-generative-ai through the official @google/genai SDK. Loaded lazily by
// register-builtins.ts; nothing else may import this module statically, so the SDK loads on first use.
import type { GenerateContentParameters, GenerateContentResponse } from "@google/genai";
import { getEnvApiKey } from "../../env-api-keys.js";
import type { AssistantMessageEventStream, Context, GoogleOptions, Model, SimpleStreamOptions } from "../../types.js";
import { runProviderStream } from "../run-stream.js";
import { buildRequestParams } from "./build-request.js";
import { createGoogleClient } from "./client.js";
import { describeGoogleError } from "./errors.js";
import { GoogleStreamParser } from "./parse-stream.js";
import { toGoogleOptions } from "./simple-options.js";

/** Streams one reply from the Gemini API. Never throws; failures end the stream with `error`. */
export function streamGoogle(
	model: Model<"google-generative-ai">,
	context: Context,
	options?: GoogleOptions,
): AssistantMessageEventStream {
	return runProviderStream<GenerateContentParameters, GenerateContentResponse>({
		model,
		options,
		describeError: describeGoogleError,
		prepare: () => {
			const apiKey = options?.apiKey || getEnvApiKey(model.provider);
			if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
			return {
				payload: buildRequestParams(model, context, options),
				send: (params, { fetch, signal }) => {
					const headers = { ...model.headers, ...options?.headers };
					return createGoogleClient(model, apiKey, headers, fetch).models.generateContentStream({
						...params,
						config: {
							...params.config,
							abortSignal: signal,
							// The SDK would otherwise reopen a dropped stream by itself: a hidden retry that delays
							// the failure and that the caller's retry policy cannot see.
							automaticContinuation: false,
						},
					});
				},
				createProcessor: (output, stream) => new GoogleStreamParser(output, stream, model),
			};
		},
	});
}

/** `streamGoogle` with provider-neutral options (reasoning level → Gemini 3 level or 2.5 budget). */
export function streamSimpleGoogle(
	model: Model<"google-generative-ai">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return streamGoogle(model, context, toGoogleOptions(model, options));
}
