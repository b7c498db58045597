import type { Response, ResponseOutputItem, ResponseStreamEvent } from "openai/resources/responses/responses";
import type { AssistantMessageEventStream } from "../../event-stream.js";
import type { AssistantMessage, Model, TextContent, ThinkingContent, ToolCall } from "../../types.js";
import { StreamedToolArguments } from "../openai-shared/streamed-tool-arguments.js";
import type { StreamEventProcessor } from "../run-stream.js";
import { WireProtocolError } from "../stream-errors.js";
import { mapResponseStatus } from "./map-status.js";
import { encodeTextSignature } from "./text-signature.js";
import { parseResponsesUsage } from "./usage.js";

type OpenItem =
	| { kind: "thinking"; block: ThinkingContent; contentIndex: number }
	| { kind: "text"; block: TextContent; contentIndex: number }
	| { kind: "toolCall"; block: ToolCall; contentIndex: number; args: StreamedToolArguments };

const ITEM_KINDS: Readonly<Record<string, OpenItem["kind"]>> = {
	reasoning: "thinking",
	message: "text",
	function_call: "toolCall",
};

/**
 * Items of hosted tools the server ran itself (web search, file search, code interpreter, …): the message that
 * follows carries their result, so they are skipped. Any other item type (computer_call, shell_call,
 * custom_tool_call, a type added later) asks the client to act in a way this client cannot, so it fails the reply.
 */
const SERVER_SIDE_ITEMS = new Set([
	"web_search_call",
	"file_search_call",
	"code_interpreter_call",
	"image_generation_call",
	"mcp_call",
	"mcp_list_tools",
	"tool_search_call",
	"tool_search_output",
	"compaction",
]);

export const NO_ERROR_DETAILS_MESSAGE = "Unknown error (no error details in response)";

function failureMessage(response: Response | undefined): string {
	const error = response?.error;
	if (error) return `${error.code}: ${error.message}`;
	const reason = response?.incomplete_details?.reason;
	if (reason) return `incomplete: ${reason}`;
	return NO_ERROR_DETAILS_MESSAGE;
}

/** Our id for a function call: `<call_id>|<item_id>`, so both can be replayed. */
function toolCallId(callId: string, itemId: string | undefined): string {
	return itemId ? `${callId}|${itemId}` : callId;
}

function joinTexts(parts: readonly { text?: string }[] | undefined): string {
	return (parts ?? []).map((part) => part.text ?? "").join("\n\n");
}

/**
 * Turns Responses API events into assistant-message events. Items are keyed by
 * `output_index`; each opens a block on `output_item.added` and closes it on `output_item.done`, where the
 * final item is kept as replay metadata (reasoning item as the thinking signature, message id as the text
 * signature). Bookkeeping stays here, so no block ever carries internal fields. The reply is complete at
 * `response.completed` / `response.incomplete` (`response.failed` fails it); any event after those, and deltas
 * for an item that was never added, fail the reply.
 */
export class ResponsesStreamParser implements StreamEventProcessor<ResponseStreamEvent> {
	readonly terminalEvent = "response.completed";
	private readonly items = new Map<number, OpenItem>();
	/** Every output index an item was added at, skipped hosted-tool items included. */
	private readonly addedIndices = new Set<number>();
	private lastOutputIndex = -1;
	private completed = false;
	private hasToolCalls = false;
	failureReason: string | undefined;

	constructor(
		private readonly model: Model,
		private readonly output: AssistantMessage,
		private readonly stream: AssistantMessageEventStream,
		private readonly requestedServiceTier?: string,
	) {}

	get isComplete(): boolean {
		return this.completed;
	}

	handle(event: ResponseStreamEvent): void {
		if (this.completed) throw new WireProtocolError(`a ${event.type} event after the response completed`);
		switch (event.type) {
			case "response.output_item.added":
				this.openItem(event.output_index ?? this.lastOutputIndex + 1, event.item);
				return;
			case "response.reasoning_summary_text.delta":
			// Open-weight reasoning models (gpt-oss on vLLM, LM Studio, Ollama) stream raw reasoning text instead.
			case "response.reasoning_text.delta":
				this.appendThinking(this.addedIndexOf(event), event.delta);
				return;
			case "response.reasoning_summary_part.done":
				this.appendThinking(this.addedIndexOf(event), "\n\n");
				return;
			case "response.output_text.delta":
			case "response.refusal.delta":
				this.appendText(this.addedIndexOf(event), event.delta);
				return;
			case "response.function_call_arguments.delta":
				this.appendArguments(this.addedIndexOf(event), event.delta);
				return;
			case "response.function_call_arguments.done": {
				const item = this.items.get(this.addedIndexOf(event));
				if (item?.kind === "toolCall") item.args.replace(event.arguments);
				return;
			}
			case "response.output_item.done":
				this.closeItem(this.indexOf(event), event.item);
				return;
			case "response.completed":
			case "response.incomplete":
				this.complete(event.response, event.type === "response.incomplete" ? "incomplete" : "completed");
				return;
			case "response.failed":
				throw new Error(failureMessage(event.response));
			case "error":
				throw new Error(`Error Code ${event.code}: ${event.message}`);
		}
	}

	finish(): void {
		for (const index of [...this.items.keys()]) this.closeItem(index, undefined);
	}

	/** Lax proxies leave `output_index` out; their events belong to the item opened last. */
	private indexOf(event: { output_index?: number }): number {
		return typeof event.output_index === "number" ? event.output_index : this.lastOutputIndex;
	}

	/** The index of a delta's item, which must have been added. */
	private addedIndexOf(event: { type: string; output_index?: number }): number {
		const index = this.indexOf(event);
		if (!this.addedIndices.has(index)) {
			throw new WireProtocolError(`a ${event.type} event for output item ${index}, which was never added`);
		}
		return index;
	}

	abandon(): void {
		for (const item of this.items.values()) if (item.kind === "toolCall") item.args.abandon();
		this.items.clear();
	}

	private openItem(outputIndex: number, item: ResponseOutputItem): OpenItem | undefined {
		this.addedIndices.add(outputIndex);
		let open: OpenItem;
		const contentIndex = this.output.content.length;
		if (item.type === "reasoning") {
			const block: ThinkingContent = { type: "thinking", thinking: "" };
			open = { kind: "thinking", block, contentIndex };
		} else if (item.type === "message") {
			open = { kind: "text", block: { type: "text", text: "" }, contentIndex };
		} else if (item.type === "function_call") {
			const block: ToolCall = {
				type: "toolCall",
				id: toolCallId(item.call_id, item.id),
				name: item.name,
				arguments: {},
			};
			open = { kind: "toolCall", block, contentIndex, args: new StreamedToolArguments(block, item.arguments ?? "") };
			this.hasToolCalls = true;
		} else {
			const type: string = item.type;
			if (!SERVER_SIDE_ITEMS.has(type)) {
				throw new WireProtocolError(`an output item of type "${type}", which this client cannot act on`);
			}
			return undefined;
		}
		this.output.content.push(open.block);
		this.items.set(outputIndex, open);
		this.lastOutputIndex = outputIndex;
		const type = open.kind === "thinking" ? "thinking_start" : open.kind === "text" ? "text_start" : "toolcall_start";
		this.stream.push({ type, contentIndex, partial: this.output });
		return open;
	}

	private appendThinking(outputIndex: number, delta: string): void {
		const item = this.items.get(outputIndex);
		if (item?.kind !== "thinking" || delta === "") return;
		item.block.thinking += delta;
		this.stream.push({ type: "thinking_delta", contentIndex: item.contentIndex, delta, partial: this.output });
	}

	private appendText(outputIndex: number, delta: string): void {
		const item = this.items.get(outputIndex);
		if (item?.kind !== "text" || delta === "") return;
		item.block.text += delta;
		this.stream.push({ type: "text_delta", contentIndex: item.contentIndex, delta, partial: this.output });
	}

	private appendArguments(outputIndex: number, delta: string): void {
		const item = this.items.get(outputIndex);
		if (item?.kind !== "toolCall") return;
		item.args.append(delta);
		this.stream.push({ type: "toolcall_delta", contentIndex: item.contentIndex, delta, partial: this.output });
	}

	/** Closes a block; `final` is the finished item when the server sent it (absent when closing leftovers). */
	private closeItem(outputIndex: number, final: ResponseOutputItem | undefined): void {
		const item = this.items.get(outputIndex) ?? (final ? this.openItem(outputIndex, final) : undefined);
		if (!item) return;
		// A finished item of another kind (a hosted tool) is not the block open at this index.
		if (final && ITEM_KINDS[final.type] !== item.kind) return;
		this.items.delete(outputIndex);
		const { contentIndex } = item;
		if (item.kind === "thinking") {
			if (final?.type === "reasoning") {
				const summary = joinTexts(final.summary);
				item.block.thinking = summary !== "" ? summary : joinTexts(final.content);
				item.block.thinkingSignature = JSON.stringify(final);
			}
			this.stream.push({ type: "thinking_end", contentIndex, content: item.block.thinking, partial: this.output });
		} else if (item.kind === "text") {
			if (final?.type === "message") {
				item.block.text = final.content
					.map((part) => (part.type === "output_text" ? part.text : part.refusal))
					.join("");
				item.block.textSignature = encodeTextSignature(final.id, final.phase);
			}
			this.stream.push({ type: "text_end", contentIndex, content: item.block.text, partial: this.output });
		} else {
			if (final?.type === "function_call") {
				if (typeof final.arguments === "string") item.args.replace(final.arguments);
				item.block.id = toolCallId(final.call_id, final.id);
				item.block.name = final.name;
			}
			item.args.finish();
			this.stream.push({ type: "toolcall_end", contentIndex, toolCall: item.block, partial: this.output });
		}
	}

	private complete(response: Response | undefined, fallbackStatus: string): void {
		this.completed = true;
		this.output.usage = parseResponsesUsage(
			response?.usage,
			this.model,
			response?.service_tier ?? this.requestedServiceTier,
		);
		this.output.stopReason = mapResponseStatus(response?.status ?? fallbackStatus);
		if (this.output.stopReason === "error") this.failureReason = failureMessage(response);
		if (this.output.stopReason === "stop" && this.hasToolCalls) this.output.stopReason = "toolUse";
	}
}
