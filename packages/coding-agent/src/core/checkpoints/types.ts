// What file checkpoints answer (SDK, RPC, the interactive mode). Imports nothing of the layers that use it.
import type { FileCheckpointSource } from "../session/entries.js";

/**
 * The outcome of restoring files (or of a dry run): paths relative to the working directory (absolute for files
 * outside it). With conflicts and without `force`, nothing was written and `restored`/`removed` are empty.
 */
export interface FileRestoreResult {
	/** Written: recreated or given back their content. */
	restored: string[];
	/** Deleted: they did not exist at that point. */
	removed: string[];
	/** Changed outside the agent since it last recorded them. */
	conflicts: string[];
	/** Their content at that point was not kept (too large, store full) or is no longer readable: left as they are. */
	unrestorable: string[];
	/** For each conflict, what changed since the agent last recorded the file (a line diff; binary files say so). */
	diffs?: { path: string; diff: string }[];
}

export interface FileRestoreOptions {
	/** Only report what would be done. */
	dryRun?: boolean;
	/** Overwrite conflicting files too. */
	force?: boolean;
}

export type FileChangeKind = "created" | "modified" | "deleted";

/** One `file_checkpoint` entry of the current branch (RPC `get_checkpoints`). */
export interface CheckpointSummary {
	/** The checkpoint entry; restoring to it restores the files as they were right after these changes. */
	entryId: string;
	/** ISO-8601 time of the entry. */
	timestamp: string;
	source: FileCheckpointSource;
	toolCallIds?: string[];
	files: { path: string; change: FileChangeKind }[];
}

/** `/undo`: the files of the last turn that changed any, restored (or why not). */
export interface UndoResult extends FileRestoreResult {
	/** The user message whose turn was undone; undefined when there was nothing to undo. */
	turnEntryId?: string;
}
