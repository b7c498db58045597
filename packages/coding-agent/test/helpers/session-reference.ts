// A deliberately naive model of docs/session-format.md "The tree" and "What the model sees", written independently of the implementation,
// for property tests to compare against.
import type { AgentMessage } from "@agent/agent-core";
import type { SessionContext, SessionEntry } from "../../src/core/session/index.js";

function ms(iso: string): number {
	return new Date(iso).getTime();
}

/** Root-first path by repeated linear search (last entry with an id wins, as in the file index). */
export function referencePath(entries: readonly SessionEntry[], leafId: string): SessionEntry[] {
	const find = (id: string) => [...entries].reverse().find((e) => e.id === id);
	const path: SessionEntry[] = [];
	let current = find(leafId);
	while (current) {
		path.unshift(current);
		if (current.parentId === null || path.some((e) => e.id === current?.parentId)) break;
		current = find(current.parentId);
	}
	return path;
}

function toMessage(entry: SessionEntry): AgentMessage[] {
	if (entry.type === "message") return [entry.message];
	if (entry.type === "custom_message") {
		const message: AgentMessage = {
			role: "custom",
			customType: entry.customType,
			content: entry.content,
			display: entry.display,
			timestamp: ms(entry.timestamp),
		};
		if (entry.details !== undefined) message.details = entry.details;
		return [message];
	}
	if (entry.type === "branch_summary" && entry.summary.length > 0) {
		return [{ role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: ms(entry.timestamp) }];
	}
	return [];
}

export function referenceContext(entries: readonly SessionEntry[], leafId: string | null): SessionContext {
	if (leafId === null || entries.length === 0) return { messages: [], thinkingLevel: "off", model: null };
	const path = referencePath(entries, leafId);
	const levels = path.filter((e) => e.type === "thinking_level_change");
	const lastLevel = levels[levels.length - 1];
	const modelSources = path.filter(
		(e) => e.type === "model_change" || (e.type === "message" && e.message.role === "assistant"),
	);
	const lastModel = modelSources[modelSources.length - 1];
	let model: SessionContext["model"] = null;
	if (lastModel?.type === "model_change") model = { provider: lastModel.provider, modelId: lastModel.modelId };
	if (lastModel?.type === "message" && lastModel.message.role === "assistant") {
		model = { provider: lastModel.message.provider, modelId: lastModel.message.model };
	}
	const thinkingLevel = lastLevel?.type === "thinking_level_change" ? lastLevel.thinkingLevel : "off";

	const compactionAt = path.map((e) => e.type).lastIndexOf("compaction");
	let messages: AgentMessage[];
	if (compactionAt === -1) {
		messages = path.flatMap(toMessage);
	} else {
		const compaction = path[compactionAt];
		if (compaction?.type !== "compaction") throw new Error("unreachable");
		const before = path.slice(0, compactionAt);
		const keptFrom = before.findIndex((e) => e.id === compaction.firstKeptEntryId);
		messages = [
			{
				role: "compactionSummary",
				summary: compaction.summary,
				tokensBefore: compaction.tokensBefore,
				timestamp: ms(compaction.timestamp),
			},
			...(keptFrom === -1 ? [] : before.slice(keptFrom)).flatMap(toMessage),
			...path.slice(compactionAt + 1).flatMap(toMessage),
		];
	}
	return { messages, thinkingLevel, model };
}

export function referenceLabels(entries: readonly SessionEntry[]): Map<string, string> {
	const labels = new Map<string, string>();
	for (const entry of entries) {
		if (entry.type !== "label") continue;
		if (entry.label === undefined || entry.label === "") labels.delete(entry.targetId);
		else labels.set(entry.targetId, entry.label);
	}
	return labels;
}
