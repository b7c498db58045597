// Preparing and generating a compaction (docs/compaction.md). `prepareCompaction` is pure; `compact`
// calls the model.
import type { AgentMessage, StreamFn } from "@agent/agent-core";
import { type AssistantMessage, type Model, type SimpleStreamOptions, streamSimple } from "@agent/ai";
import type { CompactionSettings } from "../config/settings-schema.js";
import type { CompactionEntry, SessionEntry } from "../session/entries.js";
import { type CutPointResult, findCutPoint, findProgressCutPoint, messagesOfEntries } from "./cut-point.js";
import {
	type CompactionDetails,
	collectFileOperations,
	computeFileLists,
	createFileOperations,
	type FileOperations,
	formatFileOperations,
	seedFileOperations,
} from "./file-operations.js";
import {
	NO_PRIOR_HISTORY,
	SUMMARIZATION_PROMPT,
	SUMMARIZATION_SYSTEM_PROMPT,
	TURN_PREFIX_SUMMARIZATION_PROMPT,
	UPDATE_SUMMARIZATION_PROMPT,
} from "./prompts.js";
import { serializeConversation } from "./serialization.js";
import { estimateContextTokens } from "./token-estimation.js";

export interface CompactionPreparation {
	firstKeptEntryId: string;
	/** History before the kept part (before the split turn's start when the turn is split). */
	messagesToSummarize: AgentMessage[];
	/** The split turn's part before the cut; empty when the turn is not split. */
	turnPrefixMessages: AgentMessage[];
	isSplitTurn: boolean;
	tokensBefore: number;
	previousSummary?: string;
	fileOps: FileOperations;
	settings: Required<CompactionSettings>;
}

export interface CompactionResult<TDetails = unknown> {
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
	details?: TDetails;
}

/** How summaries are requested: the session passes its own stream function (watchdog, test fakes). */
export interface SummaryRequestOptions {
	/** Default `streamSimple`. */
	streamFn?: StreamFn;
}

export interface PrepareCompactionOptions {
	/**
	 * Ours: when the budget keeps everything, cut anyway before the last turn (or inside the only one): for
	 * `/compact` and for recovering from an overflow, which must make progress.
	 */
	mustMakeProgress?: boolean;
}

/**
 * What to compact on a branch, or undefined when there is nothing to do: the branch already ends with a
 * compaction, or nothing before the kept part would be summarized.
 *
 * Ours: the reference also returned a preparation with nothing to summarize (a small session), and then
 * asked the model to summarize an empty conversation, keeping everything.
 */
export function prepareCompaction(
	branchEntries: readonly SessionEntry[],
	settings: Required<CompactionSettings>,
	options: PrepareCompactionOptions = {},
): CompactionPreparation | undefined {
	const last = branchEntries[branchEntries.length - 1];
	if (!last || last.type === "compaction") return undefined;

	let previousIndex = -1;
	for (let i = branchEntries.length - 1; i >= 0; i--) {
		if ((branchEntries[i] as SessionEntry).type === "compaction") {
			previousIndex = i;
			break;
		}
	}
	const previous = previousIndex >= 0 ? (branchEntries[previousIndex] as CompactionEntry) : undefined;
	const boundaryStart = previousIndex + 1;
	const boundaryEnd = branchEntries.length;

	const tokensBefore = estimateContextTokens(
		messagesOfEntries(branchEntries, Math.max(previousIndex, 0), boundaryEnd),
	).tokens;

	const split = (cut: CutPointResult) => {
		const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
		return {
			cut,
			messagesToSummarize: messagesOfEntries(branchEntries, boundaryStart, historyEnd),
			turnPrefixMessages: cut.isSplitTurn
				? messagesOfEntries(branchEntries, cut.turnStartIndex, cut.firstKeptEntryIndex)
				: [],
		};
	};
	const summarizesNothing = (parts: ReturnType<typeof split>) =>
		parts.messagesToSummarize.length === 0 && parts.turnPrefixMessages.length === 0;
	let parts = split(findCutPoint(branchEntries, boundaryStart, boundaryEnd, settings.keepRecentTokens));
	if (summarizesNothing(parts) && options.mustMakeProgress) {
		// A failed reply at the end is no message to keep: a lone prompt that failed is still nothing to compact.
		let end = boundaryEnd;
		while (end > boundaryStart && isFailedReply(branchEntries[end - 1] as SessionEntry)) end--;
		const progress = findProgressCutPoint(branchEntries, boundaryStart, end);
		if (progress) parts = split(progress);
	}
	const { cut, messagesToSummarize, turnPrefixMessages } = parts;
	const firstKept = branchEntries[cut.firstKeptEntryIndex];
	if (!firstKept?.id || summarizesNothing(parts)) return undefined;

	const fileOps = createFileOperations();
	if (previous && !previous.fromHook) seedFileOperations(previous.details, fileOps);
	for (const message of messagesToSummarize) collectFileOperations(message, fileOps);
	for (const message of turnPrefixMessages) collectFileOperations(message, fileOps);

	return {
		firstKeptEntryId: firstKept.id,
		messagesToSummarize,
		turnPrefixMessages,
		isSplitTurn: cut.isSplitTurn,
		tokensBefore,
		...(previous ? { previousSummary: previous.summary } : {}),
		fileOps,
		settings,
	};
}

function isFailedReply(entry: SessionEntry): boolean {
	return (
		entry.type === "message" &&
		entry.message.role === "assistant" &&
		(entry.message.stopReason === "error" || entry.message.stopReason === "aborted")
	);
}

/** The summarizer's user message: the transcript, the previous summary when updating, then the instructions. */
export function buildSummaryRequestText(
	messages: readonly AgentMessage[],
	instructions: string,
	previousSummary?: string,
): string {
	let text = `<conversation>\n${serializeConversation(messages)}\n</conversation>\n\n`;
	if (previousSummary !== undefined) text += `<previous-summary>\n${previousSummary}\n</previous-summary>\n\n`;
	return text + instructions;
}

/** The text of a summarizer reply; throws `<failurePrefix>: <reason>` when the request failed. */
async function requestSummary(
	model: Model,
	text: string,
	options: SimpleStreamOptions,
	failurePrefix: string,
	streamFn: StreamFn,
): Promise<string> {
	const context = {
		systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
		messages: [{ role: "user" as const, content: [{ type: "text" as const, text }], timestamp: Date.now() }],
	};
	let response: AssistantMessage;
	try {
		response = await (await streamFn(model, context, options)).result();
	} catch (error) {
		throw new Error(`${failurePrefix}: ${error instanceof Error ? error.message : String(error)}`);
	}
	if (response.stopReason === "error" || response.stopReason === "aborted") {
		throw new Error(`${failurePrefix}: ${response.errorMessage || "Unknown error"}`);
	}
	const summary = response.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	// Ours: an empty summary would replace the whole history with nothing; refuse it like a failed request.
	if (!summary.trim()) throw new Error(`${failurePrefix}: the model returned an empty summary`);
	return summary;
}

/** Summarizes history into the structured checkpoint, updating `previousSummary` when given. */
export function generateSummary(
	messages: readonly AgentMessage[],
	model: Model,
	reserveTokens: number,
	apiKey: string | undefined,
	signal?: AbortSignal,
	customInstructions?: string,
	previousSummary?: string,
	options: SummaryRequestOptions = {},
): Promise<string> {
	let instructions = previousSummary !== undefined ? UPDATE_SUMMARIZATION_PROMPT : SUMMARIZATION_PROMPT;
	if (customInstructions) instructions += `\n\nAdditional focus: ${customInstructions}`;
	const text = buildSummaryRequestText(messages, instructions, previousSummary);
	const requestOptions: SimpleStreamOptions = { maxTokens: Math.floor(0.8 * reserveTokens), apiKey, signal };
	if (model.reasoning) requestOptions.reasoning = "high";
	return requestSummary(model, text, requestOptions, "Summarization failed", options.streamFn ?? streamSimple);
}

function generateTurnPrefixSummary(
	messages: readonly AgentMessage[],
	model: Model,
	reserveTokens: number,
	apiKey: string | undefined,
	signal: AbortSignal | undefined,
	streamFn: StreamFn,
): Promise<string> {
	const text = buildSummaryRequestText(messages, TURN_PREFIX_SUMMARIZATION_PROMPT);
	const requestOptions: SimpleStreamOptions = { maxTokens: Math.floor(0.5 * reserveTokens), apiKey, signal };
	return requestSummary(model, text, requestOptions, "Turn prefix summarization failed", streamFn);
}

/**
 * Asks the model for the summary of a prepared compaction. A split turn's prefix is summarized in a second,
 * parallel request. The read and modified files (cumulative across compactions) are appended to the summary
 * and returned as `details`.
 */
export async function compact(
	preparation: CompactionPreparation,
	model: Model,
	apiKey: string | undefined,
	customInstructions?: string,
	signal?: AbortSignal,
	options: SummaryRequestOptions = {},
): Promise<CompactionResult<CompactionDetails>> {
	const { reserveTokens } = preparation.settings;
	const streamFn = options.streamFn ?? streamSimple;
	const summarizeHistory = () =>
		generateSummary(
			preparation.messagesToSummarize,
			model,
			reserveTokens,
			apiKey,
			signal,
			customInstructions,
			preparation.previousSummary,
			{ streamFn },
		);
	let summary: string;
	if (preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0) {
		const [history, prefix] = await Promise.all([
			preparation.messagesToSummarize.length > 0
				? summarizeHistory()
				: // Ours: the reference wrote "No prior history." here even after an earlier compaction, dropping
					// that summary; it is still the history before this turn.
					Promise.resolve(preparation.previousSummary ?? NO_PRIOR_HISTORY),
			generateTurnPrefixSummary(preparation.turnPrefixMessages, model, reserveTokens, apiKey, signal, streamFn),
		]);
		summary = `${history}\n\n---\n\n**Turn Context (split turn):**\n\n${prefix}`;
	} else {
		summary = await summarizeHistory();
	}
	const details = computeFileLists(preparation.fileOps);
	summary += formatFileOperations(details.readFiles, details.modifiedFiles);
	return { summary, firstKeptEntryId: preparation.firstKeptEntryId, tokensBefore: preparation.tokensBefore, details };
}
