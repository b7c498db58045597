import type { AssistantMessageEventStream } from "../../event-stream.js";
import type { AssistantMessage, Model, TextContent, ThinkingContent, ToolCall } from "../../types.js";
import { endTextOrThinkingBlock } from "../assistant-output.js";
import { StreamedToolArguments } from "../openai-shared/streamed-tool-arguments.js";
import type { StreamEventProcessor } from "../run-stream.js";
import { WireProtocolError } from "../stream-errors.js";
import { CONTENT_FILTER_MESSAGE, mapFinishReason } from "./map-stop-reason.js";
import { parseCompletionsUsage } from "./usage.js";
import {
	REASONING_FIELDS,
	type ReasoningField,
	type WireChunk,
	type WireDelta,
	type WireReasoningDetail,
	type WireToolCallDelta,
} from "./wire-types.js";

interface OpenTextBlock {
	block: TextContent | ThinkingContent;
	contentIndex: number;
}

interface OpenToolCall {
	block: ToolCall;
	contentIndex: number;
	/** The server's `index` for this call; parallel calls may interleave their fragments by it. */
	streamIndex: number | undefined;
	args: StreamedToolArguments;
}

/** True when the delta carries content (servers may send empty deltas after the finish_reason). */
function hasContent(delta: WireDelta): boolean {
	const isText = (value: unknown) => typeof value === "string" && value.length > 0;
	return (
		firstReasoning(delta) !== undefined ||
		isText(delta.content) ||
		isText(delta.refusal) ||
		(Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0)
	);
}

function firstReasoning(delta: WireDelta): { field: ReasoningField; text: string } | undefined {
	for (const field of REASONING_FIELDS) {
		const text = delta[field];
		if (typeof text === "string" && text.length > 0) return { field, text };
	}
	return undefined;
}

/**
 * Turns Chat Completions chunks into assistant-message events. Text and thinking have one
 * open block at a time; tool calls are keyed by the server's `index`, so parallel calls whose fragments
 * interleave still land in the right block (the reference appended them to whichever call was last).
 * Streaming bookkeeping lives here, never on the blocks, so partial and final messages carry none.
 * The reply is complete once a chunk carries a finish_reason; content after it fails the reply.
 */
export class CompletionsStreamParser implements StreamEventProcessor<WireChunk> {
	readonly terminalEvent = "finish_reason";
	private openText: OpenTextBlock | undefined;
	private openToolCalls: OpenToolCall[] = [];
	private hasToolCalls = false;
	private sawFinishReason = false;
	/** OpenRouter `reasoning.encrypted` details by tool-call id, kept as JSON on the call. */
	private readonly encryptedReasoning = new Map<string, string>();
	failureReason: string | undefined;

	constructor(
		private readonly model: Model,
		private readonly output: AssistantMessage,
		private readonly stream: AssistantMessageEventStream,
	) {}

	get isComplete(): boolean {
		return this.sawFinishReason;
	}

	handle(chunk: WireChunk): void {
		const choice = chunk.choices?.[0];
		const usage = chunk.usage ?? choice?.usage;
		if (usage) this.output.usage = parseCompletionsUsage(usage, this.model);
		if (!choice) return;

		const delta = choice.delta;
		// Usage-only and empty chunks after the finish_reason are normal (stream_options.include_usage).
		if (this.sawFinishReason && delta && hasContent(delta)) {
			throw new WireProtocolError("content after the finish_reason");
		}
		if (delta) {
			const reasoning = firstReasoning(delta);
			if (reasoning) this.appendThinking(reasoning.text, reasoning.field);
			if (typeof delta.content === "string" && delta.content.length > 0) this.appendText(delta.content);
			if (typeof delta.refusal === "string" && delta.refusal.length > 0) this.appendText(delta.refusal);
			if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) this.appendToolCall(call);
			if (Array.isArray(delta.reasoning_details)) this.collectReasoningDetails(delta.reasoning_details);
		}

		if (choice.finish_reason) {
			this.sawFinishReason = true;
			this.output.stopReason = mapFinishReason(choice.finish_reason);
			if (choice.finish_reason === "content_filter") this.failureReason = CONTENT_FILTER_MESSAGE;
		}
	}

	finish(): void {
		this.closeText();
		this.closeToolCalls();
		// Some compatible servers answer "stop" even when the reply is a tool call.
		if (this.output.stopReason === "stop" && this.hasToolCalls) this.output.stopReason = "toolUse";
	}

	abandon(): void {
		for (const open of this.openToolCalls) open.args.abandon();
		this.openToolCalls = [];
	}

	private appendText(delta: string): void {
		const open = this.openTextBlock("text");
		(open.block as TextContent).text += delta;
		this.stream.push({ type: "text_delta", contentIndex: open.contentIndex, delta, partial: this.output });
	}

	private appendThinking(delta: string, field: ReasoningField): void {
		const open = this.openTextBlock("thinking", field);
		(open.block as ThinkingContent).thinking += delta;
		this.stream.push({ type: "thinking_delta", contentIndex: open.contentIndex, delta, partial: this.output });
	}

	private openTextBlock(kind: "text" | "thinking", signature?: ReasoningField): OpenTextBlock {
		if (this.openText?.block.type === kind) return this.openText;
		this.closeText();
		this.closeToolCalls();
		const block: TextContent | ThinkingContent =
			kind === "text"
				? { type: "text", text: "" }
				: { type: "thinking", thinking: "", thinkingSignature: signature };
		this.output.content.push(block);
		this.openText = { block, contentIndex: this.output.content.length - 1 };
		this.stream.push({
			type: kind === "text" ? "text_start" : "thinking_start",
			contentIndex: this.openText.contentIndex,
			partial: this.output,
		});
		return this.openText;
	}

	private closeText(): void {
		const open = this.openText;
		if (!open) return;
		this.openText = undefined;
		endTextOrThinkingBlock(this.stream, this.output, open.contentIndex, open.block);
	}

	private findToolCall(delta: WireToolCallDelta): OpenToolCall | undefined {
		const continues = (open: OpenToolCall) => !delta.id || !open.block.id || delta.id === open.block.id;
		if (typeof delta.index === "number") {
			// Latest first: some servers reuse index 0 for every call and tell calls apart by id.
			for (let i = this.openToolCalls.length - 1; i >= 0; i--) {
				const open = this.openToolCalls[i];
				if (open.streamIndex === delta.index) return continues(open) ? open : undefined;
			}
			return undefined;
		}
		const last = this.openToolCalls.at(-1);
		return last && continues(last) ? last : undefined;
	}

	private appendToolCall(delta: WireToolCallDelta): void {
		let open = this.findToolCall(delta);
		if (!open) {
			this.closeText();
			const block: ToolCall = { type: "toolCall", id: "", name: "", arguments: {} };
			this.output.content.push(block);
			open = {
				block,
				contentIndex: this.output.content.length - 1,
				streamIndex: typeof delta.index === "number" ? delta.index : undefined,
				args: new StreamedToolArguments(block),
			};
			this.openToolCalls.push(open);
			this.hasToolCalls = true;
			this.stream.push({ type: "toolcall_start", contentIndex: open.contentIndex, partial: this.output });
		}
		if (delta.id) open.block.id = delta.id;
		if (delta.function?.name) open.block.name = delta.function.name;
		const fragment = delta.function?.arguments ?? "";
		open.args.append(fragment);
		this.stream.push({
			type: "toolcall_delta",
			contentIndex: open.contentIndex,
			delta: fragment,
			partial: this.output,
		});
	}

	private closeToolCalls(): void {
		for (const open of this.openToolCalls) {
			open.args.finish();
			const encrypted = this.encryptedReasoning.get(open.block.id);
			if (encrypted) open.block.thoughtSignature = encrypted;
			this.stream.push({
				type: "toolcall_end",
				contentIndex: open.contentIndex,
				toolCall: open.block,
				partial: this.output,
			});
		}
		this.openToolCalls = [];
	}

	private collectReasoningDetails(details: WireReasoningDetail[]): void {
		for (const detail of details) {
			if (detail?.type !== "reasoning.encrypted" || typeof detail.id !== "string" || !detail.id) continue;
			this.encryptedReasoning.set(detail.id, JSON.stringify(detail));
			// A detail may arrive after its call was closed (text followed); attach it directly then.
			for (const block of this.output.content) {
				if (block.type === "toolCall" && block.id === detail.id) block.thoughtSignature = JSON.stringify(detail);
			}
		}
	}
}
