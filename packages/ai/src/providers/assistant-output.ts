import { AssistantMessageEventStream } from "../event-stream.js";
import type { AssistantMessage, Model, TextContent, ThinkingContent, Usage } from "../types.js";
import { ABORTED_MESSAGE } from "./stream-errors.js";

export function emptyUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/** The message every provider starts from before any I/O (its `usage` zero, `stopReason` "stop"). */
export function createAssistantOutput(model: Model): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "stop",
		timestamp: Date.now(),
	};
}

/** Emits the `text_end` or `thinking_end` event that closes `block`, carrying its whole text. */
export function endTextOrThinkingBlock(
	stream: Pick<AssistantMessageEventStream, "push">,
	output: AssistantMessage,
	contentIndex: number,
	block: TextContent | ThinkingContent,
): void {
	if (block.type === "thinking") {
		stream.push({ type: "thinking_end", contentIndex, content: block.thinking, partial: output });
	} else {
		stream.push({ type: "text_end", contentIndex, content: block.text, partial: output });
	}
}

/** Error text for any thrown value: an Error's message, otherwise its JSON. */
export function describeError(error: unknown): string {
	if (error instanceof Error) return error.message;
	if (typeof error === "string") return error;
	try {
		return JSON.stringify(error);
	} catch {
		return String(error);
	}
}

const INTERNAL_BLOCK_FIELDS = ["partialJson", "partialArgs", "index"] as const;

/** Removes streaming bookkeeping from content blocks so it is never persisted. */
export function stripInternalFields(output: AssistantMessage): void {
	for (const block of output.content) {
		const record = block as unknown as Record<string, unknown>;
		for (const field of INTERNAL_BLOCK_FIELDS) delete record[field];
	}
}

/**
 * Encodes a failure in the stream: internal fields removed, stop reason
 * `aborted` when the signal fired and `error` otherwise, then a terminal `error` event.
 */
export function failStream(
	stream: AssistantMessageEventStream,
	output: AssistantMessage,
	error: unknown,
	signal?: AbortSignal,
): void {
	stripInternalFields(output);
	output.stopReason = signal?.aborted ? "aborted" : "error";
	output.errorMessage = signal?.aborted && !(error instanceof Error) ? ABORTED_MESSAGE : describeError(error);
	stream.push({ type: "error", reason: output.stopReason, error: output });
	stream.end();
}

/** Ends a successful stream with `done`. */
export function finishStream(stream: AssistantMessageEventStream, output: AssistantMessage): void {
	stripInternalFields(output);
	const reason = output.stopReason;
	if (reason === "error" || reason === "aborted") {
		stream.push({ type: "error", reason, error: output });
	} else {
		stream.push({ type: "done", reason, message: output });
	}
	stream.end();
}

export { AssistantMessageEventStream };
