import type {
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	TextContent,
	ThinkingContent,
	ToolCall,
	ToolResultMessage,
	UserMessage,
} from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { ConversationRuns, passByKey } from "../conversation-runs.js";
import { sharedFirstMessage } from "../serialized-payload.js";
import { transformMessages } from "../transform-messages.js";
import type { ResolvedCompletionsCompat } from "./compat.js";
import { toolCallIdNormalizerFor } from "./tool-call-id.js";
import {
	REASONING_FIELDS,
	type ReasoningField,
	type WireAssistantMessage,
	type WireContentPart,
	type WireImagePart,
	type WireMessage,
	type WireSystemMessage,
	type WireTextPart,
	type WireToolMessage,
	type WireUserMessage,
} from "./wire-types.js";

export const TOOL_RESULTS_PROCESSED_TEXT = "I have processed the tool results.";
export const TOOL_RESULT_IMAGES_TEXT = "Attached image(s) from tool result:";
export const IMAGE_ONLY_RESULT_TEXT = "(see attached image)";

function supportsImages(model: Model): boolean {
	return model.input.includes("image");
}

function imagePart(image: ImageContent): WireImagePart {
	return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

function convertUser(message: UserMessage, model: Model): WireUserMessage | undefined {
	if (typeof message.content === "string") return { role: "user", content: sanitizeSurrogates(message.content) };
	const parts: WireContentPart[] = [];
	for (const block of message.content) {
		if (block.type === "text") parts.push({ type: "text", text: sanitizeSurrogates(block.text) });
		else if (supportsImages(model)) parts.push(imagePart(block));
	}
	return parts.length > 0 ? { role: "user", content: parts } : undefined;
}

function isReasoningField(value: string | undefined): value is ReasoningField {
	return (REASONING_FIELDS as readonly string[]).includes(value ?? "");
}

/** OpenRouter encrypted reasoning travels on the tool call as JSON; anything else is not ours to replay. */
function reasoningDetail(call: ToolCall): unknown {
	if (!call.thoughtSignature) return undefined;
	try {
		return JSON.parse(call.thoughtSignature);
	} catch {
		return undefined;
	}
}

function convertAssistant(
	message: AssistantMessage,
	compat: ResolvedCompletionsCompat,
): WireAssistantMessage | undefined {
	const texts = message.content.filter((b): b is TextContent => b.type === "text" && b.text.trim() !== "");
	const thinking = message.content.filter(
		(b): b is ThinkingContent => b.type === "thinking" && b.thinking.trim() !== "",
	);
	const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");

	const text = sanitizeSurrogates(texts.map((b) => b.text).join(""));
	const wire: WireAssistantMessage = {
		role: "assistant",
		content: text !== "" ? text : compat.requiresAssistantAfterToolResult ? "" : null,
	};

	if (thinking.length > 0 && compat.requiresThinkingAsText) {
		const parts: WireTextPart[] = [
			{ type: "text", text: sanitizeSurrogates(thinking.map((b) => b.thinking).join("\n\n")) },
		];
		if (text !== "") parts.push({ type: "text", text });
		wire.content = parts;
	} else if (thinking.length > 0) {
		// The field that carried the reasoning when it streamed in is where the server expects it back.
		const field = thinking[0].thinkingSignature;
		if (isReasoningField(field)) wire[field] = sanitizeSurrogates(thinking.map((b) => b.thinking).join("\n"));
	}

	if (calls.length > 0) {
		wire.tool_calls = calls.map((call) => ({
			id: call.id,
			type: "function",
			function: { name: call.name, arguments: JSON.stringify(call.arguments) },
		}));
		const details = calls.map(reasoningDetail).filter((detail) => detail !== undefined);
		if (details.length > 0) wire.reasoning_details = details;
	}

	const hasContent = typeof wire.content === "string" ? wire.content !== "" : wire.content !== null;
	return hasContent || calls.length > 0 ? wire : undefined;
}

function convertToolResult(message: ToolResultMessage, compat: ResolvedCompletionsCompat): WireToolMessage {
	const text = message.content
		.filter((b): b is TextContent => b.type === "text")
		.map((b) => b.text)
		.join("\n");
	const hasImages = message.content.some((b) => b.type === "image");
	const wire: WireToolMessage = {
		role: "tool",
		tool_call_id: message.toolCallId,
		content: sanitizeSurrogates(text === "" && hasImages ? IMAGE_ONLY_RESULT_TEXT : text),
	};
	if (compat.requiresToolResultName) wire.name = message.toolName;
	return wire;
}

/**
 * A message's wire form, remembered per message object for the next request. Valid while the settings that
 * shape it are the same (`conversionKeyOf`); a replaced message is another object and is converted anew.
 */
interface CachedConversion {
	key: string;
	wire: WireMessage | undefined;
}
const convertedMessages = new WeakMap<Message, CachedConversion>();

// The system message is built for each request; shared, it is the same object every time, so the conversation's
// JSON is found again (serialized-payload.ts).
function systemMessage(role: WireSystemMessage["role"], prompt: string): WireSystemMessage {
	return sharedFirstMessage(`completions\u0000${role}\u0000${prompt}`, () => ({
		role,
		content: sanitizeSurrogates(prompt),
	}));
}

/** Everything besides the message itself that its wire form depends on. */
function conversionKeyOf(model: Model, compat: ResolvedCompletionsCompat): string {
	const flags = [
		supportsImages(model),
		compat.requiresAssistantAfterToolResult,
		compat.requiresThinkingAsText,
		compat.requiresToolResultName,
	];
	return flags.map((flag) => (flag ? "1" : "0")).join("");
}

function convertMessage(message: Message, model: Model, compat: ResolvedCompletionsCompat): WireMessage | undefined {
	if (message.role === "user") return convertUser(message, model);
	if (message.role === "assistant") return convertAssistant(message, compat);
	return convertToolResult(message, compat);
}

export interface ConvertCompletionsOptions {
	/**
	 * Reuse each message's wire form from an earlier request (and remember new ones). The wire messages are then
	 * shared between requests, so only a caller that never mutates the payload may ask for it.
	 */
	reuseConversions?: boolean;
}

/**
 * The Chat Completions `messages` for a context: cross-provider handoff first, then the
 * system prompt, users, assistants (text joined, reasoning in its field, tool calls) and tool results,
 * with images from tool results moved to a user message because tool messages cannot carry them.
 */
export function convertCompletionsMessages(
	model: Model<"openai-completions">,
	context: Context,
	compat: ResolvedCompletionsCompat,
	options: ConvertCompletionsOptions = {},
): WireMessage[] {
	const wire: WireMessage[] = [];
	if (context.systemPrompt) {
		const role = model.reasoning && compat.supportsDeveloperRole ? "developer" : "system";
		wire.push(
			options.reuseConversions
				? systemMessage(role, context.systemPrompt)
				: { role, content: sanitizeSurrogates(context.systemPrompt) },
		);
	}

	const key = options.reuseConversions ? conversionKeyOf(model, compat) : undefined;
	const messages = transformMessages(context.messages, model, toolCallIdNormalizerFor(model));
	// Reused wire messages are shared with other requests; without reuse, everything is converted afresh.
	const conversion = passByKey(
		conversions,
		messages,
		key,
		(passKey) => new HistoryConversion(passKey),
		(pass, message) => pass.take(message, model, compat),
	);
	return conversion.result(wire, compat);
}

// Conversions remembered per conversation: a few settings, for a session that switches models back and forth.
const conversions = new ConversationRuns<HistoryConversion>(4);

/**
 * The conversion of a history, message by message, as far as the history has been seen. What it produced for a
 * message depends only on the messages before it, except for the images of a run of tool results at the end of
 * the history (`result`), so the wire messages so far stay valid when messages are added: a request converts
 * its new messages only.
 */
class HistoryConversion {
	readonly inputs: Message[] = [];
	private readonly wire: WireMessage[] = [];
	/** Images of the current run of tool results: tool messages cannot carry them, a user message after the run does. */
	private pendingImages: WireImagePart[] = [];
	private afterToolResults = false;

	/** `key`: the settings the wire messages are remembered for (`conversionKeyOf`), or undefined not to reuse them. */
	constructor(readonly key: string | undefined) {}

	take(message: Message, model: Model, compat: ResolvedCompletionsCompat): void {
		this.inputs.push(message);
		if (message.role === "toolResult") {
			this.wire.push(this.convert(message, model, compat) as WireToolMessage);
			if (supportsImages(model)) {
				for (const block of message.content) if (block.type === "image") this.pendingImages.push(imagePart(block));
			}
			this.afterToolResults = true;
			return;
		}
		this.flushToolResultRun(this.wire, compat);
		if (message.role === "user") {
			const user = this.convert(message, model, compat);
			if (!user) return;
			if (this.afterToolResults && compat.requiresAssistantAfterToolResult) {
				this.wire.push({ role: "assistant", content: TOOL_RESULTS_PROCESSED_TEXT });
			}
			this.wire.push(user);
		} else {
			const assistant = this.convert(message, model, compat);
			if (assistant) this.wire.push(assistant);
		}
		this.afterToolResults = false;
	}

	/** `head` (the system message, if any) followed by the history's wire messages; a new array. */
	result(head: WireMessage[], compat: ResolvedCompletionsCompat): WireMessage[] {
		const wire = head.length === 0 ? this.wire.slice() : head.concat(this.wire);
		if (this.pendingImages.length > 0) this.imagesAfterRun(wire, this.pendingImages, compat);
		return wire;
	}

	private flushToolResultRun(wire: WireMessage[], compat: ResolvedCompletionsCompat): void {
		if (this.pendingImages.length === 0) return;
		this.imagesAfterRun(wire, this.pendingImages, compat);
		this.pendingImages = [];
		this.afterToolResults = false;
	}

	private imagesAfterRun(wire: WireMessage[], images: WireImagePart[], compat: ResolvedCompletionsCompat): void {
		if (compat.requiresAssistantAfterToolResult)
			wire.push({ role: "assistant", content: TOOL_RESULTS_PROCESSED_TEXT });
		wire.push({ role: "user", content: [{ type: "text", text: TOOL_RESULT_IMAGES_TEXT }, ...images] });
	}

	private convert(message: Message, model: Model, compat: ResolvedCompletionsCompat): WireMessage | undefined {
		if (this.key === undefined) return convertMessage(message, model, compat);
		const cached = convertedMessages.get(message);
		if (cached?.key === this.key) return cached.wire;
		const converted = convertMessage(message, model, compat);
		convertedMessages.set(message, { key: this.key, wire: converted });
		return converted;
	}
}

/**
 * The reference's name for the Chat Completions conversion: the `messages` of a request for `context`, under
 * the given compat switches (`Required<OpenAICompletionsCompat>`: every switch decided).
 */
export function convertMessages(
	model: Model<"openai-completions">,
	context: Context,
	compat: ResolvedCompletionsCompat,
): WireMessage[] {
	return convertCompletionsMessages(model, context, compat);
}
