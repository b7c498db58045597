// Restoring files from the interactive mode (docs/checkpoints.md): the question `/tree` and `/fork` ask when
// files changed since the chosen point, the conflict dialog (the files and their diffs are shown above it), and
// `/undo`.
import {
	conflictDetailsText,
	conflictQuestion,
	NOTHING_TO_UNDO_TEXT,
	restoreOutcomeText,
	unrestorableText,
} from "../../../core/checkpoints/restore-text.js";
import type { FileRestoreResult } from "../../../core/checkpoints/types.js";
import type { DialogHost, NoticeHost, SessionHost, TranscriptHost } from "../mode-host.js";
import { selectDialog } from "../selectors/dialogs.js";

export const RESTORE_FILES_TITLE = "Restore files too?";
export const KEEP_FILES = "Keep files as they are";
export const OVERWRITE_FILES = "Overwrite them";
export const UNDO_BUSY_TEXT = "Wait for the agent to finish (or abort it) before /undo.";
export { NOTHING_TO_UNDO_TEXT };

export type FileRestoreChoice = { restoreFiles: false } | { restoreFiles: true; force: boolean };

function count(n: number, noun: string): string {
	return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** Files a restore would touch, in words ("2 files to restore, 1 to delete"). */
export function describeRestoreWork(result: FileRestoreResult): string {
	const parts: string[] = [];
	if (result.restored.length > 0) parts.push(`${count(result.restored.length, "file")} to restore`);
	if (result.removed.length > 0) parts.push(`${result.removed.length} to delete`);
	if (result.conflicts.length > 0) parts.push(`${result.conflicts.length} changed outside the agent`);
	return parts.join(", ");
}

export function restoreFilesOption(preview: FileRestoreResult): string {
	return `Restore files (${describeRestoreWork(preview)})`;
}

function hasWork(result: FileRestoreResult): boolean {
	return result.restored.length + result.removed.length + result.conflicts.length > 0;
}

/** Shows the conflicting files and what changed in each (the diff since the agent last recorded it). */
export function showConflicts(host: TranscriptHost, result: FileRestoreResult): void {
	host.transcript.showNotice("warning", `Changed outside the agent:\n\n${conflictDetailsText(result)}`);
}

/**
 * Asks whether to restore files along with a move (the preview is a dry run to that point), and past
 * conflicts whether to overwrite them. Undefined: the user went back (Esc).
 */
export async function askToRestoreFiles(
	host: DialogHost & TranscriptHost,
	preview: FileRestoreResult | undefined,
): Promise<FileRestoreChoice | undefined> {
	if (!preview || !hasWork(preview)) return { restoreFiles: false };
	const choice = await selectDialog(host, RESTORE_FILES_TITLE, [KEEP_FILES, restoreFilesOption(preview)]);
	if (choice === undefined) return undefined;
	if (choice === KEEP_FILES) return { restoreFiles: false };
	if (preview.conflicts.length === 0) return { restoreFiles: true, force: false };
	showConflicts(host, preview);
	const overwrite = await selectDialog(host, conflictQuestion(preview.conflicts.length), [
		KEEP_FILES,
		OVERWRITE_FILES,
	]);
	if (overwrite === undefined) return undefined;
	return overwrite === OVERWRITE_FILES ? { restoreFiles: true, force: true } : { restoreFiles: false };
}

/** Tells what a restore did ("Restored 2 files, deleted 1"), and which files could not be restored. */
export function reportRestore(host: NoticeHost, result: FileRestoreResult): void {
	const outcome = restoreOutcomeText(result);
	if (outcome) host.notify("info", outcome);
	if (result.unrestorable.length > 0) host.notify("warning", unrestorableText(result.unrestorable));
}

/** `/undo`: the files the last turn changed go back to how they were before it. */
export async function runUndo(host: NoticeHost & SessionHost & DialogHost & TranscriptHost): Promise<void> {
	const { session } = host;
	if (session.isStreaming) {
		host.notify("warning", UNDO_BUSY_TEXT);
		return;
	}
	try {
		const preview = session.undoFiles({ dryRun: true });
		if (preview.turnEntryId === undefined) {
			host.notify("info", NOTHING_TO_UNDO_TEXT);
			return;
		}
		let force = false;
		if (preview.conflicts.length > 0) {
			showConflicts(host, preview);
			const answer = await selectDialog(host, conflictQuestion(preview.conflicts.length), [
				KEEP_FILES,
				OVERWRITE_FILES,
			]);
			if (answer !== OVERWRITE_FILES) return;
			force = true;
		}
		const result = session.undoFiles({ force });
		reportRestore(host, result);
		if (!hasWork(result) && result.unrestorable.length === 0) host.notify("info", NOTHING_TO_UNDO_TEXT);
	} catch (error) {
		host.notify("error", error instanceof Error ? error.message : String(error));
	}
}
