// Builders for Anthropic Messages SSE streams, in the wire shape the API sends, for FakeServer replies.
import type { FakeReply, SseChunk } from "./fake-server.js";

export interface AnthropicWireUsage {
	input_tokens?: number | null;
	output_tokens?: number | null;
	cache_read_input_tokens?: number | null;
	cache_creation_input_tokens?: number | null;
}

function event(type: string, data: Record<string, unknown>): SseChunk {
	return { event: type, data: { type, ...data } };
}

export function messageStart(usage: AnthropicWireUsage = { input_tokens: 10, output_tokens: 1 }): SseChunk {
	return event("message_start", {
		message: {
			id: "msg_test",
			type: "message",
			role: "assistant",
			model: "claude-test",
			content: [],
			stop_reason: null,
			stop_sequence: null,
			usage,
		},
	});
}

export function textBlock(index: number, deltas: string[]): SseChunk[] {
	return [
		event("content_block_start", { index, content_block: { type: "text", text: "" } }),
		...deltas.map((text) => event("content_block_delta", { index, delta: { type: "text_delta", text } })),
		event("content_block_stop", { index }),
	];
}

export function thinkingBlock(index: number, deltas: string[], signatureParts: string[] = []): SseChunk[] {
	return [
		event("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } }),
		...deltas.map((thinking) => event("content_block_delta", { index, delta: { type: "thinking_delta", thinking } })),
		...signatureParts.map((signature) =>
			event("content_block_delta", { index, delta: { type: "signature_delta", signature } }),
		),
		event("content_block_stop", { index }),
	];
}

export function redactedThinkingBlock(index: number, data: string): SseChunk[] {
	return [
		event("content_block_start", { index, content_block: { type: "redacted_thinking", data } }),
		event("content_block_stop", { index }),
	];
}

export function toolUseStart(index: number, id: string, name: string): SseChunk {
	return event("content_block_start", { index, content_block: { type: "tool_use", id, name, input: {} } });
}

export function inputJsonDelta(index: number, partial: string): SseChunk {
	return event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: partial } });
}

export function blockStop(index: number): SseChunk {
	return event("content_block_stop", { index });
}

/** A tool_use block whose argument JSON arrives in pieces of `pieceLength` characters. */
export function toolUseBlock(index: number, id: string, name: string, args: unknown, pieceLength = 3): SseChunk[] {
	const json = JSON.stringify(args);
	const pieces: string[] = [];
	for (let i = 0; i < json.length; i += pieceLength) pieces.push(json.slice(i, i + pieceLength));
	return [toolUseStart(index, id, name), ...pieces.map((piece) => inputJsonDelta(index, piece)), blockStop(index)];
}

export function messageDelta(stopReason: string | null, usage: AnthropicWireUsage = { output_tokens: 5 }): SseChunk {
	return event("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage });
}

export function messageStop(): SseChunk {
	return event("message_stop", {});
}

export function streamError(type: string, message: string): SseChunk {
	return { event: "error", data: { type: "error", error: { type, message } } };
}

/** A complete reply: message_start, the given blocks, message_delta with the stop reason, message_stop. */
export function anthropicReply(
	blocks: SseChunk[],
	options: { stopReason?: string; start?: AnthropicWireUsage; end?: AnthropicWireUsage } = {},
): FakeReply {
	return {
		kind: "sse",
		chunks: [
			messageStart(options.start),
			...blocks,
			messageDelta(options.stopReason ?? "end_turn", options.end),
			messageStop(),
		],
	};
}

/** An HTTP error with Anthropic's error body. */
export function anthropicHttpError(
	status: number,
	type: string,
	message: string,
): Extract<FakeReply, { kind: "json" }> {
	return { kind: "json", status, body: { type: "error", error: { type, message } } };
}
