// The conversation as plain text for the summarizer. Pure.
import type { AgentMessage } from "@agent/agent-core";
import type { Message } from "@agent/ai";
import { convertToLlm } from "../messages.js";

/** Tool results are cut to this many characters in the summarizer's input. */
export const TOOL_RESULT_SERIALIZATION_LIMIT = 2000;

function truncateToolResult(text: string): string {
	if (text.length <= TOOL_RESULT_SERIALIZATION_LIMIT) return text;
	const omitted = text.length - TOOL_RESULT_SERIALIZATION_LIMIT;
	return `${text.slice(0, TOOL_RESULT_SERIALIZATION_LIMIT)}\n\n[... ${omitted} more characters truncated]`;
}

function textOf(content: Message["content"]): string {
	if (typeof content === "string") return content;
	let text = "";
	for (const block of content) if (block.type === "text") text += block.text;
	return text;
}

function serializeMessage(message: Message, blocks: string[]): void {
	if (message.role === "user") {
		const text = textOf(message.content);
		if (text) blocks.push(`[User]: ${text}`);
		return;
	}
	if (message.role === "toolResult") {
		const text = textOf(message.content);
		if (text) blocks.push(`[Tool result]: ${truncateToolResult(text)}`);
		return;
	}
	const thinking: string[] = [];
	const text: string[] = [];
	const calls: string[] = [];
	for (const block of message.content) {
		if (block.type === "thinking") thinking.push(block.thinking);
		else if (block.type === "text") text.push(block.text);
		else if (block.type === "toolCall") {
			const args = Object.entries(block.arguments ?? {})
				.map(([key, value]) => `${key}=${JSON.stringify(value)}`)
				.join(", ");
			calls.push(`${block.name}(${args})`);
		}
	}
	if (thinking.length > 0) blocks.push(`[Assistant thinking]: ${thinking.join("\n")}`);
	if (text.length > 0) blocks.push(`[Assistant]: ${text.join("\n")}`);
	if (calls.length > 0) blocks.push(`[Assistant tool calls]: ${calls.join("; ")}`);
}

/**
 * Flattens messages (after `convertToLlm`, so summaries and bash runs read as the model saw them) into
 * `[User]: …`, `[Assistant]: …`, … blocks joined by blank lines, so the summarizer reads a transcript
 * instead of continuing a conversation.
 */
export function serializeConversation(messages: readonly AgentMessage[]): string {
	const blocks: string[] = [];
	for (const message of convertToLlm(messages)) serializeMessage(message, blocks);
	return blocks.join("\n\n");
}
