// PLACEHOLDER: replaced by the real openai-responses adapter (official SDK). Until then every call ends in an error event.
import { AssistantMessageEventStream } from "../../event-stream.js";
import type { Context, Model, OpenAIResponsesOptions, SimpleStreamOptions } from "../../types.js";
import { createAssistantOutput, failStream } from "../assistant-output.js";

function notImplemented(model: Model, signal?: AbortSignal): AssistantMessageEventStream {
	const stream = new AssistantMessageEventStream();
	queueMicrotask(() =>
		failStream(stream, createAssistantOutput(model), new Error("openai-responses is not implemented yet"), signal),
	);
	return stream;
}

export function streamOpenAIResponses(
	model: Model<"openai-responses">,
	_context: Context,
	options?: OpenAIResponsesOptions,
): AssistantMessageEventStream {
	return notImplemented(model, options?.signal);
}

export function streamSimpleOpenAIResponses(
	model: Model<"openai-responses">,
	_context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return notImplemented(model, options?.signal);
}
