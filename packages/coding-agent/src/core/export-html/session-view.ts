// What the page is built from: the session tree, the current branch, labels, name, tool calls and totals.
// Pure, and linear in the number of entries.
import type { SessionEntry, SessionHeader, SessionTreeNode } from "../session/entries.js";
import {
	buildSessionTree,
	collectLabels,
	findSessionName,
	getBranchPath,
	indexEntries,
} from "../session/session-tree.js";
import type { ToolCallInfo } from "./render-tool.js";
import { asArray, asNumber, asRecord, asString } from "./untrusted.js";

export interface UsageTotals {
	assistantMessages: number;
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	cost: number;
}

export interface SessionView {
	header: SessionHeader;
	/** Distinct entries (a later line with the same id wins), in file order. */
	entries: readonly SessionEntry[];
	roots: readonly SessionTreeNode[];
	/** The branch the page reads top to bottom, root first; empty when the leaf is null. */
	currentPath: readonly SessionEntry[];
	currentIds: ReadonlySet<string>;
	leafId: string | undefined;
	labels: ReadonlyMap<string, string>;
	name: string | undefined;
	/** Every toolCall block of every assistant message, by call id, so a result can name its call. */
	toolCalls: ReadonlyMap<string, ToolCallInfo>;
	/** Number of branch ends (leaves of the tree). */
	branchCount: number;
	totals: { all: UsageTotals; currentBranch: UsageTotals };
}

/**
 * @param leafId the entry whose branch is the transcript: by default the file's last entry (docs/session-format.md
 *   "The tree"); a live session may pass its in-memory leaf; `null` means no current branch.
 */
export function buildSessionView(
	header: SessionHeader,
	fileEntries: readonly SessionEntry[],
	leafId?: string | null,
): SessionView {
	const byId = indexEntries(fileEntries);
	const entries = fileEntries.filter((entry) => byId.get(entry.id) === entry);
	const labels = collectLabels(entries);
	const roots = buildSessionTree(entries, labels);
	const leaf =
		leafId === null ? undefined : leafId !== undefined && byId.has(leafId) ? leafId : fileEntries.at(-1)?.id;
	const currentPath = getBranchPath(byId, leaf);
	const branchCount = countLeaves(roots);
	return {
		header,
		entries,
		roots,
		currentPath,
		currentIds: new Set(currentPath.map((entry) => entry.id)),
		leafId: leaf,
		labels,
		name: findSessionName(entries),
		toolCalls: collectToolCalls(entries),
		branchCount,
		totals: { all: sumUsage(entries), currentBranch: sumUsage(currentPath) },
	};
}

function countLeaves(roots: readonly SessionTreeNode[]): number {
	// Iterative: a deep chain of thousands of entries must not overflow the stack.
	let leaves = 0;
	const stack = [...roots];
	while (stack.length > 0) {
		const node = stack.pop() as SessionTreeNode;
		if (node.children.length === 0) leaves++;
		for (const child of node.children) stack.push(child);
	}
	return leaves;
}

function collectToolCalls(entries: readonly SessionEntry[]): Map<string, ToolCallInfo> {
	const calls = new Map<string, ToolCallInfo>();
	for (const entry of entries) {
		if (entry.type !== "message") continue;
		const message = asRecord(entry.message);
		if (message?.role !== "assistant") continue;
		for (const block of asArray(message.content)) {
			const record = asRecord(block);
			const id = asString(record?.id);
			if (record?.type !== "toolCall" || id === undefined) continue;
			calls.set(id, { name: asString(record.name) ?? "", arguments: record.arguments, entryId: entry.id });
		}
	}
	return calls;
}

function sumUsage(entries: readonly SessionEntry[]): UsageTotals {
	const totals: UsageTotals = { assistantMessages: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
	for (const entry of entries) {
		if (entry.type !== "message") continue;
		const message = asRecord(entry.message);
		if (message?.role !== "assistant") continue;
		totals.assistantMessages++;
		const usage = asRecord(message.usage);
		if (!usage) continue;
		totals.input += asNumber(usage.input) ?? 0;
		totals.output += asNumber(usage.output) ?? 0;
		totals.cacheRead += asNumber(usage.cacheRead) ?? 0;
		totals.cacheWrite += asNumber(usage.cacheWrite) ?? 0;
		totals.cost += asNumber(asRecord(usage.cost)?.total) ?? 0;
	}
	return totals;
}
