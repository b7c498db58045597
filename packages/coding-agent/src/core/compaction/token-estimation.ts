// Token accounting for compaction. Pure.
import type { AgentMessage } from "@agent/agent-core";
import type { AssistantMessage, ImageContent, TextContent, Usage } from "@agent/ai";
import type { CompactionSettings } from "../config/settings-schema.js";
import type { SessionEntry } from "../session/entries.js";

/** What an image is assumed to cost in the chars/4 estimate (4800 chars ≈ 1200 tokens). */
export const IMAGE_CHAR_ESTIMATE = 4800;

export const DEFAULT_COMPACTION_SETTINGS: Required<CompactionSettings> = {
	enabled: true,
	reserveTokens: 16384,
	keepRecentTokens: 20000,
};

/** The tokens a reply's usage says the context held: `totalTokens`, or the sum of its parts for old records. */
export function calculateContextTokens(usage: Usage): number {
	return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

function textLength(content: string | readonly (TextContent | ImageContent)[], imageChars: number): number {
	if (typeof content === "string") return content.length;
	let chars = 0;
	for (const block of content) chars += block.type === "text" ? block.text.length : imageChars;
	return chars;
}

function assistantLength(message: AssistantMessage): number {
	let chars = 0;
	for (const block of message.content) {
		if (block.type === "text") chars += block.text.length;
		else if (block.type === "thinking") chars += block.thinking.length;
		else if (block.type === "toolCall") chars += block.name.length + JSON.stringify(block.arguments).length;
	}
	return chars;
}

/** chars/4, rounded up. Images count for user messages as nothing, for tool results and custom messages as 4800 chars. */
export function estimateTokens(message: AgentMessage): number {
	let chars: number;
	switch (message.role) {
		case "user":
			chars = textLength(message.content, 0);
			break;
		case "assistant":
			chars = assistantLength(message);
			break;
		case "toolResult":
		case "custom":
			chars = textLength(message.content, IMAGE_CHAR_ESTIMATE);
			break;
		case "bashExecution":
			chars = message.command.length + message.output.length;
			break;
		case "branchSummary":
		case "compactionSummary":
			chars = message.summary.length;
			break;
		default:
			chars = 0;
	}
	return Math.ceil(chars / 4);
}

/** An assistant reply whose usage describes the context it was given (not aborted, not failed). */
export function hasUsableUsage(message: AgentMessage): message is AssistantMessage {
	return (
		message.role === "assistant" &&
		message.stopReason !== "aborted" &&
		message.stopReason !== "error" &&
		// Records written by older versions may lack usage.
		message.usage !== undefined
	);
}

/** The usage of the last reply on a branch that was neither aborted nor failed (the footer's and compaction's figure). */
export function getLastAssistantUsage(entries: readonly SessionEntry[]): Usage | undefined {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i] as SessionEntry;
		if (entry.type === "message" && hasUsableUsage(entry.message)) return entry.message.usage;
	}
	return undefined;
}

export interface ContextTokenEstimate {
	tokens: number;
	/** From the last usable reply's usage; 0 when there is none. */
	usageTokens: number;
	/** Estimated for the messages after that reply. */
	trailingTokens: number;
	/** Index of that reply, or null when every message was estimated. */
	lastUsageIndex: number | null;
}

/**
 * The context's size: the last usable reply's reported usage plus estimates for what came after it, or
 * estimates for everything when no reply reported usage.
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): ContextTokenEstimate {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as AgentMessage;
		if (!hasUsableUsage(message)) continue;
		const usageTokens = calculateContextTokens(message.usage);
		let trailingTokens = 0;
		for (let j = i + 1; j < messages.length; j++) trailingTokens += estimateTokens(messages[j] as AgentMessage);
		return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: i };
	}
	let tokens = 0;
	for (const message of messages) tokens += estimateTokens(message);
	return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
}

/** True when compaction is on and the context leaves less than `reserveTokens` of the window. */
export function shouldCompact(
	contextTokens: number,
	contextWindow: number,
	settings: Pick<Required<CompactionSettings>, "enabled" | "reserveTokens">,
): boolean {
	return settings.enabled && contextTokens > contextWindow - settings.reserveTokens;
}
