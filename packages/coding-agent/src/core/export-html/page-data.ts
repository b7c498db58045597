// The session as the page script reads it: every entry of every branch, in tree order, and its rendered block.
// The page embeds the nodes as JSON and the blocks in compressed segments; the script builds the tree, the branch
// path, search and filters from the nodes, and inflates and inserts the blocks of the entries it shows.
//
// Blocks are most of a page. Compressed, the browser reads and parses a tenth of the bytes, base64 cannot interfere
// with the HTML around it, and a page opens by inflating only the segments of the entries it first shows.
import { gzipSync } from "node:zlib";
import type { SessionTreeNode } from "../session/entries.js";
import { type EntryKind, outlineEntry } from "./entry-outline.js";
import { joinEntryBlocks } from "./html-text.js";
import { type EntryRenderContext, renderEntry } from "./render-entry.js";
import type { SessionView } from "./session-view.js";
import { asNumber, asRecord } from "./untrusted.js";

/** One entry. Short keys: a 5,000-entry session repeats them 5,000 times. */
export interface PageNode {
	/** Index of the parent in `PageData.nodes`, -1 for a root. Parents come before their children. */
	p: number;
	id: string;
	k: EntryKind;
	/** ENTRY_FLAGS bits. */
	f: number;
	/** Tree row: title and one-line preview (plain text). */
	t: string;
	s: string;
	/** Label, when the entry has one. */
	l?: string;
	/** Whether the entry has a block in the transcript (unknown kinds have none). */
	b: 0 | 1;
	/** Usage of an assistant message: input, output, cache read, cache write tokens, cost. */
	u?: [number, number, number, number, number];
}

export interface PageData {
	/** Pre-order, siblings oldest first (children sorted by timestamp, as in `/tree`). */
	nodes: PageNode[];
	/** Index of the entry the page opens on (the file's last entry, or a live session's leaf); -1 for none. */
	leaf: number;
}

/** Nodes per segment of entry blocks. */
export const SEGMENT_SIZE = 100;

export interface PageContent {
	data: PageData;
	/**
	 * The nodes' blocks in the transcript (HTML; all session text in it escaped), SEGMENT_SIZE nodes per segment:
	 * each segment's blocks joined by ENTRY_SEPARATOR, gzipped, base64.
	 */
	segments: string[];
}

function compressSegment(blocks: readonly string[]): string {
	return gzipSync(Buffer.from(joinEntryBlocks(blocks), "utf8"), { level: 3 }).toString("base64");
}

function usageOf(node: SessionTreeNode): PageNode["u"] {
	if (node.entry.type !== "message") return undefined;
	const message = asRecord(node.entry.message);
	if (message?.role !== "assistant") return undefined;
	const usage = asRecord(message.usage);
	const number = (value: unknown) => asNumber(value) ?? 0;
	return [
		number(usage?.input),
		number(usage?.output),
		number(usage?.cacheRead),
		number(usage?.cacheWrite),
		number(asRecord(usage?.cost)?.total),
	];
}

export function buildPageContent(view: SessionView): PageContent {
	const context: EntryRenderContext = { labels: view.labels, toolCalls: view.toolCalls };
	const nodes: PageNode[] = [];
	const segments: string[] = [];
	// Compressed as soon as a segment is complete, so the rendered text does not pile up in memory.
	let blocks: string[] = [];
	let leaf = -1;
	// Iterative pre-order: a chain of thousands of entries must not overflow the stack.
	const stack: { node: SessionTreeNode; parent: number }[] = [];
	for (let i = view.roots.length - 1; i >= 0; i--) stack.push({ node: view.roots[i] as SessionTreeNode, parent: -1 });
	while (stack.length > 0) {
		const { node, parent } = stack.pop() as { node: SessionTreeNode; parent: number };
		const index = nodes.length;
		const { entry } = node;
		const outline = outlineEntry(entry, view.toolCalls);
		const block = renderEntry(entry, context);
		blocks.push(block);
		if (blocks.length === SEGMENT_SIZE) {
			segments.push(compressSegment(blocks));
			blocks = [];
		}
		const pageNode: PageNode = {
			p: parent,
			id: entry.id,
			k: outline.kind,
			f: outline.flags,
			t: outline.title,
			s: outline.preview,
			b: block === "" ? 0 : 1,
		};
		const label = view.labels.get(entry.id);
		if (label !== undefined) pageNode.l = label;
		const usage = usageOf(node);
		if (usage) pageNode.u = usage;
		nodes.push(pageNode);
		if (entry.id === view.leafId) leaf = index;
		for (let i = node.children.length - 1; i >= 0; i--) {
			stack.push({ node: node.children[i] as SessionTreeNode, parent: index });
		}
	}
	if (blocks.length > 0) segments.push(compressSegment(blocks));
	return { data: { nodes, leaf }, segments };
}
