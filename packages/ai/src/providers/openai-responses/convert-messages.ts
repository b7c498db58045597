import type {
	ResponseFunctionCallOutputItemList,
	ResponseInputContent,
	ResponseInputItem,
	ResponseReasoningItem,
} from "openai/resources/responses/responses";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	TextContent,
	ToolResultMessage,
	UserMessage,
} from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { shortHash } from "../../utils/short-hash.js";
import { ConversationRuns, passByKey } from "../conversation-runs.js";
import { sharedFirstMessage } from "../serialized-payload.js";
import { transformMessages } from "../transform-messages.js";
import { decodeTextSignature } from "./text-signature.js";
import { RESPONSES_ID_NORMALIZING_PROVIDERS, responsesToolCallIdNormalizer, splitToolCallId } from "./tool-call-id.js";

export const IMAGE_ONLY_RESULT_TEXT = "(see attached image)";
const MAX_MESSAGE_ID_LENGTH = 64;

export interface ResponsesInputOptions {
	/** Codex sends the system prompt as `instructions` instead of an input item. Default true. */
	includeSystemPrompt?: boolean;
	/** Target providers whose tool-call ids are normalised (Azure adds its own provider). */
	normalizeIdsFor?: readonly string[];
	/**
	 * Reuse each message's items from an earlier request (and remember new ones). The items are then shared
	 * between requests, so only a caller that never changes them may ask for it.
	 */
	reuseConversions?: boolean;
}

/** A message's items, remembered per message object for the next request while `key` is the same. */
interface CachedItems {
	key: string;
	items: ResponseInputItem[];
}
const conversions = new WeakMap<Message, CachedItems>();

function supportsImages(model: Model): boolean {
	return model.input.includes("image");
}

function inputImage(image: ImageContent): ResponseInputContent {
	return { type: "input_image", detail: "auto", image_url: `data:${image.mimeType};base64,${image.data}` };
}

function convertUser(message: UserMessage, model: Model): ResponseInputItem | undefined {
	if (typeof message.content === "string") {
		return { role: "user", content: [{ type: "input_text", text: sanitizeSurrogates(message.content) }] };
	}
	const content: ResponseInputContent[] = [];
	for (const block of message.content) {
		if (block.type === "text") content.push({ type: "input_text", text: sanitizeSurrogates(block.text) });
		else if (supportsImages(model)) content.push(inputImage(block));
	}
	return content.length > 0 ? { role: "user", content } : undefined;
}

/** A reasoning item exactly as the API produced it; it is replayed verbatim or not at all. */
function parseReasoningItem(signature: string | undefined): ResponseReasoningItem | undefined {
	if (!signature) return undefined;
	try {
		const item = JSON.parse(signature) as { type?: unknown } | null;
		return item !== null && typeof item === "object" && item.type === "reasoning"
			? (item as ResponseReasoningItem)
			: undefined;
	} catch {
		return undefined;
	}
}

function messageItemId(
	block: TextContent,
	messageIndex: number,
	unsignedCount: number,
): { id: string; phase?: string } {
	const signature = decodeTextSignature(block.textSignature);
	// Decision (the reference is silent): a second unsigned text in the same message gets a suffix, since item ids must be unique.
	const decoded = signature ?? {
		id: unsignedCount === 0 ? `msg_${messageIndex}` : `msg_${messageIndex}_${unsignedCount}`,
	};
	const id = decoded.id.length > MAX_MESSAGE_ID_LENGTH ? `msg_${shortHash(decoded.id)}` : decoded.id;
	return { ...decoded, id };
}

function convertAssistant(message: AssistantMessage, model: Model, messageIndex: number): ResponseInputItem[] {
	const items: ResponseInputItem[] = [];
	// Another model of the same provider and API: its real `fc_` item ids would fail the server's check that
	// each function call is paired with the reasoning item that produced it, so they are left out.
	const sameApiOtherModel =
		message.provider === model.provider && message.api === model.api && message.model !== model.id;
	let unsignedTexts = 0;
	for (const block of message.content) {
		if (block.type === "thinking") {
			const item = parseReasoningItem(block.thinkingSignature);
			if (item) items.push(item);
		} else if (block.type === "text") {
			if (block.text === "") continue;
			const { id, phase } = messageItemId(block, messageIndex, unsignedTexts);
			if (!block.textSignature) unsignedTexts++;
			items.push({
				type: "message",
				role: "assistant",
				content: [{ type: "output_text", text: sanitizeSurrogates(block.text), annotations: [] }],
				status: "completed",
				id,
				...(phase === "commentary" || phase === "final_answer" ? { phase } : {}),
			});
		} else {
			const { callId, itemId } = splitToolCallId(block.id);
			const keepItemId = itemId !== undefined && !(sameApiOtherModel && itemId.startsWith("fc_"));
			items.push({
				type: "function_call",
				...(keepItemId ? { id: itemId } : {}),
				call_id: callId,
				name: block.name,
				arguments: JSON.stringify(block.arguments),
			});
		}
	}
	return items;
}

function convertToolResult(message: ToolResultMessage, model: Model): ResponseInputItem {
	const text = sanitizeSurrogates(
		message.content
			.filter((b): b is TextContent => b.type === "text")
			.map((b) => b.text)
			.join("\n"),
	);
	const images = message.content.filter((b): b is ImageContent => b.type === "image");
	const callId = splitToolCallId(message.toolCallId).callId;
	if (images.length > 0 && supportsImages(model)) {
		const output: ResponseFunctionCallOutputItemList = [];
		if (text !== "") output.push({ type: "input_text", text });
		for (const image of images) {
			output.push({ type: "input_image", detail: "auto", image_url: `data:${image.mimeType};base64,${image.data}` });
		}
		return { type: "function_call_output", call_id: callId, output };
	}
	return {
		type: "function_call_output",
		call_id: callId,
		output: text === "" && images.length > 0 ? IMAGE_ONLY_RESULT_TEXT : text,
	};
}

/**
 * The Responses `input` for a context: handoff first, then the system prompt, users,
 * assistants (reasoning items verbatim, message items with their ids, function calls) and call outputs.
 */
export function convertResponsesInput(
	model: Model,
	context: Context,
	options: ResponsesInputOptions = {},
): ResponseInputItem[] {
	const input: ResponseInputItem[] = [];
	if (context.systemPrompt && options.includeSystemPrompt !== false) {
		const role = model.reasoning ? "developer" : "system";
		const prompt = context.systemPrompt;
		const make = (): ResponseInputItem => ({ role, content: sanitizeSurrogates(prompt) });
		input.push(options.reuseConversions ? sharedFirstMessage(`responses\u0000${role}\u0000${prompt}`, make) : make());
	}
	const normalizeIdsFor = options.normalizeIdsFor ?? RESPONSES_ID_NORMALIZING_PROVIDERS;
	const normalizer = responsesToolCallIdNormalizer(normalizeIdsFor);
	const messages = transformMessages(context.messages, model, normalizer);
	// What a message's items depend on besides the message: the target model (images, ids of the same API's
	// other models), the id normalisation, and for an assistant its position (ids of unsigned texts), which a
	// resumed conversion keeps. Without reuse, everything is converted afresh.
	const key = options.reuseConversions
		? [model.provider, model.api, model.id, supportsImages(model), normalizeIdsFor.join(",")].join("\u0000")
		: undefined;
	const conversion = passByKey(
		inputConversions,
		messages,
		key,
		(passKey) => new InputConversion(passKey),
		(pass, message) => pass.take(message, model),
	);
	return conversion.result(input);
}

// Conversions remembered per conversation: a few settings, for a session that switches models back and forth.
const inputConversions = new ConversationRuns<InputConversion>(4);

/**
 * The items of a history, message by message, as far as the history has been seen. A message's items depend
 * only on it and its position, so the items so far stay valid when messages are added: a request converts its
 * new messages only.
 */
class InputConversion {
	readonly inputs: Message[] = [];
	private readonly items: ResponseInputItem[] = [];

	/** `key`: the settings the items are remembered for, or undefined not to reuse them. */
	constructor(readonly key: string | undefined) {}

	take(message: Message, model: Model): void {
		const index = this.inputs.length;
		this.inputs.push(message);
		for (const item of this.convert(message, model, index)) this.items.push(item);
	}

	/** `head` (the system prompt's item, if any) followed by the history's items; a new array. */
	result(head: ResponseInputItem[]): ResponseInputItem[] {
		return head.length === 0 ? this.items.slice() : head.concat(this.items);
	}

	private convert(message: Message, model: Model, index: number): ResponseInputItem[] {
		if (this.key === undefined) return convertMessage(message, model, index);
		const key = message.role === "assistant" ? `${this.key}\u0000${index}` : this.key;
		let cached = conversions.get(message);
		if (cached?.key !== key) {
			cached = { key, items: convertMessage(message, model, index) };
			conversions.set(message, cached);
		}
		return cached.items;
	}
}

function convertMessage(message: Message, model: Model, index: number): ResponseInputItem[] {
	if (message.role === "user") {
		const item = convertUser(message, model);
		return item ? [item] : [];
	}
	if (message.role === "assistant") return convertAssistant(message, model, index);
	return [convertToolResult(message, model)];
}
