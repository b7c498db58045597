export interface EditorSnapshot {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

/**
 * What an edit was, for undo grouping: consecutive "word" edits (typing word characters) form one
 * undo step, as do consecutive deletions in the same direction; every other edit is its own step.
 */
export type EditKind = "word" | "space" | "delete-backward" | "delete-forward" | "other";

const MAX_SNAPSHOTS = 200;
const COALESCING_KINDS = new Set<EditKind>(["word", "delete-backward", "delete-forward"]);

export class UndoStack {
	private readonly snapshots: EditorSnapshot[] = [];
	private lastKind: EditKind | undefined;

	/** Call before an edit with the state before it; consecutive edits of a coalescing kind share one step. */
	record(before: EditorSnapshot, kind: EditKind): void {
		if (kind === this.lastKind && COALESCING_KINDS.has(kind)) return;
		this.snapshots.push({ lines: [...before.lines], cursorLine: before.cursorLine, cursorCol: before.cursorCol });
		if (this.snapshots.length > MAX_SNAPSHOTS) this.snapshots.shift();
		this.lastKind = kind;
	}

	/** Ends the current group (e.g. after the cursor moved). */
	breakGroup(): void {
		this.lastKind = undefined;
	}

	pop(): EditorSnapshot | undefined {
		this.lastKind = undefined;
		return this.snapshots.pop();
	}

	clear(): void {
		this.snapshots.length = 0;
		this.lastKind = undefined;
	}
}
