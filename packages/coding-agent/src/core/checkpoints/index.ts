// Public API of core/checkpoints (re-exported by the package index; docs/checkpoints.md).
export { checkpointStoreDirFor, removeCheckpointStore } from "./checkpoint-paths.js";
export { type CommandRecorder, SessionCheckpoints, storeFullNotice } from "./session-checkpoints.js";
export type {
	CheckpointSummary,
	FileChangeKind,
	FileRestoreOptions,
	FileRestoreResult,
	UndoResult,
} from "./types.js";
