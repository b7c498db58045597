// Rebuilding what the model sees from the tree (docs/session-format.md "What the model sees"). Pure.
import type { AgentMessage, ThinkingLevel } from "@agent/agent-core";
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "../messages.js";
import type { CompactionEntry, SessionContext, SessionEntry } from "./entries.js";
import { getBranchPath, indexEntries } from "./session-tree.js";

// A branch without a thinking_level_change entry.
const UNRECORDED_THINKING_LEVEL: ThinkingLevel = "off";

function emptyContext(): SessionContext {
	return { messages: [], thinkingLevel: UNRECORDED_THINKING_LEVEL, model: null };
}

/** An ISO entry timestamp as epoch ms (message timestamps are numbers). */
function entryTime(entry: SessionEntry): number {
	const ms = Date.parse(entry.timestamp);
	return Number.isNaN(ms) ? 0 : ms;
}

/** The message an entry contributes to the context, if any. */
export function entryToContextMessage(entry: SessionEntry): AgentMessage | undefined {
	switch (entry.type) {
		case "message":
			return entry.message;
		case "custom_message":
			return createCustomMessage(entry.customType, entry.content, entry.display, entry.details, entryTime(entry));
		case "branch_summary":
			return entry.summary ? createBranchSummaryMessage(entry.summary, entry.fromId, entryTime(entry)) : undefined;
		default:
			return undefined;
	}
}

/**
 * The context of the branch ending at `leafId`: its messages (the latest compaction on the path replaces
 * everything before its first kept entry with a summary), its thinking level and its model.
 *
 * `leafId === null` means "before the first entry" (empty context); `undefined`, or an id that does not
 * exist, means the last entry of the file.
 */
export function buildSessionContext(
	entries: readonly SessionEntry[],
	leafId?: string | null,
	byId: ReadonlyMap<string, SessionEntry> = indexEntries(entries),
): SessionContext {
	if (leafId === null) return emptyContext();
	const leaf = (leafId !== undefined ? byId.get(leafId) : undefined) ?? entries[entries.length - 1];
	if (!leaf) return emptyContext();
	const path = getBranchPath(byId, leaf.id);

	const context = emptyContext();
	let compactionIndex = -1;
	for (let i = 0; i < path.length; i++) {
		const entry = path[i] as SessionEntry;
		if (entry.type === "thinking_level_change") context.thinkingLevel = entry.thinkingLevel;
		else if (entry.type === "model_change") context.model = { provider: entry.provider, modelId: entry.modelId };
		else if (entry.type === "message" && entry.message.role === "assistant") {
			context.model = { provider: entry.message.provider, modelId: entry.message.model };
		} else if (entry.type === "compaction") compactionIndex = i;
	}

	const emit = (entry: SessionEntry) => {
		const message = entryToContextMessage(entry);
		if (message) context.messages.push(message);
	};
	if (compactionIndex < 0) {
		for (const entry of path) emit(entry);
		return context;
	}
	const compaction = path[compactionIndex] as CompactionEntry;
	context.messages.push(
		createCompactionSummaryMessage(compaction.summary, compaction.tokensBefore, entryTime(compaction)),
	);
	const firstKept = path.findIndex((entry, i) => i < compactionIndex && entry.id === compaction.firstKeptEntryId);
	if (firstKept >= 0) for (let i = firstKept; i < compactionIndex; i++) emit(path[i] as SessionEntry);
	for (let i = compactionIndex + 1; i < path.length; i++) emit(path[i] as SessionEntry);
	return context;
}
