// PLACEHOLDER: replaced by the real openai-completions adapter (official SDK). Until then every call ends in an error event.
import { AssistantMessageEventStream } from "../../event-stream.js";
import type { Context, Model, OpenAICompletionsOptions, SimpleStreamOptions } from "../../types.js";
import { createAssistantOutput, failStream } from "../assistant-output.js";

function notImplemented(model: Model, signal?: AbortSignal): AssistantMessageEventStream {
	const stream = new AssistantMessageEventStream();
	queueMicrotask(() =>
		failStream(stream, createAssistantOutput(model), new Error("openai-completions is not implemented yet"), signal),
	);
	return stream;
}

export function streamOpenAICompletions(
	model: Model<"openai-completions">,
	_context: Context,
	options?: OpenAICompletionsOptions,
): AssistantMessageEventStream {
	return notImplemented(model, options?.signal);
}

export function streamSimpleOpenAICompletions(
	model: Model<"openai-completions">,
	_context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return notImplemented(model, options?.signal);
}
