// Public API of the settings modules (re-exported by core/config/index.ts).
export { parseSettingsText, serializeSettings } from "./settings-file.js";
export {
	DEFAULT_BASH_MEMORY_BYTES,
	DEFAULT_BASH_OUTPUT_FILE_BYTES,
	DEFAULT_BRANCH_SUMMARY_RESERVE_TOKENS,
	DEFAULT_CODE_BLOCK_INDENT,
	DEFAULT_COMPACTION_KEEP_RECENT_TOKENS,
	DEFAULT_COMPACTION_RESERVE_TOKENS,
	DEFAULT_CONTEXT_FILE_BYTES,
	DEFAULT_PARALLEL_TOOL_CALLS,
	DEFAULT_REPLY_MAX_BYTES,
	DEFAULT_REPLY_TIMEOUT_MS,
	DEFAULT_RETRY_BASE_DELAY_MS,
	DEFAULT_RETRY_MAX_DELAY_MS,
	DEFAULT_RETRY_MAX_RETRIES,
	detectThemeFromEnvironment,
	type Limits,
	type ResourceSettingsKey,
	SettingsManager,
	type SettingsManagerOptions,
} from "./settings-manager.js";
export { migrateLegacySettings } from "./settings-migrations.js";
export type {
	BranchSummarySettings,
	CompactionSettings,
	DoubleEscapeAction,
	ImageSettings,
	LimitsSettings,
	MarkdownSettings,
	PackageSource,
	QueueMode,
	RetrySettings,
	SettingNeedingTrust,
	Settings,
	TerminalSettings,
	ThinkingBudgetsSettings,
	TreeFilterMode,
} from "./settings-schema.js";
export { PROJECT_SETTINGS_NEEDING_TRUST } from "./settings-schema.js";
export {
	FileSettingsStorage,
	InMemorySettingsStorage,
	type SettingsScope,
	type SettingsStorage,
} from "./settings-storage.js";
export { formatSettingsWarning, type HeldBackSetting, mergeSettings, type SettingsError } from "./settings-store.js";
