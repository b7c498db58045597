import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { AssistantMessage, AssistantMessageEventStream, Model, ToolCall } from "../../types.js";
import { endTextOrThinkingBlock } from "../assistant-output.js";
import { mapStopReason } from "./map-stop-reason.js";
import { StreamedArguments } from "./partial-arguments.js";
import { applyDeltaUsage, applyStartUsage } from "./usage.js";

/** Text shown for thinking that safety filters redacted; the encrypted payload is kept as its signature. */
export const REDACTED_THINKING_TEXT = "[Reasoning redacted]";

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Streaming bookkeeping for one open block, kept beside the block so it never reaches the message. */
interface OpenBlock {
	contentIndex: number;
	/** Argument JSON received so far (tool calls only). */
	args?: StreamedArguments;
}

/**
 * Folds Anthropic's raw stream events into `output` and emits our events (spec ai §3, §7.1).
 * Blocks are keyed by the server's `index`, so interleaved blocks are each closed by their own stop event.
 */
export class AnthropicStreamParser {
	private readonly open = new Map<number, OpenBlock>();
	/** The raw `stop_reason`, for error messages when it maps to `error`. */
	rawStopReason: string | undefined;

	constructor(
		private readonly output: AssistantMessage,
		private readonly stream: AssistantMessageEventStream,
		private readonly model: Model,
		private readonly fromWireToolName: (name: string) => string = (name) => name,
	) {}

	handle(event: RawMessageStreamEvent): void {
		switch (event.type) {
			case "message_start":
				applyStartUsage(this.output.usage, event.message.usage, this.model);
				return;
			case "content_block_start":
				this.startBlock(event.index, event.content_block);
				return;
			case "content_block_delta":
				this.applyDelta(event.index, event.delta);
				return;
			case "content_block_stop":
				this.endBlock(event.index);
				return;
			case "message_delta":
				if (event.delta.stop_reason) {
					this.rawStopReason = event.delta.stop_reason;
					this.output.stopReason = mapStopReason(event.delta.stop_reason);
				}
				applyDeltaUsage(this.output.usage, event.usage, this.model);
				return;
			case "message_stop":
				return;
		}
	}

	/** Ends blocks the server left open (some proxies omit `content_block_stop`), in content order. */
	closeOpenBlocks(): void {
		const indices = [...this.open.entries()].sort((a, b) => a[1].contentIndex - b[1].contentIndex);
		for (const [index] of indices) this.endBlock(index);
	}

	private startBlock(
		index: number,
		block: Extract<RawMessageStreamEvent, { type: "content_block_start" }>["content_block"],
	): void {
		const output = this.output;
		const contentIndex = output.content.length;
		switch (block.type) {
			case "text":
				output.content.push({ type: "text", text: "" });
				this.open.set(index, { contentIndex });
				this.stream.push({ type: "text_start", contentIndex, partial: output });
				// The API starts blocks empty; a proxy that sends the text here gets it as a first delta.
				if (block.text) this.applyDelta(index, { type: "text_delta", text: block.text });
				return;
			case "thinking":
				output.content.push({ type: "thinking", thinking: "", thinkingSignature: block.signature ?? "" });
				this.open.set(index, { contentIndex });
				this.stream.push({ type: "thinking_start", contentIndex, partial: output });
				if (block.thinking) this.applyDelta(index, { type: "thinking_delta", thinking: block.thinking });
				return;
			case "redacted_thinking":
				output.content.push({
					type: "thinking",
					thinking: REDACTED_THINKING_TEXT,
					thinkingSignature: block.data,
					redacted: true,
				});
				this.open.set(index, { contentIndex });
				this.stream.push({ type: "thinking_start", contentIndex, partial: output });
				return;
			case "tool_use":
				// Some proxies send the whole input here instead of streaming it as deltas.
				output.content.push({
					type: "toolCall",
					id: block.id,
					name: this.fromWireToolName(block.name),
					arguments: isRecord(block.input) ? { ...block.input } : {},
				});
				this.open.set(index, { contentIndex, args: new StreamedArguments() });
				this.stream.push({ type: "toolcall_start", contentIndex, partial: output });
				return;
			default:
				// Server-tool blocks (web search results, …) are not part of our message model.
				return;
		}
	}

	private applyDelta(
		index: number,
		delta: Extract<RawMessageStreamEvent, { type: "content_block_delta" }>["delta"],
	): void {
		const open = this.open.get(index);
		if (!open) return;
		const output = this.output;
		const block = output.content[open.contentIndex];
		const contentIndex = open.contentIndex;
		switch (delta.type) {
			case "text_delta":
				if (block.type !== "text") return;
				block.text += delta.text;
				this.stream.push({ type: "text_delta", contentIndex, delta: delta.text, partial: output });
				return;
			case "thinking_delta":
				if (block.type !== "thinking") return;
				block.thinking += delta.thinking;
				this.stream.push({ type: "thinking_delta", contentIndex, delta: delta.thinking, partial: output });
				return;
			case "signature_delta":
				if (block.type !== "thinking") return;
				block.thinkingSignature = (block.thinkingSignature ?? "") + delta.signature;
				return;
			case "input_json_delta":
				if (block.type !== "toolCall" || !open.args) return;
				block.arguments = open.args.append(delta.partial_json) ?? block.arguments;
				this.stream.push({ type: "toolcall_delta", contentIndex, delta: delta.partial_json, partial: output });
				return;
			default:
				return;
		}
	}

	private endBlock(index: number): void {
		const open = this.open.get(index);
		if (!open) return;
		this.open.delete(index);
		const output = this.output;
		const contentIndex = open.contentIndex;
		const block = output.content[contentIndex];
		if (block.type === "toolCall") {
			if (open.args?.json) block.arguments = open.args.complete();
			this.stream.push({ type: "toolcall_end", contentIndex, toolCall: block satisfies ToolCall, partial: output });
		} else {
			endTextOrThinkingBlock(this.stream, output, contentIndex, block);
		}
	}
}
