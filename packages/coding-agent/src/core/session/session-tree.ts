// The entry tree (docs/session-format.md "The tree"): paths, labels, names and the `/tree` view. Pure functions.
import type { CompactionEntry, SessionEntry, SessionTreeNode } from "./entries.js";

/** id → entry; a later line with the same id wins (files duplicated by the reference's lazy flush). */
export function indexEntries(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
	const byId = new Map<string, SessionEntry>();
	for (const entry of entries) byId.set(entry.id, entry);
	return byId;
}

/**
 * Entries from the root to `leafId`, root first. The walk stops at a null or missing parent, and at an entry
 * already visited (a self-parent or a cycle in a hand-edited file), so it always terminates.
 */
export function getBranchPath(
	byId: ReadonlyMap<string, SessionEntry>,
	leafId: string | null | undefined,
): SessionEntry[] {
	const path: SessionEntry[] = [];
	if (leafId === null || leafId === undefined) return path;
	// A path longer than the number of entries must repeat one: only then is the slower, exact walk needed.
	let current = byId.get(leafId);
	while (current) {
		path.push(current);
		if (path.length > byId.size) return walkUntilRepeat(byId, leafId);
		current = current.parentId === null ? undefined : byId.get(current.parentId);
	}
	return path.reverse();
}

function walkUntilRepeat(byId: ReadonlyMap<string, SessionEntry>, leafId: string): SessionEntry[] {
	const path: SessionEntry[] = [];
	const visited = new Set<string>();
	let current = byId.get(leafId);
	while (current && !visited.has(current.id)) {
		visited.add(current.id);
		path.push(current);
		current = current.parentId === null ? undefined : byId.get(current.parentId);
	}
	return path.reverse();
}

/** Effective label per entry: the last label entry for it in file order; an empty or missing label clears it. */
export function collectLabels(entries: readonly SessionEntry[]): Map<string, string> {
	const labels = new Map<string, string>();
	for (const entry of entries) {
		if (entry.type !== "label") continue;
		if (entry.label) labels.set(entry.targetId, entry.label);
		else labels.delete(entry.targetId);
	}
	return labels;
}

/** The `name` of the last `session_info` entry in file order with a non-empty name, trimmed. */
export function findSessionName(entries: readonly SessionEntry[]): string | undefined {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i];
		if (entry?.type !== "session_info") continue;
		const name = typeof entry.name === "string" ? entry.name.trim() : "";
		if (name) return name;
	}
	return undefined;
}

/**
 * The whole tree for `/tree`: roots are entries with a null, self-referencing or missing parent; children are
 * sorted by timestamp (stable for equal timestamps). Built iteratively, so deep sessions cannot overflow the stack.
 */
export function buildSessionTree(
	entries: readonly SessionEntry[],
	labels: ReadonlyMap<string, string> = collectLabels(entries),
): SessionTreeNode[] {
	const byId = indexEntries(entries);
	const nodes = new Map<string, SessionTreeNode>();
	for (const entry of byId.values()) {
		const node: SessionTreeNode = { entry, children: [] };
		const label = labels.get(entry.id);
		if (label !== undefined) node.label = label;
		nodes.set(entry.id, node);
	}
	const roots: SessionTreeNode[] = [];
	for (const node of nodes.values()) {
		const { id, parentId } = node.entry;
		const parent = parentId !== null && parentId !== id ? nodes.get(parentId) : undefined;
		if (parent) parent.children.push(node);
		else roots.push(node);
	}
	adoptCycles(nodes, roots);
	const byTime = (a: SessionTreeNode, b: SessionTreeNode) =>
		a.entry.timestamp < b.entry.timestamp ? -1 : a.entry.timestamp > b.entry.timestamp ? 1 : 0;
	for (const node of nodes.values()) if (node.children.length > 1) node.children.sort(byTime);
	roots.sort(byTime);
	return roots;
}

/** Entries caught in a parent cycle (only in hand-edited files) are unreachable from any root: make them roots. */
function adoptCycles(nodes: ReadonlyMap<string, SessionTreeNode>, roots: SessionTreeNode[]): void {
	const reached = new Set<SessionTreeNode>();
	const visit = (start: SessionTreeNode) => {
		const stack = [start];
		while (stack.length > 0) {
			const node = stack.pop() as SessionTreeNode;
			if (reached.has(node)) continue;
			reached.add(node);
			stack.push(...node.children);
		}
	};
	for (const root of roots) visit(root);
	if (reached.size === nodes.size) return;
	for (const node of nodes.values()) {
		if (reached.has(node)) continue;
		// Detach it from its cyclic parent so it is listed once, as a root.
		const parent = node.entry.parentId === null ? undefined : nodes.get(node.entry.parentId);
		if (parent) parent.children = parent.children.filter((child) => child !== node);
		roots.push(node);
		visit(node);
	}
}

/** The entry's direct children, in file order. */
export function getChildEntries(entries: readonly SessionEntry[], parentId: string): SessionEntry[] {
	return entries.filter((entry) => entry.parentId === parentId && entry.id !== parentId);
}

/** The last compaction among `entries` (a branch, oldest first), or null when there is none. */
export function getLatestCompactionEntry(entries: readonly SessionEntry[]): CompactionEntry | null {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i] as SessionEntry;
		if (entry.type === "compaction") return entry;
	}
	return null;
}
