import type { ContentBlockDelta, ContentBlockStart, ConverseStreamOutput } from "@aws-sdk/client-bedrock-runtime";
import type {
	AssistantMessage,
	AssistantMessageEventStream,
	Model,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "../../types.js";
import { endTextOrThinkingBlock } from "../assistant-output.js";
import { StreamedToolArguments } from "../openai-shared/streamed-tool-arguments.js";
import type { StreamEventProcessor } from "../run-stream.js";
import { UNKNOWN_ERROR_MESSAGE, WireProtocolError } from "../stream-errors.js";
import { mapStopReason } from "./map-stop-reason.js";
import { applyTokenUsage } from "./usage.js";

export const REDACTED_REASONING_TEXT = "[Reasoning redacted]";

type OpenBlock =
	| { kind: "text"; block: TextContent; contentIndex: number }
	| { kind: "thinking"; block: ThinkingContent; contentIndex: number }
	| { kind: "toolCall"; block: ToolCall; contentIndex: number; args: StreamedToolArguments }
	/** A block the server ran itself (a system tool's result): its deltas are skipped. */
	| { kind: "skipped" };

function eventKind(event: ConverseStreamOutput): string {
	return (
		Object.keys(event).find((key) => (event as unknown as Record<string, unknown>)[key] !== undefined) ?? "unknown"
	);
}

/**
 * Folds ConverseStream events into `output`. Blocks are keyed by `contentBlockIndex`: tool calls
 * open with `contentBlockStart`, text and reasoning with their first delta, and each closes at `contentBlockStop`.
 * The reply is complete at `messageStop`; only `metadata` (usage) may follow it. Events before `messageStart`,
 * deltas for blocks that are not open and content Bedrock could send but this client cannot represent (images)
 * fail the reply.
 */
export class BedrockStreamParser implements StreamEventProcessor<ConverseStreamOutput> {
	readonly terminalEvent = "messageStop";
	private readonly blocks = new Map<number, OpenBlock>();
	private started = false;
	private stopped = false;
	private rawStopReason: string | undefined;

	constructor(
		private readonly model: Model,
		private readonly output: AssistantMessage,
		private readonly stream: AssistantMessageEventStream,
	) {}

	get isComplete(): boolean {
		return this.stopped;
	}

	get failureReason(): string {
		return `${UNKNOWN_ERROR_MESSAGE} (stop reason: ${this.rawStopReason ?? "none"})`;
	}

	handle(event: ConverseStreamOutput): void {
		if (event.metadata) {
			if (event.metadata.usage) applyTokenUsage(this.output.usage, event.metadata.usage, this.model);
			return;
		}
		if (this.stopped) throw new WireProtocolError(`a ${eventKind(event)} event after messageStop`);
		if (event.messageStart) {
			if (this.started) throw new WireProtocolError("a second messageStart");
			if (event.messageStart.role !== "assistant") {
				throw new WireProtocolError(`a messageStart for role "${event.messageStart.role}"`);
			}
			this.started = true;
			return;
		}
		if (!this.started) throw new WireProtocolError(`a ${eventKind(event)} event before messageStart`);
		if (event.contentBlockStart) {
			this.startBlock(event.contentBlockStart.contentBlockIndex ?? 0, event.contentBlockStart.start);
		} else if (event.contentBlockDelta) {
			this.applyDelta(event.contentBlockDelta.contentBlockIndex ?? 0, event.contentBlockDelta.delta);
		} else if (event.contentBlockStop) {
			this.closeBlock(event.contentBlockStop.contentBlockIndex ?? 0);
		} else if (event.messageStop) {
			this.stopped = true;
			this.rawStopReason = event.messageStop.stopReason;
			this.output.stopReason = mapStopReason(event.messageStop.stopReason);
		}
	}

	finish(): void {
		for (const index of [...this.blocks.keys()]) this.closeBlock(index);
	}

	abandon(): void {
		for (const open of this.blocks.values()) if (open.kind === "toolCall") open.args.abandon();
		this.blocks.clear();
	}

	private startBlock(index: number, start: ContentBlockStart | undefined): void {
		if (this.blocks.has(index))
			throw new WireProtocolError(`a contentBlockStart for content block ${index}, which is already open`);
		if (start?.toolUse) {
			const block: ToolCall = {
				type: "toolCall",
				id: start.toolUse.toolUseId ?? "",
				name: start.toolUse.name ?? "",
				arguments: {},
			};
			const contentIndex = this.push(block);
			this.blocks.set(index, { kind: "toolCall", block, contentIndex, args: new StreamedToolArguments(block) });
			this.stream.push({ type: "toolcall_start", contentIndex, partial: this.output });
		} else if (start?.toolResult) {
			this.blocks.set(index, { kind: "skipped" });
		} else {
			const name = start ? Object.keys(start)[0] : "empty";
			throw new WireProtocolError(`a content block of kind "${name}", which this client cannot represent`);
		}
	}

	private applyDelta(index: number, delta: ContentBlockDelta | undefined): void {
		let open = this.blocks.get(index);
		if (open?.kind === "skipped" || delta?.citation) return;
		if (delta?.text !== undefined) {
			open ??= this.openText(index, "text");
			if (open.kind !== "text") throw this.mismatch("text", index);
			if (delta.text === "") return;
			open.block.text += delta.text;
			this.stream.push({
				type: "text_delta",
				contentIndex: open.contentIndex,
				delta: delta.text,
				partial: this.output,
			});
		} else if (delta?.reasoningContent) {
			open ??= this.openText(index, "thinking");
			if (open.kind !== "thinking") throw this.mismatch("reasoningContent", index);
			const { text, signature, redactedContent } = delta.reasoningContent;
			if (text) {
				open.block.thinking += text;
				this.stream.push({
					type: "thinking_delta",
					contentIndex: open.contentIndex,
					delta: text,
					partial: this.output,
				});
			}
			if (signature) open.block.thinkingSignature = (open.block.thinkingSignature ?? "") + signature;
			if (redactedContent) {
				open.block.redacted = true;
				open.block.thinking = REDACTED_REASONING_TEXT;
				open.block.thinkingSignature = Buffer.from(redactedContent).toString("base64");
			}
		} else if (delta?.toolUse) {
			if (open?.kind !== "toolCall")
				throw new WireProtocolError(`a toolUse delta for content block ${index}, which is not an open tool call`);
			const fragment = delta.toolUse.input ?? "";
			open.args.append(fragment);
			this.stream.push({
				type: "toolcall_delta",
				contentIndex: open.contentIndex,
				delta: fragment,
				partial: this.output,
			});
		} else if (delta?.toolResult) {
			if (!open) this.blocks.set(index, { kind: "skipped" });
		} else {
			const name = delta ? Object.keys(delta)[0] : "empty";
			throw new WireProtocolError(`a ${name} delta, which this client cannot represent`);
		}
	}

	private openText(index: number, kind: "text" | "thinking"): OpenBlock {
		const contentIndex = this.output.content.length;
		const open: OpenBlock =
			kind === "text"
				? { kind, block: { type: "text", text: "" }, contentIndex }
				: { kind, block: { type: "thinking", thinking: "", thinkingSignature: "" }, contentIndex };
		this.push(open.block);
		this.blocks.set(index, open);
		this.stream.push({ type: kind === "text" ? "text_start" : "thinking_start", contentIndex, partial: this.output });
		return open;
	}

	private closeBlock(index: number): void {
		const open = this.blocks.get(index);
		// A stop for a block that never had content (an empty text block) closes nothing.
		if (!open) return;
		this.blocks.delete(index);
		if (open.kind === "skipped") return;
		if (open.kind === "toolCall") {
			open.args.finish();
			this.stream.push({
				type: "toolcall_end",
				contentIndex: open.contentIndex,
				toolCall: open.block,
				partial: this.output,
			});
		} else {
			endTextOrThinkingBlock(this.stream, this.output, open.contentIndex, open.block);
		}
	}

	private push(block: TextContent | ThinkingContent | ToolCall): number {
		this.output.content.push(block);
		return this.output.content.length - 1;
	}

	private mismatch(delta: string, index: number): WireProtocolError {
		return new WireProtocolError(`a ${delta} delta for content block ${index}, which holds other content`);
	}
}
