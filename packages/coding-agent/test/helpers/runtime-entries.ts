// Session entries and messages for compaction tests, built without a SessionManager.
import type { AgentMessage } from "@agent/agent-core";
import type { AssistantMessage, ToolCall, ToolResultMessage, UserMessage } from "@agent/ai";
import type { CompactionEntry, SessionEntry } from "../../src/core/session/entries.js";

let counter = 0;
let clock = Date.parse("2025-01-15T09:00:00.000Z");

function nextId(): string {
	counter++;
	return counter.toString(16).padStart(8, "0");
}

function nextTimestamp(): string {
	clock += 1000;
	return new Date(clock).toISOString();
}

/** Chains entries into a linear branch: each one's parent is the one before. */
export function chain(entries: SessionEntry[]): SessionEntry[] {
	let parentId: string | null = null;
	for (const entry of entries) {
		entry.parentId = parentId;
		parentId = entry.id;
	}
	return entries;
}

export function messageEntry(message: AgentMessage): SessionEntry {
	return { type: "message", id: nextId(), parentId: null, timestamp: nextTimestamp(), message };
}

export function compactionEntry(
	summary: string,
	firstKeptEntryId: string,
	details?: unknown,
	fromHook?: boolean,
): CompactionEntry {
	return {
		type: "compaction",
		id: nextId(),
		parentId: null,
		timestamp: nextTimestamp(),
		summary,
		firstKeptEntryId,
		tokensBefore: 1000,
		...(details !== undefined ? { details } : {}),
		...(fromHook !== undefined ? { fromHook } : {}),
	};
}

export function thinkingEntry(): SessionEntry {
	return {
		type: "thinking_level_change",
		id: nextId(),
		parentId: null,
		timestamp: nextTimestamp(),
		thinkingLevel: "high",
	};
}

export function user(text: string): UserMessage {
	return { role: "user", content: [{ type: "text", text }], timestamp: clock };
}

const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

export function assistant(
	text: string,
	options: { toolCalls?: ToolCall[]; totalTokens?: number; stopReason?: AssistantMessage["stopReason"] } = {},
): AssistantMessage {
	const total = options.totalTokens ?? 100;
	return {
		role: "assistant",
		content: [...(text ? [{ type: "text" as const, text }] : []), ...(options.toolCalls ?? [])],
		api: "faux",
		provider: "faux",
		model: "faux-1",
		usage: { input: total, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: total, cost: ZERO_COST },
		stopReason: options.stopReason ?? (options.toolCalls?.length ? "toolUse" : "stop"),
		timestamp: clock,
	};
}

export function toolCall(name: string, args: Record<string, unknown>, id = `call_${nextId()}`): ToolCall {
	return { type: "toolCall", id, name, arguments: args };
}

export function toolResult(call: ToolCall, text: string): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: [{ type: "text", text }],
		isError: false,
		timestamp: clock,
	};
}

/** `n` characters of filler (n/4 tokens in the estimate). */
export function text(chars: number, fill = "x"): string {
	return fill.repeat(chars);
}
