// Ours: a reply that failed with a server hint to wait longer than `retry.maxDelayMs` is not retried (see
// `planRetryDelay`). Its error text says why, wherever it is shown or stored (the session file, print mode's
// stderr, JSON and RPC events, the interactive transcript), not only in the `auto_retry_end` event.
import type { ModelReplyStream, StreamFn } from "@agent/agent-core";
import type { AssistantMessage, AssistantMessageEvent } from "@agent/ai";
import { isRetryableError, type RetrySettingsValues, withRetryCapExceededNote } from "./retry-policy.js";

/** `streamFn` whose failed replies carry ` (the server asked to wait …, longer than retry.maxDelayMs …)`. */
export function withRetryCapNote(streamFn: StreamFn, getRetrySettings: () => RetrySettingsValues): StreamFn {
	return async (model, context, options) => {
		const inner = await streamFn(model, context, options);
		const annotate = (message: AssistantMessage): AssistantMessage => {
			if (message.stopReason !== "error" || !message.errorMessage) return message;
			const settings = getRetrySettings();
			if (!settings.enabled || !isRetryableError(message)) return message;
			const errorMessage = withRetryCapExceededNote(message.errorMessage, settings.maxDelayMs);
			return errorMessage === message.errorMessage ? message : { ...message, errorMessage };
		};
		const annotated: ModelReplyStream = {
			push: (event) => inner.push(event),
			end: (result) => inner.end(result),
			result: () => inner.result().then(annotate),
			[Symbol.asyncIterator]: () => annotatedEvents(inner, annotate),
		};
		return annotated;
	};
}

// At module level on purpose: V8 gives every generator closure a map of its own, which keeps the closure's scope
// (here the reply's stream and every event in it) alive until a full collection.
async function* annotatedEvents(
	inner: ModelReplyStream,
	annotate: (message: AssistantMessage) => AssistantMessage,
): AsyncGenerator<AssistantMessageEvent> {
	for await (const event of inner) {
		yield event.type === "error" ? { ...event, error: annotate(event.error) } : event;
	}
}
