// How a restore is told to a person, the same in every mode. Pure.
import type { FileRestoreResult } from "./types.js";

export const NOTHING_TO_UNDO_TEXT = "Nothing to undo: no turn of this branch changed files.";

/** "Restored a.txt, b.txt; deleted c.txt" (empty when nothing was written). */
export function restoreOutcomeText(result: FileRestoreResult): string {
	const parts: string[] = [];
	if (result.restored.length > 0) parts.push(`restored ${result.restored.join(", ")}`);
	if (result.removed.length > 0) parts.push(`deleted ${result.removed.join(", ")}`);
	const text = parts.join("; ");
	return text ? text.charAt(0).toUpperCase() + text.slice(1) : "";
}

export function unrestorableText(paths: readonly string[]): string {
	return `Not restored (their content was not kept, see checkpoints.maxFileBytes, or is no longer readable): ${paths.join(", ")}`;
}

export function conflictQuestion(conflicts: number): string {
	const files = conflicts === 1 ? "1 file" : `${conflicts} files`;
	return `${files} changed outside the agent since it last recorded ${conflicts === 1 ? "it" : "them"}. Overwrite?`;
}

/** Each conflicting file with what changed in it, at most `maxLines` lines of diff per file. */
export function conflictDetailsText(result: FileRestoreResult, maxLines = 40): string {
	return result.conflicts
		.map((path) => {
			const lines = (result.diffs?.find((item) => item.path === path)?.diff ?? "").split("\n");
			const shown = lines.length > maxLines ? [...lines.slice(0, maxLines), "…"] : lines;
			return `${path}\n${shown.join("\n")}`;
		})
		.join("\n\n");
}
