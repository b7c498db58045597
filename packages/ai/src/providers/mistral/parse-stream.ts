import type {
	CompletionEvent,
	ContentChunk,
	ToolCall as MistralToolCall,
} from "@mistralai/mistralai/models/components";
import type {
	AssistantMessage,
	AssistantMessageEventStream,
	Model,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "../../types.js";
import { endTextOrThinkingBlock } from "../assistant-output.js";
import { StreamedToolArguments } from "../openai-shared/streamed-tool-arguments.js";
import type { StreamEventProcessor } from "../run-stream.js";
import { UNKNOWN_ERROR_MESSAGE, WireProtocolError } from "../stream-errors.js";
import { applyMistralUsage } from "./usage.js";

/** Mistral's finish reasons; anything else (e.g. `error`) fails the reply. */
export function mapFinishReason(reason: string): StopReason {
	switch (reason) {
		case "stop":
			return "stop";
		case "length":
		case "model_length":
			return "length";
		case "tool_calls":
			return "toolUse";
		default:
			return "error";
	}
}

type OpenText = { block: TextContent | ThinkingContent; contentIndex: number };
type OpenCall = { block: ToolCall; contentIndex: number; args: StreamedToolArguments };

function chunkText(chunk: ContentChunk): { kind: "text" | "thinking"; text: string } | undefined {
	if (chunk.type === "text") return { kind: "text", text: chunk.text };
	if (chunk.type === "thinking") {
		const text = chunk.thinking
			.map((part) => ("text" in part && typeof part.text === "string" ? part.text : ""))
			.join("");
		return { kind: "thinking", text };
	}
	return undefined;
}

/**
 * Folds Mistral's chat chunks into `output`. One text or thinking block is open at a time;
 * tool calls are keyed by their index and id and close when the reply finishes. The reply is complete at the first
 * choice with a finishReason (usage may follow in a chunk without content); content after it fails the reply.
 */
export class MistralStreamParser implements StreamEventProcessor<CompletionEvent> {
	readonly terminalEvent = "finish_reason";
	private current: OpenText | undefined;
	private readonly calls = new Map<string, OpenCall>();
	private rawFinishReason: string | undefined;

	constructor(
		private readonly model: Model,
		private readonly output: AssistantMessage,
		private readonly stream: AssistantMessageEventStream,
	) {}

	get isComplete(): boolean {
		return this.rawFinishReason !== undefined;
	}

	get failureReason(): string {
		return `${UNKNOWN_ERROR_MESSAGE} (finish reason: ${this.rawFinishReason})`;
	}

	handle(event: CompletionEvent): void {
		const chunk = event.data;
		if (chunk.usage) applyMistralUsage(this.output.usage, chunk.usage, this.model);
		const choice = chunk.choices[0];
		if (!choice) return;
		const { content, toolCalls } = choice.delta;
		const hasContent =
			(typeof content === "string" ? content !== "" : (content?.length ?? 0) > 0) || (toolCalls?.length ?? 0) > 0;
		if (this.isComplete && hasContent) throw new WireProtocolError("content after the finish_reason");
		if (typeof content === "string") this.appendText("text", content);
		else for (const part of content ?? []) this.handleChunk(part);
		for (const call of toolCalls ?? []) this.handleToolCall(call);
		if (choice.finishReason) {
			this.rawFinishReason = choice.finishReason;
			this.output.stopReason = mapFinishReason(choice.finishReason);
		}
	}

	finish(): void {
		this.closeCurrent();
		for (const call of this.calls.values()) {
			call.args.finish();
			this.stream.push({
				type: "toolcall_end",
				contentIndex: call.contentIndex,
				toolCall: call.block,
				partial: this.output,
			});
		}
		this.calls.clear();
	}

	abandon(): void {
		for (const call of this.calls.values()) call.args.abandon();
		this.calls.clear();
	}

	private handleChunk(part: ContentChunk): void {
		const text = chunkText(part);
		if (!text)
			throw new WireProtocolError(`a content chunk of type "${part.type}", which this client cannot represent`);
		this.appendText(text.kind, text.text);
	}

	private appendText(kind: "text" | "thinking", text: string): void {
		if (text === "") return;
		if (this.current?.block.type !== kind) {
			this.closeCurrent();
			const block: TextContent | ThinkingContent =
				kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" };
			this.output.content.push(block);
			this.current = { block, contentIndex: this.output.content.length - 1 };
			this.stream.push({
				type: kind === "text" ? "text_start" : "thinking_start",
				contentIndex: this.current.contentIndex,
				partial: this.output,
			});
		}
		const { block, contentIndex } = this.current;
		if (block.type === "text") {
			block.text += text;
			this.stream.push({ type: "text_delta", contentIndex, delta: text, partial: this.output });
		} else {
			block.thinking += text;
			this.stream.push({ type: "thinking_delta", contentIndex, delta: text, partial: this.output });
		}
	}

	private closeCurrent(): void {
		if (!this.current) return;
		endTextOrThinkingBlock(this.stream, this.output, this.current.contentIndex, this.current.block);
		this.current = undefined;
	}

	private handleToolCall(call: MistralToolCall): void {
		this.closeCurrent();
		const index = call.index ?? 0;
		const hasId = call.id !== undefined && call.id !== "" && call.id !== "null";
		const key = `${index}`;
		let open = this.calls.get(key);
		if (open && hasId && open.block.id !== call.id) {
			throw new WireProtocolError(`a second tool call (${call.id}) at index ${index}`);
		}
		if (!open) {
			const block: ToolCall = {
				type: "toolCall",
				id: hasId ? (call.id as string) : `call${index}`,
				name: call.function.name,
				arguments: {},
			};
			this.output.content.push(block);
			open = { block, contentIndex: this.output.content.length - 1, args: new StreamedToolArguments(block) };
			this.calls.set(key, open);
			this.stream.push({ type: "toolcall_start", contentIndex: open.contentIndex, partial: this.output });
		}
		const fragment =
			typeof call.function.arguments === "string"
				? call.function.arguments
				: JSON.stringify(call.function.arguments ?? {});
		open.args.append(fragment);
		this.stream.push({
			type: "toolcall_delta",
			contentIndex: open.contentIndex,
			delta: fragment,
			partial: this.output,
		});
	}
}
