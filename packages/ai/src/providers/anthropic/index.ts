// anthropic-messages through the official SDK. Loaded lazily by register-builtins.ts;
// nothing else may import this module statically, so the SDK loads only when the API is first used.
import type { Stream } from "@anthropic-ai/sdk/core/streaming";
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { getEnvApiKey } from "../../env-api-keys.js";
import type {
	AnthropicOptions,
	AssistantMessageEventStream,
	Context,
	Model,
	SimpleStreamOptions,
} from "../../types.js";
import { runProviderStream } from "../run-stream.js";
import { serializedBody } from "../serialized-payload.js";
import { buildRequestParams } from "./build-request.js";
import { fromClaudeCodeToolName } from "./claude-code.js";
import { createAnthropicClient } from "./client.js";
import { describeAnthropicError } from "./errors.js";
import { buildAnthropicHeaders, headerValue, resolveAuth } from "./headers.js";
import { AnthropicStreamParser } from "./parse-stream.js";
import { toAnthropicOptions } from "./simple-options.js";

const MESSAGES_PATH = "/v1/messages";

/** Streams one reply from the Anthropic Messages API. Never throws; failures end the stream with `error`. */
export function streamAnthropic(
	model: Model<"anthropic-messages">,
	context: Context,
	options?: AnthropicOptions,
): AssistantMessageEventStream {
	return runProviderStream<MessageCreateParamsStreaming, RawMessageStreamEvent>({
		model,
		options,
		describeError: describeAnthropicError,
		prepare: () => {
			const apiKey = options?.apiKey || getEnvApiKey(model.provider);
			if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
			const auth = resolveAuth(model, apiKey);
			const headers = buildAnthropicHeaders({
				model,
				auth,
				messages: context.messages,
				interleavedThinking: options?.interleavedThinking,
				optionHeaders: options?.headers,
			});
			const toolNames = (context.tools ?? []).map((tool) => tool.name);
			const fromWireToolName =
				auth.mode === "oauth" ? (name: string) => fromClaudeCodeToolName(name, toolNames) : undefined;
			// An `onPayload` hook may change the payload in place, so only without one are the wire messages
			// shared between requests and the body assembled from each message's JSON of an earlier request.
			const reuseConversions = !options?.onPayload;
			const apiVersion = headerValue(headers, "anthropic-version");
			return {
				payload: buildRequestParams(model, context, options, auth, apiVersion, { reuseConversions }),
				send: (params, { fetch, signal, whenOver }) => {
					const body = { ...params, stream: true as const };
					// `client.post` is `messages.create` without its console warnings (it prints one for every
					// request to a deprecated model, e.g. claude-sonnet-4-5, which would garble a terminal UI);
					// status errors and SSE parsing are the SDK's own.
					return createAnthropicClient(model, auth, headers, fetch).post<Stream<RawMessageStreamEvent>>(
						MESSAGES_PATH,
						reuseConversions
							? { ...serializedBody(body, "messages", { whenOver }), stream: true, signal }
							: { body, stream: true, signal },
					);
				},
				createProcessor: (output, stream) => new AnthropicStreamParser(output, stream, model, fromWireToolName),
			};
		},
	});
}

/** `streamAnthropic` with provider-neutral options (reasoning level → adaptive effort or thinking budget). */
export function streamSimpleAnthropic(
	model: Model<"anthropic-messages">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return streamAnthropic(model, context, toAnthropicOptions(model, options));
}
