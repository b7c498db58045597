// Public API of core/session (re-exported by the package index).

// The coding agent's message kinds (bashExecution, custom, branchSummary, compactionSummary) and convertToLlm.
export * from "../messages.js";
export type {
	BranchSummaryEntry,
	CompactionEntry,
	CustomEntry,
	CustomMessageEntry,
	FileCheckpointChange,
	FileCheckpointEntry,
	FileCheckpointSource,
	FileCheckpointState,
	FileEntry,
	LabelEntry,
	ModelChangeEntry,
	PermissionDecision,
	PermissionDecisionEntry,
	SessionContext,
	SessionEntry,
	SessionEntryBase,
	SessionEntryType,
	SessionFileDiagnostic,
	SessionHeader,
	SessionInfo,
	SessionInfoEntry,
	SessionMessageEntry,
	SessionTreeNode,
	ThinkingLevelChangeEntry,
	UnknownSessionEntry,
} from "./entries.js";
export { CURRENT_SESSION_VERSION, isKnownEntryType } from "./entries.js";
export { migrateSessionEntries, migrateSessionRecords, sessionVersionOf } from "./migrations.js";
export { buildSessionContext, entryToContextMessage } from "./session-context.js";
export {
	createSessionHeader,
	generateEntryId,
	isSessionHeader,
	loadEntriesFromFile,
	type ParsedSessionText,
	parseSessionEntries,
	parseSessionText,
	type SessionFileRecord,
	serializeFileEntry,
	sessionFileName,
} from "./session-file.js";
export { forkBodyOf } from "./session-fork.js";
export {
	findMostRecentSession,
	listAllSessions,
	listSessionsInDir,
	noSessionFoundMessage,
	resolveSessionArgument,
	type SessionArgumentResolution,
} from "./session-listing.js";
export {
	formatSessionFileDiagnostic,
	type LoadedSessionText,
	loadSessionText,
	SessionFileFormatError,
} from "./session-loader.js";
export { type NewSessionOptions, SessionManager, type StorableMessage } from "./session-manager.js";
export { encodeSessionDirName, getDefaultSessionDir, getSessionDirForCwd } from "./session-paths.js";
export { collectAllMessagesText, summarizeSessionFile } from "./session-summary.js";
export {
	buildSessionTree,
	collectLabels,
	findSessionName,
	getBranchPath,
	getLatestCompactionEntry,
	indexEntries,
} from "./session-tree.js";
export { lockPathFor, SessionLockedError, type SessionPersistenceError } from "./session-writer.js";
