import type { Message } from "../../types.js";

function hasImage(message: Message): boolean {
	if (message.role === "assistant" || typeof message.content === "string") return false;
	return message.content.some((block) => block.type === "image");
}

/** Per-request headers GitHub Copilot expects on top of the model's static ones. */
export function githubCopilotDynamicHeaders(messages: readonly Message[]): Record<string, string> {
	const headers: Record<string, string> = {
		"X-Initiator": messages.at(-1)?.role === "user" ? "user" : "agent",
		"Openai-Intent": "conversation-edits",
	};
	if (messages.some(hasImage)) headers["Copilot-Vision-Request"] = "true";
	return headers;
}
