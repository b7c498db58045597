// PLACEHOLDER: replaced by the real anthropic-messages adapter (official SDK). Until then every call ends in an error event.
import { AssistantMessageEventStream } from "../../event-stream.js";
import type { AnthropicOptions, Context, Model, SimpleStreamOptions } from "../../types.js";
import { createAssistantOutput, failStream } from "../assistant-output.js";

function notImplemented(model: Model, signal?: AbortSignal): AssistantMessageEventStream {
	const stream = new AssistantMessageEventStream();
	queueMicrotask(() =>
		failStream(stream, createAssistantOutput(model), new Error("anthropic-messages is not implemented yet"), signal),
	);
	return stream;
}

export function streamAnthropic(
	model: Model<"anthropic-messages">,
	_context: Context,
	options?: AnthropicOptions,
): AssistantMessageEventStream {
	return notImplemented(model, options?.signal);
}

export function streamSimpleAnthropic(
	model: Model<"anthropic-messages">,
	_context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return notImplemented(model, options?.signal);
}
