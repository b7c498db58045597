import type { ImageContent, Message, TextContent } from "@agent/ai";

/** What the model sees in place of an image when settings `images.blockImages` is on. */
export const IMAGES_DISABLED_TEXT = "Image reading is disabled.";

function blockParts(parts: (TextContent | ImageContent)[]): (TextContent | ImageContent)[] {
	const result: (TextContent | ImageContent)[] = [];
	for (const part of parts) {
		const replacement: TextContent | ImageContent =
			part.type === "image" ? { type: "text", text: IMAGES_DISABLED_TEXT } : part;
		const previous = result[result.length - 1];
		const isPlaceholder = replacement.type === "text" && replacement.text === IMAGES_DISABLED_TEXT;
		if (isPlaceholder && previous?.type === "text" && previous.text === IMAGES_DISABLED_TEXT) continue;
		result.push(replacement);
	}
	return result;
}

/**
 * Images-blocked mode for `convertToLlm`: every image in user and tool-result messages becomes the text
 * `Image reading is disabled.`, with runs of that text collapsed to one. Messages without images are
 * returned as they are.
 */
export function blockImagesInMessages(messages: Message[]): Message[] {
	return messages.map((message) => {
		if (message.role === "assistant" || typeof message.content === "string") return message;
		if (!message.content.some((part) => part.type === "image")) return message;
		return { ...message, content: blockParts(message.content) } as Message;
	});
}
