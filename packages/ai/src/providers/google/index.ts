// PLACEHOLDER: replaced by the real google-generative-ai adapter (official SDK). Until then every call ends in an error event.
import { AssistantMessageEventStream } from "../../event-stream.js";
import type { Context, GoogleOptions, Model, SimpleStreamOptions } from "../../types.js";
import { createAssistantOutput, failStream } from "../assistant-output.js";

function notImplemented(model: Model, signal?: AbortSignal): AssistantMessageEventStream {
	const stream = new AssistantMessageEventStream();
	queueMicrotask(() =>
		failStream(
			stream,
			createAssistantOutput(model),
			new Error("google-generative-ai is not implemented yet"),
			signal,
		),
	);
	return stream;
}

export function streamGoogle(
	model: Model<"google-generative-ai">,
	_context: Context,
	options?: GoogleOptions,
): AssistantMessageEventStream {
	return notImplemented(model, options?.signal);
}

export function streamSimpleGoogle(
	model: Model<"google-generative-ai">,
	_context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return notImplemented(model, options?.signal);
}
