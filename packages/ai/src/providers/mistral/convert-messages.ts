import type { ChatCompletionStreamRequest, ContentChunk } from "@mistralai/mistralai/models/components";
import type { AssistantMessage, Message, Model, ToolResultMessage, UserMessage } from "../../types.js";
import { createMistralToolCallIdNormalizer } from "../../utils/mistral-tool-call-id.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { transformMessages } from "../transform-messages.js";

type ChatMessage = ChatCompletionStreamRequest["messages"][number];

// Texts the model reads in place of content it cannot see (as the reference words them).
export const IMAGE_OMITTED_TEXT = "(image omitted: model does not support images)";
export const TOOL_IMAGE_OMITTED_TEXT = "[tool image omitted: model does not support images]";
export const TOOL_ERROR_PREFIX = "[tool error] ";
export const NO_TOOL_OUTPUT_TEXT = "(no tool output)";
export const IMAGE_ONLY_TOOL_RESULT_TEXT = "(see attached image)";

function imageChunk(data: string, mimeType: string): ContentChunk {
	return { type: "image_url", imageUrl: `data:${mimeType};base64,${data}` };
}

function convertUser(message: UserMessage, acceptsImages: boolean): ChatMessage | undefined {
	if (typeof message.content === "string") return { role: "user", content: sanitizeSurrogates(message.content) };
	const content: ContentChunk[] = [];
	for (const block of message.content) {
		if (block.type === "text") content.push({ type: "text", text: sanitizeSurrogates(block.text) });
		else if (acceptsImages) content.push(imageChunk(block.data, block.mimeType));
	}
	if (content.length > 0) return { role: "user", content };
	return message.content.some((block) => block.type === "image")
		? { role: "user", content: IMAGE_OMITTED_TEXT }
		: undefined;
}

function convertAssistant(message: AssistantMessage): ChatMessage | undefined {
	const content: ContentChunk[] = [];
	const toolCalls: { id: string; type: "function"; function: { name: string; arguments: string } }[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim().length > 0) content.push({ type: "text", text: sanitizeSurrogates(block.text) });
		} else if (block.type === "thinking") {
			if (block.thinking.trim().length > 0) {
				content.push({ type: "thinking", thinking: [{ type: "text", text: sanitizeSurrogates(block.thinking) }] });
			}
		} else {
			toolCalls.push({
				id: block.id,
				type: "function",
				function: { name: block.name, arguments: JSON.stringify(block.arguments ?? {}) },
			});
		}
	}
	if (content.length === 0 && toolCalls.length === 0) return undefined;
	return {
		role: "assistant",
		...(content.length > 0 ? { content } : {}),
		...(toolCalls.length > 0 ? { toolCalls } : {}),
	};
}

function toolResultText(text: string, hasImages: boolean, acceptsImages: boolean, isError: boolean): string {
	const prefix = isError ? TOOL_ERROR_PREFIX : "";
	const trimmed = text.trim();
	if (trimmed.length > 0)
		return `${prefix}${trimmed}${hasImages && !acceptsImages ? `\n${TOOL_IMAGE_OMITTED_TEXT}` : ""}`;
	if (hasImages) return `${prefix}${acceptsImages ? IMAGE_ONLY_TOOL_RESULT_TEXT : IMAGE_OMITTED_TEXT}`;
	return `${prefix}${NO_TOOL_OUTPUT_TEXT}`;
}

function convertToolResult(message: ToolResultMessage, acceptsImages: boolean): ChatMessage {
	const text = message.content
		.filter((block) => block.type === "text")
		.map((block) => sanitizeSurrogates(block.text))
		.join("\n");
	const images = message.content.filter((block) => block.type === "image");
	const content: ContentChunk[] = [
		{ type: "text", text: toolResultText(text, images.length > 0, acceptsImages, message.isError) },
	];
	if (acceptsImages) for (const image of images) content.push(imageChunk(image.data, image.mimeType));
	return { role: "tool", toolCallId: message.toolCallId, name: message.toolName, content };
}

/**
 * Chat messages for Mistral: tool-call ids become exactly 9 alphanumerics (one normalizer per
 * request, so ids stay distinct), thinking is replayed as `thinking` chunks, and every tool result is a `tool`
 * message naming its tool.
 */
export function convertMessages(messages: Message[], model: Model, systemPrompt: string | undefined): ChatMessage[] {
	const acceptsImages = model.input.includes("image");
	const normalize = createMistralToolCallIdNormalizer();
	const result: ChatMessage[] = [];
	if (systemPrompt) result.push({ role: "system", content: sanitizeSurrogates(systemPrompt) });
	for (const message of transformMessages(messages, model, (id) => normalize(id))) {
		const converted =
			message.role === "user"
				? convertUser(message, acceptsImages)
				: message.role === "assistant"
					? convertAssistant(message)
					: convertToolResult(message, acceptsImages);
		if (converted) result.push(converted);
	}
	return result;
}
