import type {
	ContentBlockParam,
	ImageBlockParam,
	MessageParam,
	TextBlockParam,
	ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type {
	AssistantMessage,
	ImageContent,
	Message,
	Model,
	TextContent,
	ToolResultMessage,
	UserMessage,
} from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { ConversationRuns, passByKey } from "../conversation-runs.js";
import { transformMessages } from "../transform-messages.js";

/** Text put before a tool result that has only images, so the result is never without text. */
export const IMAGE_ONLY_TOOL_RESULT_TEXT = "(see attached image)";

/** Anthropic accepts tool-use ids matching `^[a-zA-Z0-9_-]+$`, at most 64 characters. */
export function normalizeToolCallId(id: string): string {
	return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

type ImageMediaType = Extract<ImageBlockParam["source"], { type: "base64" }>["media_type"];

function imageBlock(image: ImageContent): ImageBlockParam {
	return {
		type: "image",
		source: { type: "base64", media_type: image.mimeType as ImageMediaType, data: image.data },
	};
}

function textBlock(text: string): TextBlockParam {
	return { type: "text", text: sanitizeSurrogates(text) };
}

function isBlank(text: string): boolean {
	return text.trim().length === 0;
}

function convertUser(message: UserMessage, acceptsImages: boolean): MessageParam | undefined {
	if (typeof message.content === "string") {
		return isBlank(message.content) ? undefined : { role: "user", content: sanitizeSurrogates(message.content) };
	}
	const blocks: ContentBlockParam[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (!isBlank(block.text)) blocks.push(textBlock(block.text));
		} else if (acceptsImages) {
			blocks.push(imageBlock(block));
		}
	}
	return blocks.length > 0 ? { role: "user", content: blocks } : undefined;
}

function convertAssistant(
	message: AssistantMessage,
	toWireToolName: (name: string) => string,
): MessageParam | undefined {
	const blocks: ContentBlockParam[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (!isBlank(block.text)) blocks.push(textBlock(block.text));
		} else if (block.type === "thinking") {
			if (block.redacted) {
				blocks.push({ type: "redacted_thinking", data: block.thinkingSignature ?? "" });
			} else if (block.thinkingSignature) {
				// Ours differs: the reference drops whitespace-only thinking even when signed. A signed block
				// with empty text is encrypted reasoning (display "omitted"); the API requires it back in front
				// of the turn's tool_use blocks while thinking is on, so it is replayed as it came.
				blocks.push({
					type: "thinking",
					thinking: sanitizeSurrogates(block.thinking),
					signature: block.thinkingSignature,
				});
			} else if (!isBlank(block.thinking)) {
				// Unsigned reasoning cannot be replayed as thinking; it goes back as plain text.
				blocks.push(textBlock(block.thinking));
			}
		} else {
			blocks.push({ type: "tool_use", id: block.id, name: toWireToolName(block.name), input: block.arguments });
		}
	}
	return blocks.length > 0 ? { role: "assistant", content: blocks } : undefined;
}

function toolResultContent(result: ToolResultMessage, acceptsImages: boolean): ToolResultBlockParam["content"] {
	const parts = result.content.filter(
		(block): block is TextContent | ImageContent => block.type === "text" || acceptsImages,
	);
	if (!parts.some((block) => block.type === "image")) {
		return sanitizeSurrogates(parts.map((block) => (block as TextContent).text).join("\n"));
	}
	const blocks = parts.map((block) => (block.type === "text" ? textBlock(block.text) : imageBlock(block)));
	if (!parts.some((block) => block.type === "text")) blocks.unshift(textBlock(IMAGE_ONLY_TOOL_RESULT_TEXT));
	return blocks;
}

function toolResultBlock(result: ToolResultMessage, acceptsImages: boolean): ToolResultBlockParam {
	return {
		type: "tool_result",
		tool_use_id: result.toolCallId,
		content: toolResultContent(result, acceptsImages),
		is_error: result.isError,
	};
}

export interface ConvertAnthropicOptions {
	/**
	 * Reuse each message's wire form from an earlier request (and remember new ones). Names everything besides
	 * the message that shapes it (images accepted, tool-name mapping). The wire messages are then shared between
	 * requests, so only a caller that never changes them may ask for it.
	 */
	reuseKey?: string;
}

/** A message's wire form, remembered per message object for the next request while `key` is the same. */
interface CachedConversion {
	key: string;
	param: MessageParam | undefined;
}
const convertedMessages = new WeakMap<Message, CachedConversion>();

/** A run of tool results (one user message), remembered under its first result with all its members. */
interface CachedResults {
	key: string;
	members: readonly ToolResultMessage[];
	param: MessageParam;
}
const resultRuns = new WeakMap<ToolResultMessage, CachedResults>();

function sameMembers(a: readonly ToolResultMessage[], b: readonly ToolResultMessage[]): boolean {
	return a.length === b.length && a.every((message, index) => message === b[index]);
}

/**
 * Converts a history to Anthropic messages. The history is first adapted to the target
 * model (`transformMessages`, transform-messages.ts); consecutive tool results become one user message of `tool_result` blocks.
 */
export function convertMessages(
	messages: Message[],
	model: Model,
	toWireToolName: (name: string) => string = (name) => name,
	{ reuseKey }: ConvertAnthropicOptions = {},
): MessageParam[] {
	const acceptsImages = model.input.includes("image");
	const adapted = transformMessages(messages, model, normalizeToolCallId);
	// Reused wire messages are shared with other requests; without reuse, everything is converted afresh.
	const conversion = passByKey(
		conversions,
		adapted,
		reuseKey,
		(key) => new HistoryConversion(key),
		(pass, message) => pass.take(message, acceptsImages, toWireToolName),
	);
	return conversion.result(acceptsImages);
}

// Conversions remembered per conversation: a few settings, for a session that switches models back and forth.
const conversions = new ConversationRuns<HistoryConversion>(4);

/**
 * The conversion of a history, message by message, as far as the history has been seen. A run of tool results
 * becomes one message when the run ends; until then (a history ending with results, which the next request
 * may continue) it is converted per request (`result`). The messages so far stay valid when messages are added:
 * a request converts its new messages only.
 */
class HistoryConversion {
	readonly inputs: Message[] = [];
	private readonly params: MessageParam[] = [];
	/** The run of tool results the history ends with so far. */
	private results: ToolResultMessage[] = [];

	/** `key`: the settings the wire messages are remembered for (`reuseKey`), or undefined not to reuse them. */
	constructor(readonly key: string | undefined) {}

	take(message: Message, acceptsImages: boolean, toWireToolName: (name: string) => string): void {
		this.inputs.push(message);
		if (message.role === "toolResult") {
			this.results.push(message);
			return;
		}
		if (this.results.length > 0) {
			this.params.push(this.convertResults(this.results, acceptsImages));
			this.results = [];
		}
		const param = this.convert(message, acceptsImages, toWireToolName);
		if (param) this.params.push(param);
	}

	/** The history's wire messages; a new array. */
	result(acceptsImages: boolean): MessageParam[] {
		const params = this.params.slice();
		// A copy: the run may grow with the next request, and the remembered members must not.
		if (this.results.length > 0) params.push(this.convertResults(this.results.slice(), acceptsImages));
		return params;
	}

	private convert(
		message: UserMessage | AssistantMessage,
		acceptsImages: boolean,
		toWireToolName: (name: string) => string,
	): MessageParam | undefined {
		const convertOne = () =>
			message.role === "user" ? convertUser(message, acceptsImages) : convertAssistant(message, toWireToolName);
		if (this.key === undefined) return convertOne();
		const cached = convertedMessages.get(message);
		if (cached?.key === this.key) return cached.param;
		const param = convertOne();
		convertedMessages.set(message, { key: this.key, param });
		return param;
	}

	/** One user message for a run of results; `members` is not changed afterwards. */
	private convertResults(members: readonly ToolResultMessage[], acceptsImages: boolean): MessageParam {
		const build = (): MessageParam => ({
			role: "user",
			content: members.map((result) => toolResultBlock(result, acceptsImages)),
		});
		if (this.key === undefined) return build();
		const cached = resultRuns.get(members[0]);
		if (cached?.key === this.key && sameMembers(cached.members, members)) return cached.param;
		const param = build();
		resultRuns.set(members[0], { key: this.key, members, param });
		return param;
	}
}
