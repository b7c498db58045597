// Summarizing the branch the user leaves when moving elsewhere in the session tree (docs/compaction.md "Branch summaries").
import type { AgentMessage, StreamFn } from "@agent/agent-core";
import { type AssistantMessage, type Model, streamSimple } from "@agent/ai";
import type { SessionEntry } from "../session/entries.js";
import { messageOfEntry } from "./cut-point.js";
import {
	type CompactionDetails,
	collectFileOperations,
	computeFileLists,
	createFileOperations,
	type FileOperations,
	formatFileOperations,
	seedFileOperations,
} from "./file-operations.js";
import { BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_PROMPT, SUMMARIZATION_SYSTEM_PROMPT } from "./prompts.js";
import { serializeConversation } from "./serialization.js";
import { estimateTokens } from "./token-estimation.js";

/** Used when the model reports no context window. */
const FALLBACK_CONTEXT_WINDOW = 128_000;
const BRANCH_SUMMARY_MAX_TOKENS = 2048;
export const NO_CONTENT_TO_SUMMARIZE = "No content to summarize";

/** What `collectEntriesForBranchSummary` needs from a session. */
export interface BranchSource {
	getBranch(fromId?: string): SessionEntry[];
}

export interface BranchEntries {
	/** From just after the common ancestor to the old leaf, oldest first. */
	entries: SessionEntry[];
	commonAncestorId: string | null;
}

/** The reference's name for {@link BranchEntries}. */
export type CollectEntriesResult = BranchEntries;

/**
 * The entries of the branch being left: from the old leaf back to (not including) the deepest entry shared
 * with the target's path. Compactions on the way are included; their summaries become content.
 */
export function collectEntriesForBranchSummary(
	session: BranchSource,
	oldLeafId: string | null,
	targetId: string,
): BranchEntries {
	if (oldLeafId === null) return { entries: [], commonAncestorId: null };
	const oldPath = session.getBranch(oldLeafId);
	const onOldPath = new Set(oldPath.map((entry) => entry.id));
	const targetPath = session.getBranch(targetId);
	let commonAncestorId: string | null = null;
	for (let i = targetPath.length - 1; i >= 0; i--) {
		const id = (targetPath[i] as SessionEntry).id;
		if (onOldPath.has(id)) {
			commonAncestorId = id;
			break;
		}
	}
	const ancestorIndex = commonAncestorId === null ? -1 : oldPath.findIndex((entry) => entry.id === commonAncestorId);
	return { entries: oldPath.slice(ancestorIndex + 1), commonAncestorId };
}

export interface PreparedBranchEntries {
	messages: AgentMessage[];
	fileOps: FileOperations;
	totalTokens: number;
}

/** The reference's name for {@link PreparedBranchEntries}. */
export type BranchPreparation = PreparedBranchEntries;

/**
 * The newest messages of the branch that fit `tokenBudget`, oldest first. Tool results are left out (the
 * calls say enough); an older compaction or branch summary that does not fit is still taken while less
 * than 90% of the budget is used, since it stands for everything before it.
 */
export function prepareBranchEntries(entries: readonly SessionEntry[], tokenBudget: number): PreparedBranchEntries {
	const fileOps = createFileOperations();
	for (const entry of entries) {
		if (entry.type === "branch_summary" && !entry.fromHook) seedFileOperations(entry.details, fileOps);
	}
	const messages: AgentMessage[] = [];
	let totalTokens = 0;
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i] as SessionEntry;
		const message = messageOfEntry(entry);
		if (!message || message.role === "toolResult") continue;
		const tokens = estimateTokens(message);
		if (totalTokens + tokens > tokenBudget) {
			const isSummary = entry.type === "compaction" || entry.type === "branch_summary";
			if (isSummary && totalTokens < 0.9 * tokenBudget) {
				messages.unshift(message);
				collectFileOperations(message, fileOps);
				totalTokens += tokens;
			}
			break;
		}
		messages.unshift(message);
		collectFileOperations(message, fileOps);
		totalTokens += tokens;
	}
	return { messages, fileOps, totalTokens };
}

export interface GenerateBranchSummaryOptions {
	model: Model;
	apiKey: string | undefined;
	signal?: AbortSignal;
	customInstructions?: string;
	/** With `customInstructions`: use them instead of the default prompt, not in addition to it. */
	replaceInstructions?: boolean;
	/** `branchSummary.reserveTokens`. */
	reserveTokens: number;
	/** Default `streamSimple`. */
	streamFn?: StreamFn;
}

export interface BranchSummaryResult {
	summary?: string;
	readFiles?: string[];
	modifiedFiles?: string[];
	aborted?: boolean;
	error?: string;
}

function branchInstructions(options: GenerateBranchSummaryOptions): string {
	if (options.customInstructions && options.replaceInstructions) return options.customInstructions;
	if (options.customInstructions) return `${BRANCH_SUMMARY_PROMPT}\n\nAdditional focus: ${options.customInstructions}`;
	return BRANCH_SUMMARY_PROMPT;
}

/** Summarizes a branch; failures and aborts are returned, not thrown. */
export async function generateBranchSummary(
	entries: readonly SessionEntry[],
	options: GenerateBranchSummaryOptions,
): Promise<BranchSummaryResult> {
	const tokenBudget = (options.model.contextWindow || FALLBACK_CONTEXT_WINDOW) - options.reserveTokens;
	const prepared = prepareBranchEntries(entries, tokenBudget);
	if (prepared.messages.length === 0) return { summary: NO_CONTENT_TO_SUMMARIZE };

	const text = `<conversation>\n${serializeConversation(prepared.messages)}\n</conversation>\n\n${branchInstructions(options)}`;
	const streamFn = options.streamFn ?? streamSimple;
	let response: AssistantMessage;
	try {
		const stream = await streamFn(
			options.model,
			{
				systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
				messages: [{ role: "user", content: [{ type: "text", text }], timestamp: Date.now() }],
			},
			{ apiKey: options.apiKey, signal: options.signal, maxTokens: BRANCH_SUMMARY_MAX_TOKENS },
		);
		response = await stream.result();
	} catch (error) {
		if (options.signal?.aborted) return { aborted: true };
		return { error: error instanceof Error ? error.message : String(error) };
	}
	if (response.stopReason === "aborted" || options.signal?.aborted) return { aborted: true };
	if (response.stopReason === "error") return { error: response.errorMessage || "Unknown error" };

	const body = response.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	const details: CompactionDetails = computeFileLists(prepared.fileOps);
	return {
		summary: BRANCH_SUMMARY_PREAMBLE + body + formatFileOperations(details.readFiles, details.modifiedFiles),
		readFiles: details.readFiles,
		modifiedFiles: details.modifiedFiles,
	};
}
