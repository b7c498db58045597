// mistral-conversations: Mistral's chat API through the official @mistralai/mistralai SDK, its
// requests sent through the reply guard. Loaded lazily by register-builtins.ts on the first call of this API.
import { HTTPClient, Mistral } from "@mistralai/mistralai";
import type { ChatCompletionStreamRequest, CompletionEvent } from "@mistralai/mistralai/models/components";
import { getEnvApiKey } from "../../env-api-keys.js";
import type { AssistantMessageEventStream, Context, MistralOptions, Model, SimpleStreamOptions } from "../../types.js";
import type { Fetch } from "../reply-guard.js";
import { runProviderStream } from "../run-stream.js";
import { buildBaseOptions, clampReasoning } from "../simple-options.js";
import { buildChatRequest } from "./build-request.js";
import { describeMistralError } from "./errors.js";
import { MistralStreamParser } from "./parse-stream.js";

/** The SDK's timeout is a time limit on the whole reply (5 minutes by default); the reply guard owns that. */
const NO_SDK_TIMEOUT = -1;

function createMistralClient(model: Model, apiKey: string, fetch: Fetch): Mistral {
	return new Mistral({
		apiKey,
		...(model.baseUrl ? { serverURL: model.baseUrl } : {}),
		httpClient: new HTTPClient({ fetcher: (input, init) => fetch(input, init) }),
		retryConfig: { strategy: "none" },
		timeoutMs: NO_SDK_TIMEOUT,
	});
}

function requestHeaders(model: Model, options: MistralOptions | undefined): Record<string, string> {
	const headers: Record<string, string> = { ...model.headers, ...options?.headers };
	// Mistral routes requests with the same `x-affinity` to the same cache (prefix caching); a caller's value wins.
	if (options?.sessionId && !headers["x-affinity"]) headers["x-affinity"] = options.sessionId;
	return headers;
}

/** Streams one reply from Mistral. Never throws; failures end the stream with `error`. */
export function streamMistral(
	model: Model<"mistral-conversations">,
	context: Context,
	options?: MistralOptions,
): AssistantMessageEventStream {
	return runProviderStream<ChatCompletionStreamRequest, CompletionEvent>({
		model,
		options,
		describeError: describeMistralError,
		prepare: () => {
			const apiKey = options?.apiKey || getEnvApiKey(model.provider);
			if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
			return {
				payload: buildChatRequest(model, context, options),
				send: (request, { fetch, signal }) =>
					createMistralClient(model, apiKey, fetch).chat.stream(request, {
						headers: requestHeaders(model, options),
						retries: { strategy: "none" },
						...(signal ? { signal } : {}),
					}),
				createProcessor: (output, stream) => new MistralStreamParser(model, output, stream),
			};
		},
	});
}

/** Provider-neutral options: a reasoning level on a reasoning model asks for `promptMode: "reasoning"`. */
export function streamSimpleMistral(
	model: Model<"mistral-conversations">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	const reasoning = clampReasoning(options?.reasoning);
	return streamMistral(model, context, {
		...buildBaseOptions(model, options, options?.apiKey ?? ""),
		...(model.reasoning && reasoning ? { promptMode: "reasoning" as const } : {}),
	});
}
