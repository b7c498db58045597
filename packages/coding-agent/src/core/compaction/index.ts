// Public API of core/compaction (re-exported by the package index).
export {
	type BranchEntries,
	type BranchPreparation,
	type BranchSource,
	type BranchSummaryResult,
	type CollectEntriesResult,
	collectEntriesForBranchSummary,
	type GenerateBranchSummaryOptions,
	generateBranchSummary,
	NO_CONTENT_TO_SUMMARIZE,
	type PreparedBranchEntries,
	prepareBranchEntries,
} from "./branch-summarization.js";
export {
	buildSummaryRequestText,
	type CompactionPreparation,
	type CompactionResult,
	compact,
	generateSummary,
	type PrepareCompactionOptions,
	prepareCompaction,
	type SummaryRequestOptions,
} from "./compaction.js";
export {
	type CutPointResult,
	findCutPoint,
	findProgressCutPoint,
	findTurnStartIndex,
	findValidCutPoints,
	isValidCutPoint,
	messageOfEntry,
	messagesOfEntries,
} from "./cut-point.js";
export {
	type CompactionDetails,
	collectFileOperations,
	computeFileLists,
	createFileOperations,
	type FileOperations,
	formatFileOperations,
	isCompactionDetails,
	seedFileOperations,
} from "./file-operations.js";
export {
	type ContextOverflowLimits,
	compactionSettingsForWindow,
	type OverflowCompactionInput,
	type OverflowCompactionPlan,
	parseContextOverflowLimits,
	planOverflowCompaction,
} from "./overflow-recovery.js";
export {
	BRANCH_SUMMARY_PREAMBLE,
	BRANCH_SUMMARY_PROMPT,
	NO_PRIOR_HISTORY,
	SUMMARIZATION_PROMPT,
	SUMMARIZATION_SYSTEM_PROMPT,
	TURN_PREFIX_SUMMARIZATION_PROMPT,
	UPDATE_SUMMARIZATION_PROMPT,
} from "./prompts.js";
export { serializeConversation, TOOL_RESULT_SERIALIZATION_LIMIT } from "./serialization.js";
export {
	type ContextTokenEstimate,
	calculateContextTokens,
	DEFAULT_COMPACTION_SETTINGS,
	estimateContextTokens,
	estimateTokens,
	getLastAssistantUsage,
	hasUsableUsage,
	IMAGE_CHAR_ESTIMATE,
	shouldCompact,
} from "./token-estimation.js";
