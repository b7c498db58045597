// anthropic-messages (spec ai §7.1) through the official SDK. Loaded lazily by register-builtins.ts;
// nothing else may import this module statically, so the SDK loads only when the API is first used.
import type { Stream } from "@anthropic-ai/sdk/core/streaming";
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { getEnvApiKey } from "../../env-api-keys.js";
import type { AnthropicOptions, AssistantMessage, Context, Model, SimpleStreamOptions } from "../../types.js";
import { AssistantMessageEventStream, createAssistantOutput, failStream, finishStream } from "../assistant-output.js";
import { buildRequestParams } from "./build-request.js";
import { fromClaudeCodeToolName } from "./claude-code.js";
import { createAnthropicClient } from "./client.js";
import { describeAnthropicError } from "./errors.js";
import { buildAnthropicHeaders, headerValue, resolveAuth } from "./headers.js";
import { AnthropicStreamParser } from "./parse-stream.js";
import { toAnthropicOptions } from "./simple-options.js";

const MESSAGES_PATH = "/v1/messages";
const ABORTED_MESSAGE = "Request was aborted";
const UNKNOWN_ERROR_MESSAGE = "An unknown error occurred";

async function run(
	stream: AssistantMessageEventStream,
	output: AssistantMessage,
	model: Model,
	context: Context,
	options: AnthropicOptions | undefined,
): Promise<void> {
	const signal = options?.signal;
	try {
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
		let params = buildRequestParams(model, context, options, auth, headerValue(headers, "anthropic-version"));
		if (options?.onPayload) {
			const replaced = await options.onPayload(params, model);
			if (replaced !== undefined) params = replaced as MessageCreateParamsStreaming;
		}

		const client = createAnthropicClient(model, auth, headers);
		// `client.post` is `messages.create` without its console warnings (it prints one for every request
		// to a deprecated model, e.g. claude-sonnet-4-5, which would garble a terminal UI); transport,
		// status errors and SSE parsing are the SDK's own.
		const events = await client.post<Stream<RawMessageStreamEvent>>(MESSAGES_PATH, {
			body: { ...params, stream: true },
			stream: true,
			signal,
		});
		stream.push({ type: "start", partial: output });

		const toolNames = (context.tools ?? []).map((tool) => tool.name);
		const fromWireToolName =
			auth.mode === "oauth" ? (name: string) => fromClaudeCodeToolName(name, toolNames) : undefined;
		const parser = new AnthropicStreamParser(output, stream, model, fromWireToolName);
		for await (const event of events) parser.handle(event);

		// The SDK ends its iteration quietly when the request is aborted mid-stream.
		if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
		parser.closeOpenBlocks();
		if (output.stopReason === "error" || output.stopReason === "aborted") {
			// The reference's text alone says nothing; the raw stop reason (refusal, sensitive) is kept.
			throw new Error(`${UNKNOWN_ERROR_MESSAGE} (stop reason: ${parser.rawStopReason ?? output.stopReason})`);
		}
		finishStream(stream, output);
	} catch (error) {
		const message = signal?.aborted ? ABORTED_MESSAGE : describeAnthropicError(error);
		failStream(stream, output, new Error(message), signal);
	}
}

/** Streams one reply from the Anthropic Messages API. Never throws; failures end the stream with `error`. */
export function streamAnthropic(
	model: Model<"anthropic-messages">,
	context: Context,
	options?: AnthropicOptions,
): AssistantMessageEventStream {
	const stream = new AssistantMessageEventStream();
	void run(stream, createAssistantOutput(model), model, context, options);
	return stream;
}

/** `streamAnthropic` with provider-neutral options (reasoning level → adaptive effort or thinking budget). */
export function streamSimpleAnthropic(
	model: Model<"anthropic-messages">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return streamAnthropic(model, context, toAnthropicOptions(model, options));
}
