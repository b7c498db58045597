// Figures about the current context for `get_session_stats`, footers and `ctx.getContextUsage()`. Pure.
import type { AgentMessage } from "@agent/agent-core";
import type { AssistantMessage, Model } from "@agent/ai";
import { estimateContextTokens } from "../compaction/token-estimation.js";
import type { ContextUsage } from "../extensions/hooks.js";
import type { SessionEntry } from "../session/entries.js";
import type { SessionStats } from "./events.js";

/** Counts by role and the usage and cost of the replies in context. */
export function computeSessionStats(
	messages: readonly AgentMessage[],
	session: { sessionId: string; sessionFile?: string },
): SessionStats {
	const stats: SessionStats = {
		...(session.sessionFile !== undefined ? { sessionFile: session.sessionFile } : {}),
		sessionId: session.sessionId,
		userMessages: 0,
		assistantMessages: 0,
		toolCalls: 0,
		toolResults: 0,
		totalMessages: messages.length,
		tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		cost: 0,
	};
	for (const message of messages) {
		if (message.role === "user") stats.userMessages++;
		else if (message.role === "toolResult") stats.toolResults++;
		else if (message.role === "assistant") {
			stats.assistantMessages++;
			for (const block of message.content) if (block.type === "toolCall") stats.toolCalls++;
			const usage = message.usage;
			if (!usage) continue;
			stats.tokens.input += usage.input;
			stats.tokens.output += usage.output;
			stats.tokens.cacheRead += usage.cacheRead;
			stats.tokens.cacheWrite += usage.cacheWrite;
			stats.cost += usage.cost?.total ?? 0;
		}
	}
	const { tokens } = stats;
	tokens.total = tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite;
	return stats;
}

function isUsageAfterCompaction(message: AssistantMessage, compactionTime: number): boolean {
	if (message.stopReason === "aborted" || message.stopReason === "error") return false;
	if (message.timestamp <= compactionTime) return false;
	const usage = message.usage;
	return usage !== undefined && usage.input + usage.output + usage.cacheRead + usage.cacheWrite > 0;
}

/**
 * How full the model's window is: undefined without a model or window; unknown
 * (`null`) right after a compaction until a reply reports usage again; otherwise the usage-based estimate.
 */
export function computeContextUsage(
	model: Model | undefined,
	messages: readonly AgentMessage[],
	branchEntries: readonly SessionEntry[],
): ContextUsage | undefined {
	if (!model || !(model.contextWindow > 0)) return undefined;
	const contextWindow = model.contextWindow;
	let latestCompaction: SessionEntry | undefined;
	for (let i = branchEntries.length - 1; i >= 0; i--) {
		if ((branchEntries[i] as SessionEntry).type === "compaction") {
			latestCompaction = branchEntries[i];
			break;
		}
	}
	if (latestCompaction) {
		const compactionTime = Date.parse(latestCompaction.timestamp) || 0;
		const hasFreshUsage = messages.some(
			(message) => message.role === "assistant" && isUsageAfterCompaction(message, compactionTime),
		);
		if (!hasFreshUsage) return { tokens: null, contextWindow, percent: null };
	}
	const { tokens } = estimateContextTokens(messages);
	return { tokens, contextWindow, percent: (tokens / contextWindow) * 100 };
}

/** The text of the last reply in context (aborted empty replies skipped), trimmed; undefined when empty. */
export function findLastAssistantText(messages: readonly AgentMessage[]): string | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as AgentMessage;
		if (message.role !== "assistant") continue;
		if (message.stopReason === "aborted" && message.content.length === 0) continue;
		const text = message.content
			.filter((block) => block.type === "text")
			.map((block) => block.text)
			.join("")
			.trim();
		return text || undefined;
	}
	return undefined;
}
