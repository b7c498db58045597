import type {
	Message as BedrockMessage,
	CachePointBlock,
	ContentBlock,
	ImageBlock,
	SystemContentBlock,
	ToolResultContentBlock,
} from "@aws-sdk/client-bedrock-runtime";
import type { AssistantMessage, ImageContent, Message, Model, ToolResultMessage, UserMessage } from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { transformMessages } from "../transform-messages.js";

/** Replaces a tool result that has nothing Bedrock accepts (it rejects blank text and empty content). */
export const EMPTY_TOOL_RESULT_TEXT = "(no output)";
export const IMAGE_ONLY_TOOL_RESULT_TEXT = "(see attached image)";

const IMAGE_FORMATS: Readonly<Record<string, ImageBlock["format"]>> = {
	"image/jpeg": "jpeg",
	"image/jpg": "jpeg",
	"image/png": "png",
	"image/gif": "gif",
	"image/webp": "webp",
};

/** Tool-call ids as Bedrock accepts them (as for Anthropic): `[a-zA-Z0-9_-]`, at most 64 characters. */
export function normalizeToolCallId(id: string): string {
	return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

/** Only Claude replays reasoning with its signature; other models reject the field. */
function replaysSignatures(model: Pick<Model, "id">): boolean {
	const id = model.id.toLowerCase();
	return id.includes("anthropic.claude") || id.includes("anthropic/claude");
}

function imageBlock(image: ImageContent): ContentBlock.ImageMember | undefined {
	const format = IMAGE_FORMATS[image.mimeType.toLowerCase()];
	// Ours: the reference throws on other types, failing the whole request; such an image is left out instead.
	if (!format) return undefined;
	return { image: { format, source: { bytes: Buffer.from(image.data, "base64") } } };
}

function convertUser(message: UserMessage, acceptsImages: boolean): BedrockMessage | undefined {
	const blocks =
		typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
	const content: ContentBlock[] = [];
	for (const block of blocks) {
		if (block.type === "text") {
			if (block.text.trim().length > 0) content.push({ text: sanitizeSurrogates(block.text) });
		} else if (acceptsImages) {
			const image = imageBlock(block);
			if (image) content.push(image);
		}
	}
	return content.length > 0 ? { role: "user", content } : undefined;
}

function convertAssistant(message: AssistantMessage, model: Model): BedrockMessage | undefined {
	const content: ContentBlock[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim().length > 0) content.push({ text: sanitizeSurrogates(block.text) });
		} else if (block.type === "toolCall") {
			content.push({
				toolUse: {
					toolUseId: block.id,
					name: block.name,
					input: block.arguments as ContentBlock.ToolUseMember["toolUse"]["input"],
				},
			});
		} else if (block.redacted) {
			// transformMessages keeps redacted reasoning only for the model that produced it.
			if (block.thinkingSignature) {
				content.push({ reasoningContent: { redactedContent: Buffer.from(block.thinkingSignature, "base64") } });
			}
		} else if (block.thinking.trim().length > 0) {
			if (!replaysSignatures(model)) {
				content.push({ reasoningContent: { reasoningText: { text: sanitizeSurrogates(block.thinking) } } });
			} else if (block.thinkingSignature?.trim()) {
				content.push({
					reasoningContent: {
						reasoningText: { text: sanitizeSurrogates(block.thinking), signature: block.thinkingSignature },
					},
				});
			} else {
				// Claude rejects unsigned reasoning; as on the Anthropic API it is replayed as text.
				content.push({ text: sanitizeSurrogates(block.thinking) });
			}
		}
	}
	return content.length > 0 ? { role: "assistant", content } : undefined;
}

function toolResultContent(message: ToolResultMessage, acceptsImages: boolean): ToolResultContentBlock[] {
	const content: ToolResultContentBlock[] = [];
	let hasImages = false;
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.length > 0) content.push({ text: sanitizeSurrogates(block.text) });
		} else {
			hasImages = true;
			const image = acceptsImages ? imageBlock(block) : undefined;
			if (image) content.push(image);
		}
	}
	if (content.length === 0) content.push({ text: hasImages ? IMAGE_ONLY_TOOL_RESULT_TEXT : EMPTY_TOOL_RESULT_TEXT });
	return content;
}

/**
 * The Converse `messages` for a history (after the handoff rules of transformMessages). Consecutive tool results
 * become one user message, as Bedrock requires; `cachePoint` goes last on a final user message.
 */
export function convertMessages(
	messages: Message[],
	model: Model,
	cachePoint: CachePointBlock | undefined,
): BedrockMessage[] {
	const acceptsImages = model.input.includes("image");
	const adapted = transformMessages(messages, model, normalizeToolCallId);
	const result: BedrockMessage[] = [];
	for (let i = 0; i < adapted.length; i++) {
		const message = adapted[i];
		if (message.role === "toolResult") {
			const content: ContentBlock[] = [];
			for (; i < adapted.length && adapted[i].role === "toolResult"; i++) {
				const toolResult = adapted[i] as ToolResultMessage;
				content.push({
					toolResult: {
						toolUseId: toolResult.toolCallId,
						content: toolResultContent(toolResult, acceptsImages),
						status: toolResult.isError ? "error" : "success",
					},
				});
			}
			i--;
			result.push({ role: "user", content });
			continue;
		}
		const converted =
			message.role === "user" ? convertUser(message, acceptsImages) : convertAssistant(message, model);
		if (converted) result.push(converted);
	}
	const last = result.at(-1);
	if (cachePoint && last?.role === "user") last.content?.push({ cachePoint });
	return result;
}

export function convertSystemPrompt(
	systemPrompt: string | undefined,
	cachePoint: CachePointBlock | undefined,
): SystemContentBlock[] | undefined {
	if (!systemPrompt) return undefined;
	const blocks: SystemContentBlock[] = [{ text: sanitizeSurrogates(systemPrompt) }];
	if (cachePoint) blocks.push({ cachePoint });
	return blocks;
}
