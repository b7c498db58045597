import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { AssistantMessage, AssistantMessageEventStream, Model, ToolCall } from "../../types.js";
import { endTextOrThinkingBlock } from "../assistant-output.js";
import type { StreamEventProcessor } from "../run-stream.js";
import { UNKNOWN_ERROR_MESSAGE, WireProtocolError } from "../stream-errors.js";
import { abandonToolArguments, isJsonObject, settleToolArguments } from "../tool-arguments.js";
import { mapStopReason } from "./map-stop-reason.js";
import { StreamedArguments } from "./partial-arguments.js";
import { applyDeltaUsage, applyStartUsage } from "./usage.js";

/** Text shown for thinking that safety filters redacted; the encrypted payload is kept as its signature. */
export const REDACTED_THINKING_TEXT = "[Reasoning redacted]";

type WireBlock = Extract<RawMessageStreamEvent, { type: "content_block_start" }>["content_block"];
type WireDelta = Extract<RawMessageStreamEvent, { type: "content_block_delta" }>["delta"];

/**
 * Blocks of server-side tools (web search, web fetch, code execution, MCP connector, …): the server ran them and
 * the reply's text carries what they found, so they are skipped with their deltas. Any other block type we do not
 * know could be something the reply depends on (a new kind of client tool call), so it fails the reply.
 */
const SERVER_SIDE_BLOCKS = new Set(["server_tool_use", "mcp_tool_use", "mcp_tool_result", "container_upload"]);

function isServerSideBlock(type: string): boolean {
	return SERVER_SIDE_BLOCKS.has(type) || type.endsWith("_tool_result");
}

/** Deltas that carry nothing for our message model (citations of a text block). */
const IGNORED_DELTAS = new Set(["citations_delta"]);

/** Streaming bookkeeping for one open block, kept beside the block so it never reaches the message. */
interface OpenBlock {
	contentIndex: number;
	/** Argument JSON received so far (tool calls only). */
	args?: StreamedArguments;
}

/**
 * Folds Anthropic's raw stream events into `output` and emits our events.
 * Blocks are keyed by the server's `index`, so interleaved blocks are each closed by their own stop event.
 * The reply is complete at `message_stop` after a `message_delta` with a stop reason; an event the protocol
 * does not allow at that point (before `message_start`, for a block that is not open, after `message_stop`)
 * fails the reply instead of being skipped.
 */
export class AnthropicStreamParser implements StreamEventProcessor<RawMessageStreamEvent> {
	readonly terminalEvent = "message_stop";
	private readonly open = new Map<number, OpenBlock>();
	/** Every index a block was started at, including skipped server-side blocks. */
	private readonly startedIndices = new Set<number>();
	private readonly skippedIndices = new Set<number>();
	private hasStarted = false;
	private hasStopped = false;
	/** The raw `stop_reason`, for error messages when it maps to `error`. */
	rawStopReason: string | undefined;

	constructor(
		private readonly output: AssistantMessage,
		private readonly stream: AssistantMessageEventStream,
		private readonly model: Model,
		private readonly fromWireToolName: (name: string) => string = (name) => name,
	) {}

	get isComplete(): boolean {
		return this.hasStopped;
	}

	get failureReason(): string {
		// The reference's text alone says nothing; the raw stop reason (refusal, sensitive) is kept.
		return `${UNKNOWN_ERROR_MESSAGE} (stop reason: ${this.rawStopReason ?? this.output.stopReason})`;
	}

	handle(event: RawMessageStreamEvent): void {
		if (this.hasStopped) throw new WireProtocolError(`a ${event.type} event after message_stop`);
		if (!this.hasStarted && event.type !== "message_start") {
			throw new WireProtocolError(`a ${event.type} event before message_start`);
		}
		switch (event.type) {
			case "message_start":
				if (this.hasStarted) throw new WireProtocolError("a second message_start");
				this.hasStarted = true;
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
				if (this.rawStopReason === undefined) throw new WireProtocolError("message_stop without a stop_reason");
				this.hasStopped = true;
				return;
			default:
				// Event types added to the protocol later are informational (the API documents this).
				return;
		}
	}

	/** Ends blocks the server left open (some proxies omit `content_block_stop`), in content order. */
	finish(): void {
		const indices = [...this.open.entries()].sort((a, b) => a[1].contentIndex - b[1].contentIndex);
		for (const [index] of indices) this.endBlock(index);
	}

	/** Open tool calls keep their partial arguments for display, marked as cut off. */
	abandon(): void {
		for (const open of this.open.values()) {
			const block = this.output.content[open.contentIndex];
			if (block.type === "toolCall" && open.args) abandonToolArguments(block, open.args.json);
		}
		this.open.clear();
	}

	private startBlock(index: number, block: WireBlock): void {
		if (this.startedIndices.has(index)) throw new WireProtocolError(`content block ${index} started twice`);
		if (this.rawStopReason !== undefined) throw new WireProtocolError("a content block after the stop reason");
		this.startedIndices.add(index);
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
					arguments: isJsonObject(block.input) ? { ...block.input } : {},
				});
				this.open.set(index, { contentIndex, args: new StreamedArguments() });
				this.stream.push({ type: "toolcall_start", contentIndex, partial: output });
				return;
			default: {
				const type: string = block.type;
				if (!isServerSideBlock(type)) {
					throw new WireProtocolError(`a content block of type "${type}", which this client cannot represent`);
				}
				this.skippedIndices.add(index);
				return;
			}
		}
	}

	private openBlock(index: number, event: string): OpenBlock | undefined {
		const open = this.open.get(index);
		if (open || this.skippedIndices.has(index)) return open;
		throw new WireProtocolError(`a ${event} for content block ${index}, which is not open`);
	}

	private applyDelta(index: number, delta: WireDelta): void {
		const open = this.openBlock(index, "content_block_delta");
		if (!open) return;
		const output = this.output;
		const block = output.content[open.contentIndex];
		const contentIndex = open.contentIndex;
		if (delta.type === "text_delta" && block.type === "text") {
			block.text += delta.text;
			this.stream.push({ type: "text_delta", contentIndex, delta: delta.text, partial: output });
		} else if (delta.type === "thinking_delta" && block.type === "thinking") {
			block.thinking += delta.thinking;
			this.stream.push({ type: "thinking_delta", contentIndex, delta: delta.thinking, partial: output });
		} else if (delta.type === "signature_delta" && block.type === "thinking") {
			block.thinkingSignature = (block.thinkingSignature ?? "") + delta.signature;
		} else if (delta.type === "input_json_delta" && block.type === "toolCall" && open.args) {
			block.arguments = open.args.append(delta.partial_json) ?? block.arguments;
			this.stream.push({ type: "toolcall_delta", contentIndex, delta: delta.partial_json, partial: output });
		} else if (!IGNORED_DELTAS.has(delta.type)) {
			throw new WireProtocolError(`a ${delta.type} for a ${block.type} block`);
		}
	}

	private endBlock(index: number): void {
		const open = this.openBlock(index, "content_block_stop");
		this.skippedIndices.delete(index);
		if (!open) return;
		this.open.delete(index);
		const output = this.output;
		const contentIndex = open.contentIndex;
		const block = output.content[contentIndex];
		if (block.type === "toolCall") {
			// Arguments given whole in content_block_start stay as they are when no deltas follow.
			if (open.args?.json) settleToolArguments(block, open.args.json);
			this.stream.push({ type: "toolcall_end", contentIndex, toolCall: block satisfies ToolCall, partial: output });
		} else {
			endTextOrThinkingBlock(this.stream, output, contentIndex, block);
		}
	}
}
