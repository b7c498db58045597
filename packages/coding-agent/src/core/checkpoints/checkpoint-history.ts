// What the files were at any point of the session tree, from its `file_checkpoint` entries. Pure.
//
// A path's state at a point is the `after` of its latest change (highest `seq`) on the branch from the root to
// that point. A path no change on that branch touched is as it was before the agent first changed it: the
// `before` of its earliest change below the point (those saw the file as the point left it), else of its
// earliest change anywhere.
import type {
	FileCheckpointChange,
	FileCheckpointEntry,
	FileCheckpointState,
	SessionEntry,
} from "../session/entries.js";

export interface RecordedChange extends FileCheckpointChange {
	entryId: string;
}

export interface CheckpointHistory {
	/** Every path's changes, in `seq` order. */
	byPath: Map<string, RecordedChange[]>;
	/** Entry ids by parent id (null: roots). */
	children: Map<string | null, string[]>;
	parentOf: Map<string, string | null>;
	/** The highest `seq` recorded (0 without changes). */
	maxSeq: number;
}

export function isFileCheckpointEntry(entry: SessionEntry): entry is FileCheckpointEntry {
	return entry.type === "file_checkpoint" && Array.isArray((entry as FileCheckpointEntry).files);
}

export function readCheckpointHistory(entries: readonly SessionEntry[]): CheckpointHistory {
	const byPath = new Map<string, RecordedChange[]>();
	const children = new Map<string | null, string[]>();
	const parentOf = new Map<string, string | null>();
	let maxSeq = 0;
	for (const entry of entries) {
		parentOf.set(entry.id, entry.parentId);
		const siblings = children.get(entry.parentId);
		if (siblings) siblings.push(entry.id);
		else children.set(entry.parentId, [entry.id]);
		if (!isFileCheckpointEntry(entry)) continue;
		for (const change of entry.files) {
			if (typeof change?.path !== "string" || typeof change.seq !== "number") continue;
			const list = byPath.get(change.path);
			const recorded = { ...change, entryId: entry.id };
			if (list) list.push(recorded);
			else byPath.set(change.path, [recorded]);
			maxSeq = Math.max(maxSeq, change.seq);
		}
	}
	for (const list of byPath.values()) list.sort((a, b) => a.seq - b.seq);
	return { byPath, children, parentOf, maxSeq };
}

/** Ids from the root to `pointId` (none for null). */
function branchIds(history: CheckpointHistory, pointId: string | null): Set<string> {
	const ids = new Set<string>();
	let current = pointId;
	while (current !== null && !ids.has(current) && history.parentOf.has(current)) {
		ids.add(current);
		current = history.parentOf.get(current) ?? null;
	}
	return ids;
}

/** Ids of the entries under `pointId` (every entry for null). */
function descendantIds(history: CheckpointHistory, pointId: string | null): Set<string> {
	const ids = new Set<string>();
	const stack = [...(history.children.get(pointId) ?? [])];
	if (pointId === null) {
		// Orphans (a parent that is not in the file) are roots too.
		for (const [id, parent] of history.parentOf) if (parent !== null && !history.parentOf.has(parent)) stack.push(id);
	}
	while (stack.length > 0) {
		const id = stack.pop() as string;
		if (ids.has(id)) continue;
		ids.add(id);
		stack.push(...(history.children.get(id) ?? []));
	}
	return ids;
}

/** Every recorded path's state at `pointId` (null: before the first entry). */
export function statesAt(history: CheckpointHistory, pointId: string | null): Map<string, FileCheckpointState> {
	const onBranch = branchIds(history, pointId);
	let below: Set<string> | undefined;
	const states = new Map<string, FileCheckpointState>();
	for (const [path, changes] of history.byPath) {
		let latest: RecordedChange | undefined;
		for (const change of changes) if (onBranch.has(change.entryId)) latest = change;
		if (latest) {
			states.set(path, latest.after);
			continue;
		}
		below ??= descendantIds(history, pointId);
		const after = changes.find((change) => (below as Set<string>).has(change.entryId));
		states.set(path, (after ?? (changes[0] as RecordedChange)).before);
	}
	return states;
}

/** Every recorded path's state as the agent last saw it (its latest change anywhere). */
export function lastRecordedStates(history: CheckpointHistory): Map<string, FileCheckpointState> {
	const states = new Map<string, FileCheckpointState>();
	for (const [path, changes] of history.byPath)
		states.set(path, (changes[changes.length - 1] as RecordedChange).after);
	return states;
}
