import type { FakeReply, SseChunk } from "./fake-server.js";
import { splitText } from "./split-text.js";

/** One Chat Completions stream chunk (the fields a server sends; choices omitted when `choice` is null). */
export function chunk(
	delta: Record<string, unknown> | null,
	extra: { finish_reason?: string | null; usage?: Record<string, unknown> } = {},
): SseChunk {
	const choices =
		delta === null && extra.finish_reason === undefined
			? []
			: [{ index: 0, delta: delta ?? {}, finish_reason: extra.finish_reason ?? null }];
	const data: Record<string, unknown> = {
		id: "chatcmpl-1",
		object: "chat.completion.chunk",
		created: 1,
		model: "test-model",
		choices,
	};
	if (extra.usage) data.usage = extra.usage;
	return { data };
}

export const DONE: SseChunk = "data: [DONE]\n\n";

export function textChunks(text: string, size = 5): SseChunk[] {
	return splitText(text, size).map((part) => chunk({ content: part }));
}

export function finish(reason = "stop", usage?: Record<string, unknown>): SseChunk[] {
	return [chunk({}, { finish_reason: reason }), ...(usage ? [chunk(null, { usage })] : []), DONE];
}

/** A complete streamed text answer. */
export function textReply(text: string, extra: Partial<Extract<FakeReply, { kind: "sse" }>> = {}): FakeReply {
	return {
		kind: "sse",
		chunks: [chunk({ role: "assistant", content: "" }), ...textChunks(text), ...finish()],
		...extra,
	};
}

/** Fragments of one tool call: the first carries id and name, the rest only argument pieces. */
export function toolCallChunks(index: number, id: string, name: string, args: string, size = 4): SseChunk[] {
	const pieces = splitText(args, size);
	return pieces.map((piece, i) =>
		chunk({
			tool_calls: [
				i === 0
					? { index, id, type: "function", function: { name, arguments: piece } }
					: { index, function: { arguments: piece } },
			],
		}),
	);
}
