import type { Content, FunctionResponse, Part } from "@google/genai";
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
import { transformMessages } from "../transform-messages.js";

/** Signature Gemini 3 accepts in place of a real one, for function calls that never had one. */
export const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";
export const IMAGE_ONLY_TOOL_RESULT_TEXT = "(see attached image)";
/** Text of the user turn that carries tool-result images to models without multimodal function responses. */
export const TOOL_RESULT_IMAGES_TEXT = "Tool result image:";

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Only a well-formed base64 signature is replayed; anything else would fail the request. */
export function isValidThoughtSignature(signature: string | undefined): signature is string {
	return !!signature && signature.length % 4 === 0 && BASE64.test(signature);
}

/** Gemini itself needs no call ids; Claude and gpt-oss models served through this API do. */
export function requiresToolCallId(model: Pick<Model, "id">): boolean {
	return model.id.startsWith("claude-") || model.id.startsWith("gpt-oss-");
}

export function normalizeToolCallId(id: string): string {
	return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

function isGemini3(model: Pick<Model, "id">): boolean {
	return model.id.includes("gemini-3");
}

function imagePart(image: ImageContent): Part {
	return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

function convertUser(message: UserMessage, acceptsImages: boolean): Content | undefined {
	const blocks =
		typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
	const parts: Part[] = [];
	for (const block of blocks) {
		if (block.type === "text") {
			if (block.text.trim().length > 0) parts.push({ text: sanitizeSurrogates(block.text) });
		} else if (acceptsImages) {
			parts.push(imagePart(block));
		}
	}
	return parts.length > 0 ? { role: "user", parts } : undefined;
}

function convertAssistant(message: AssistantMessage, model: Model): Content | undefined {
	// "Same model" for Google means same provider and model id.
	const sameModel = message.provider === model.provider && message.model === model.id;
	const withIds = requiresToolCallId(model);
	const parts: Part[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim().length === 0) continue;
			const part: Part = { text: sanitizeSurrogates(block.text) };
			if (sameModel && isValidThoughtSignature(block.textSignature)) part.thoughtSignature = block.textSignature;
			parts.push(part);
		} else if (block.type === "thinking") {
			const signature =
				sameModel && isValidThoughtSignature(block.thinkingSignature) ? block.thinkingSignature : undefined;
			if (block.thinking.trim().length === 0 && !signature) continue;
			if (!sameModel) {
				parts.push({ text: sanitizeSurrogates(block.thinking) });
				continue;
			}
			const part: Part = { thought: true, text: sanitizeSurrogates(block.thinking) };
			if (signature) part.thoughtSignature = signature;
			parts.push(part);
		} else {
			const part: Part = {
				functionCall: { name: block.name, args: block.arguments, ...(withIds ? { id: block.id } : {}) },
			};
			const signature =
				sameModel && isValidThoughtSignature(block.thoughtSignature) ? block.thoughtSignature : undefined;
			if (signature) part.thoughtSignature = signature;
			else if (isGemini3(model)) part.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
			parts.push(part);
		}
	}
	return parts.length > 0 ? { role: "model", parts } : undefined;
}

function functionResponsePart(
	result: ToolResultMessage,
	images: ImageContent[],
	nestImages: boolean,
	withIds: boolean,
): Part {
	const texts = result.content.filter((block): block is TextContent => block.type === "text").map((b) => b.text);
	const text = sanitizeSurrogates(
		texts.length > 0 ? texts.join("\n") : images.length > 0 ? IMAGE_ONLY_TOOL_RESULT_TEXT : "",
	);
	const response: FunctionResponse = {
		name: result.toolName,
		response: result.isError ? { error: text } : { output: text },
	};
	if (withIds) response.id = result.toolCallId;
	if (nestImages && images.length > 0)
		response.parts = images.map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } }));
	return { functionResponse: response };
}

/**
 * Converts a history to Gemini contents. The history is first adapted to the target
 * model (`transformMessages`, transform-messages.ts). A run of consecutive tool results becomes one user turn of function responses; their
 * images are nested in the responses for Gemini 3, and otherwise follow in one user turn after the run.
 *
 * Ours differs: the reference puts each result's images in a user turn right after that result, which
 * splits a run of parallel results over several turns; Gemini requires one function response per call
 * of the preceding turn, together, so the images of the whole run follow it instead.
 */
export function convertMessages(messages: Message[], model: Model): Content[] {
	const acceptsImages = model.input.includes("image");
	const withIds = requiresToolCallId(model);
	const nestImages = isGemini3(model);
	const adapted = transformMessages(messages, model, withIds ? normalizeToolCallId : undefined);
	const contents: Content[] = [];
	for (let i = 0; i < adapted.length; i++) {
		const message = adapted[i];
		if (message.role === "toolResult") {
			const parts: Part[] = [];
			const looseImages: Part[] = [];
			for (; i < adapted.length; i++) {
				const result = adapted[i];
				if (result.role !== "toolResult") break;
				const images = acceptsImages
					? result.content.filter((block): block is ImageContent => block.type === "image")
					: [];
				parts.push(functionResponsePart(result, images, nestImages, withIds));
				if (!nestImages) looseImages.push(...images.map(imagePart));
			}
			i--;
			contents.push({ role: "user", parts });
			if (looseImages.length > 0)
				contents.push({ role: "user", parts: [{ text: TOOL_RESULT_IMAGES_TEXT }, ...looseImages] });
			continue;
		}
		const content = message.role === "user" ? convertUser(message, acceptsImages) : convertAssistant(message, model);
		if (content) contents.push(content);
	}
	return contents;
}
