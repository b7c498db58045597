// Where a compaction cuts the branch (docs/compaction.md "What is kept"). Pure.
import type { AgentMessage } from "@agent/agent-core";
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "../messages.js";
import type { SessionEntry } from "../session/entries.js";
import { estimateTokens } from "./token-estimation.js";

export interface CutPointResult {
	/** First entry kept verbatim. */
	firstKeptEntryIndex: number;
	/** Start of the turn the cut falls into, or -1 when the cut is at a turn boundary. */
	turnStartIndex: number;
	/** The cut falls inside a turn: its prefix is summarized separately. */
	isSplitTurn: boolean;
}

const CUTTABLE_ROLES: ReadonlySet<string> = new Set([
	"user",
	"assistant",
	"bashExecution",
	"custom",
	"branchSummary",
	"compactionSummary",
]);

/** Entries a kept part may start at. Tool results never are: a result must stay with its call. */
export function isValidCutPoint(entry: SessionEntry): boolean {
	if (entry.type === "message") return CUTTABLE_ROLES.has(entry.message.role);
	return entry.type === "custom_message" || entry.type === "branch_summary";
}

/** Entries that start a turn: a user or `!bash` message, an extension message, a branch summary. */
function isTurnStart(entry: SessionEntry): boolean {
	if (entry.type === "message") return entry.message.role === "user" || entry.message.role === "bashExecution";
	return entry.type === "custom_message" || entry.type === "branch_summary";
}

/** Indexes of valid cut points in `[start, end)`. */
export function findValidCutPoints(entries: readonly SessionEntry[], start: number, end: number): number[] {
	const points: number[] = [];
	for (let i = start; i < end; i++) if (isValidCutPoint(entries[i] as SessionEntry)) points.push(i);
	return points;
}

/** The nearest turn start at or before `index`, not before `start`; -1 when there is none. */
export function findTurnStartIndex(entries: readonly SessionEntry[], index: number, start: number): number {
	for (let i = index; i >= start; i--) if (isTurnStart(entries[i] as SessionEntry)) return i;
	return -1;
}

/**
 * Keeps about `keepRecentTokens` of the newest messages: walks back from the end summing message estimates
 * and cuts at the first valid cut point at or after the entry where the budget is reached. Non-message
 * entries (settings changes, labels, extension entries) just before the cut are kept with it.
 */
export function findCutPoint(
	entries: readonly SessionEntry[],
	start: number,
	end: number,
	keepRecentTokens: number,
): CutPointResult {
	const cutPoints = findValidCutPoints(entries, start, end);
	if (cutPoints.length === 0) return { firstKeptEntryIndex: start, turnStartIndex: -1, isSplitTurn: false };

	let cutIndex = cutPoints[0] as number;
	let kept = 0;
	for (let i = end - 1; i >= start; i--) {
		const entry = entries[i] as SessionEntry;
		if (entry.type !== "message") continue;
		kept += estimateTokens(entry.message);
		if (kept < keepRecentTokens) continue;
		const atOrAfter = cutPoints.find((point) => point >= i);
		// Ours: when only tool results follow the point where the budget ran out, the reference fell back to
		// the first cut point and kept everything; the nearest earlier cut point still compacts something.
		cutIndex = atOrAfter ?? (cutPoints.filter((point) => point < i).at(-1) as number);
		break;
	}
	return cutAt(entries, start, cutIndex);
}

/**
 * Ours: a cut that leaves something to summarize however small the branch is (for `/compact` and for recovering
 * from an overflow, where the reference found "nothing to compact"): the start of the last turn when a message
 * precedes it, else the last cut point inside the only turn (its prefix is summarized). Undefined when there is
 * truly nothing before any cut point (a lone user message).
 */
export function findProgressCutPoint(
	entries: readonly SessionEntry[],
	start: number,
	end: number,
): CutPointResult | undefined {
	let firstMessage = -1;
	for (let i = start; i < end && firstMessage < 0; i++) {
		if (messageOfEntry(entries[i] as SessionEntry) !== undefined) firstMessage = i;
	}
	const hasMessageBefore = (index: number) => firstMessage >= 0 && firstMessage < index;
	for (let i = end - 1; i > start; i--) {
		if (isTurnStart(entries[i] as SessionEntry) && hasMessageBefore(i)) return cutAt(entries, start, i);
	}
	for (let i = end - 1; i > start; i--) {
		if (isValidCutPoint(entries[i] as SessionEntry) && hasMessageBefore(i)) return cutAt(entries, start, i);
	}
	return undefined;
}

/** The cut at `cutIndex` (a valid cut point): the entries kept with it, and whether it splits a turn. */
function cutAt(entries: readonly SessionEntry[], start: number, cutIndex: number): CutPointResult {
	// Ours: whether the turn is split is decided at the cut point itself. The reference decided it after
	// the extension below, so a settings entry between two complete turns made the earlier turn a "split".
	const cutEntry = entries[cutIndex] as SessionEntry;
	const isUserMessage = cutEntry.type === "message" && cutEntry.message.role === "user";
	const turnStartIndex = isUserMessage ? -1 : findTurnStartIndex(entries, cutIndex, start);

	let firstKeptEntryIndex = cutIndex;
	while (firstKeptEntryIndex > start) {
		const previous = entries[firstKeptEntryIndex - 1] as SessionEntry;
		if (previous.type === "message" || previous.type === "compaction") break;
		firstKeptEntryIndex--;
	}
	// The turn start may be one of the entries the extension just took in.
	const splitStart = turnStartIndex >= 0 && turnStartIndex < firstKeptEntryIndex ? turnStartIndex : -1;
	return { firstKeptEntryIndex, turnStartIndex: splitStart, isSplitTurn: splitStart !== -1 };
}

/** The message an entry stands for in a compaction: its own, or a custom/summary message built from it. */
export function messageOfEntry(entry: SessionEntry): AgentMessage | undefined {
	const time = Date.parse(entry.timestamp) || 0;
	switch (entry.type) {
		case "message":
			return entry.message;
		case "custom_message":
			return createCustomMessage(entry.customType, entry.content, entry.display, entry.details, time);
		case "branch_summary":
			return createBranchSummaryMessage(entry.summary, entry.fromId, time);
		case "compaction":
			return createCompactionSummaryMessage(entry.summary, entry.tokensBefore, time);
		default:
			return undefined;
	}
}

/** The messages of `entries[start, end)`. */
export function messagesOfEntries(entries: readonly SessionEntry[], start: number, end: number): AgentMessage[] {
	const messages: AgentMessage[] = [];
	for (let i = start; i < end; i++) {
		const message = messageOfEntry(entries[i] as SessionEntry);
		if (message) messages.push(message);
	}
	return messages;
}
