// The text of messages as tests compare it: string content as it is, block content as its text blocks joined
// (images, thinking and tool calls count as nothing).
import type { FauxRequest } from "@agent/ai";

export function messageText(message: { content: unknown }): string {
	if (typeof message.content === "string") return message.content;
	return (message.content as readonly { type: string; text?: string }[])
		.map((block) => (block.type === "text" ? block.text : ""))
		.join("");
}

/** The text of each message the model was sent in `request`, in order (none without a request). */
export function messageTextsOf(request: FauxRequest | undefined): string[] {
	return (request?.context.messages ?? []).map(messageText);
}
