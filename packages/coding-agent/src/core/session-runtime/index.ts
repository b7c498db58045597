// Public API of the session runtime (re-exported by the package index).
export {
	ALREADY_COMPACTED_TEXT,
	COMPACTION_CANCELLED_TEXT,
	COMPACTION_IN_PROGRESS_TEXT,
	NO_MODEL_SELECTED_TEXT,
	NOTHING_TO_COMPACT_TEXT,
	noApiKeyForProviderText,
	OVERFLOW_RECOVERY_FAILED_TEXT,
} from "./compaction-controller.js";
export type {
	AgentSessionEvent,
	AgentSessionEventListener,
	AutoCompactionReason,
	BashResult,
	ContextUsage,
	ForkOptions,
	ForkResult,
	InputSource,
	MessageDelivery,
	ModelCycleResult,
	ModelSelectSource,
	NavigateTreeOptions,
	NavigateTreeResult,
	NewSessionRequest,
	PromptOptions,
	SessionStats,
	SessionSwitchReason,
	SlashCommandInfo,
	TreePreparation,
} from "./events.js";
export { noApiKeyForModelText } from "./model-controller.js";
export {
	type ExpandedPrompt,
	expandPromptText,
	listSlashCommands,
	parseSlashCommand,
	parseUserBashCommand,
	type SlashCommandCall,
	type UserBashCommand,
} from "./prompt-input.js";
export { RETRY_CANCELLED_TEXT } from "./retry-controller.js";
export {
	isRetryableError,
	parseRetryAfterSeconds,
	planRetryDelay,
	RETRYABLE_ERROR_PATTERN,
	type RetryDelayPlan,
	type RetrySettingsValues,
} from "./retry-policy.js";
export { AUTO_CONTINUE_DELAY_MS } from "./session-event-pipeline.js";
export { entryNotFoundText, INVALID_FORK_ENTRY_TEXT, NO_SUMMARY_MODEL_TEXT } from "./session-navigation.js";
export { computeContextUsage, computeSessionStats } from "./session-stats.js";
export { DEFAULT_ACTIVE_TOOL_NAMES } from "./session-tools.js";
export { DEFAULT_STREAM_STALL_TIMEOUT_MS, streamStalledText, withStallWatchdog } from "./stall-watchdog.js";
export {
	clampThinkingLevel as clampThinkingLevelToAvailable,
	getAvailableThinkingLevels,
	THINKING_LEVELS,
} from "./thinking-levels.js";
export { createBashExecutionMessage, runUserBash, sanitizeCommandOutput } from "./user-bash.js";
