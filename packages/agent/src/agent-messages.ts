import { type AssistantMessage, emptyUsage, type Message, type Model, type ToolCall } from "@agent/ai";
import type { AgentMessage } from "./types.js";

export function isAssistantMessage(message: AgentMessage): message is AssistantMessage {
	return (message as { role?: unknown }).role === "assistant";
}

/** Whether the model produced anything in this turn: visible text, reasoning, or a tool call. */
export function hasAssistantContent(message: AssistantMessage): boolean {
	return message.content.some((block) => {
		if (block.type === "toolCall") return true;
		if (block.type === "text") return block.text.length > 0;
		return block.thinking.length > 0 || block.thinkingSignature !== undefined || block.redacted === true;
	});
}

/**
 * An assistant turn that was aborted before the model produced anything. The loop still reports it
 * (message_start/message_end/turn_end), but it is not kept in the history: it carries nothing the model
 * or the user could use. The reference keeps it and relies on providers dropping aborted turns on replay.
 * Session layers that persist on `message_end` should skip it too.
 */
export function isEmptyAbortedAssistantMessage(message: AgentMessage): boolean {
	return isAssistantMessage(message) && message.stopReason === "aborted" && !hasAssistantContent(message);
}

export function toolCallsOf(message: AssistantMessage): ToolCall[] {
	return message.content.filter((block): block is ToolCall => block.type === "toolCall");
}

/**
 * Stream functions are a plug-in point, and a misbehaving one may hand back `content` as a string or
 * leave it out (reference bug #1434: `.filter()` on a string crashed the loop). Repair the shape once, at
 * the boundary, so everything downstream can trust the type.
 */
export function normalizeAssistantMessage(message: AssistantMessage): AssistantMessage {
	const content: unknown = message.content;
	if (Array.isArray(content)) return message;
	if (typeof content === "string") {
		return { ...message, content: content.length > 0 ? [{ type: "text", text: content }] : [] };
	}
	return { ...message, content: [] };
}

/** The Agent's default `convertToLlm`: keeps the LLM roles and drops app-defined messages. */
export function defaultConvertToLlm(messages: AgentMessage[]): Message[] {
	return messages.filter((message): message is Message => {
		const role = (message as { role?: unknown }).role;
		return role === "user" || role === "assistant" || role === "toolResult";
	});
}

/**
 * The assistant message that records a run which failed outside the model stream (a hook threw, the stream
 * function threw `No API key for provider: x`, ...), so the failure is visible in the history.
 */
export function createFailureAssistantMessage(model: Model, error: unknown, aborted: boolean): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text: "" }],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: aborted ? "aborted" : "error",
		errorMessage: error instanceof Error ? error.message : String(error),
		timestamp: Date.now(),
	};
}
