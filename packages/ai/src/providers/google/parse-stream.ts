import type { GenerateContentResponse, Part } from "@google/genai";
import type {
	AssistantMessage,
	AssistantMessageEventStream,
	Model,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "../../types.js";
import { endTextOrThinkingBlock } from "../assistant-output.js";
import type { StreamEventProcessor } from "../run-stream.js";
import { UNKNOWN_ERROR_MESSAGE, WireProtocolError } from "../stream-errors.js";
import { ARGUMENTS_NOT_AN_OBJECT, isJsonObject } from "../tool-arguments.js";
import { mapFinishReason } from "./map-stop-reason.js";
import { applyUsageMetadata } from "./usage.js";

type OpenBlock = { contentIndex: number; block: TextContent | ThinkingContent };

/** Part fields that describe a part rather than carry content. */
const PART_METADATA = new Set([
	"thought",
	"thoughtSignature",
	"videoMetadata",
	"partMetadata",
	"mediaResolution",
	"mediaProcessing",
	"speechMetadata",
]);

/**
 * Parts of server-side tools (code execution, built-in tools such as Google Search): the server ran them and
 * the text that follows carries the outcome, so they are skipped. Any other kind of part (an image, a file, a
 * kind added later) is content this client cannot represent, so it fails the reply.
 */
const SERVER_SIDE_PARTS = new Set(["executableCode", "codeExecutionResult", "toolCall", "toolResponse"]);

/** The part's content field (`text`, `functionCall`, …), or undefined for a part with metadata only. */
function partKind(part: Part): string | undefined {
	return Object.keys(part).find(
		(key) => !PART_METADATA.has(key) && (part as Record<string, unknown>)[key] !== undefined,
	);
}

function hasContent(part: Part): boolean {
	const kind = partKind(part);
	return kind !== undefined && !(kind === "text" && part.text === "");
}

/**
 * Folds Gemini's response chunks into `output` and emits our events. One text or
 * thinking block is open at a time and is closed when a part of the other kind (or a function call)
 * arrives; function calls come whole, so each is started, streamed and ended at once. The reply is complete
 * once a candidate carries a finishReason (or the prompt was blocked); content after it fails the reply.
 */
export class GoogleStreamParser implements StreamEventProcessor<GenerateContentResponse> {
	readonly terminalEvent = "finishReason";
	private current: OpenBlock | undefined;
	private readonly usedIds = new Set<string>();
	private generatedIds = 0;
	/** The raw finishReason and message, for error messages when it maps to `error`. */
	rawFinishReason: string | undefined;
	finishMessage: string | undefined;
	/** Set when the prompt itself was blocked and no candidate came back. */
	blockReason: string | undefined;

	constructor(
		private readonly output: AssistantMessage,
		private readonly stream: AssistantMessageEventStream,
		private readonly model: Model,
	) {}

	get isComplete(): boolean {
		return this.rawFinishReason !== undefined || this.blockReason !== undefined;
	}

	get failureReason(): string {
		if (this.blockReason) return `Prompt blocked: ${this.blockReason}`;
		const detail = [this.rawFinishReason, this.finishMessage].filter(Boolean).join(": ");
		// The reference's text alone says nothing; the raw finish reason (SAFETY, RECITATION, …) is kept.
		return `${UNKNOWN_ERROR_MESSAGE} (finish reason: ${detail})`;
	}

	handle(chunk: GenerateContentResponse): void {
		const candidate = chunk.candidates?.[0];
		const parts = candidate?.content?.parts ?? [];
		if (this.rawFinishReason !== undefined && parts.some(hasContent)) {
			throw new WireProtocolError("content after the finishReason");
		}
		for (const part of parts) this.handlePart(part);
		if (candidate?.finishReason) {
			this.rawFinishReason = candidate.finishReason;
			this.finishMessage = candidate.finishMessage;
			this.output.stopReason = mapFinishReason(candidate.finishReason);
		}
		if (!candidate && chunk.promptFeedback?.blockReason) {
			this.blockReason = [chunk.promptFeedback.blockReason, chunk.promptFeedback.blockReasonMessage]
				.filter(Boolean)
				.join(": ");
		}
		if (chunk.usageMetadata) applyUsageMetadata(this.output.usage, chunk.usageMetadata, this.model);
	}

	/** Ends the open block, then turns `stop` into `toolUse` when the reply calls tools. */
	finish(): void {
		this.closeCurrent();
		if (this.blockReason) this.output.stopReason = "error";
		if (this.output.stopReason === "stop" && this.output.content.some((block) => block.type === "toolCall")) {
			// The reference also overrides length and error (e.g. SAFETY) with toolUse; ours keeps those.
			this.output.stopReason = "toolUse";
		}
	}

	/** Function calls arrive whole, so nothing is left half-done; open text stays as it is. */
	abandon(): void {}

	private handlePart(part: Part): void {
		const kind = partKind(part);
		if (kind === "text") this.handleText(part.text ?? "", part.thought === true, part.thoughtSignature);
		else if (kind === "functionCall") this.handleFunctionCall(part);
		else if (kind !== undefined && !SERVER_SIDE_PARTS.has(kind)) {
			throw new WireProtocolError(`a part of kind "${kind}", which this client cannot represent`);
		}
	}

	private handleText(text: string, isThinking: boolean, signature: string | undefined): void {
		const kind = isThinking ? "thinking" : "text";
		let open = this.current?.block.type === kind ? this.current : undefined;
		// An empty part only matters for its signature (Gemini sometimes sends one alone at the end).
		if (!open && text === "" && !signature) return;
		if (!open) {
			this.closeCurrent();
			open = this.openBlock(isThinking);
		}
		const { block, contentIndex } = open;
		if (text !== "") {
			if (block.type === "thinking") {
				block.thinking += text;
				this.stream.push({ type: "thinking_delta", contentIndex, delta: text, partial: this.output });
			} else {
				block.text += text;
				this.stream.push({ type: "text_delta", contentIndex, delta: text, partial: this.output });
			}
		}
		// Within a block, the last non-empty signature wins.
		if (signature) {
			if (block.type === "thinking") block.thinkingSignature = signature;
			else block.textSignature = signature;
		}
	}

	private openBlock(isThinking: boolean): OpenBlock {
		const contentIndex = this.output.content.length;
		const block: TextContent | ThinkingContent = isThinking
			? { type: "thinking", thinking: "" }
			: { type: "text", text: "" };
		this.output.content.push(block);
		this.current = { contentIndex, block };
		this.stream.push({ type: isThinking ? "thinking_start" : "text_start", contentIndex, partial: this.output });
		return this.current;
	}

	private closeCurrent(): void {
		const open = this.current;
		if (!open) return;
		this.current = undefined;
		endTextOrThinkingBlock(this.stream, this.output, open.contentIndex, open.block);
	}

	private handleFunctionCall(part: Part): void {
		this.closeCurrent();
		const call = part.functionCall ?? {};
		const name = call.name ?? "";
		// Gemini usually sends no id, and parallel calls may repeat one: every call gets a unique id.
		let id = call.id;
		if (!id || this.usedIds.has(id)) id = `${name}_${Date.now()}_${++this.generatedIds}`;
		this.usedIds.add(id);
		const args: unknown = call.args ?? {};
		const toolCall: ToolCall = { type: "toolCall", id, name, arguments: isJsonObject(args) ? args : {} };
		if (!isJsonObject(args)) toolCall.invalidArguments = ARGUMENTS_NOT_AN_OBJECT;
		if (part.thoughtSignature) toolCall.thoughtSignature = part.thoughtSignature;
		const contentIndex = this.output.content.length;
		this.output.content.push(toolCall);
		const output = this.output;
		this.stream.push({ type: "toolcall_start", contentIndex, partial: output });
		this.stream.push({
			type: "toolcall_delta",
			contentIndex,
			delta: JSON.stringify(toolCall.arguments),
			partial: output,
		});
		this.stream.push({ type: "toolcall_end", contentIndex, toolCall, partial: output });
	}
}
