// The /tree navigator's rows, as pure functions of the session tree: entries depth-first with
// children oldest first; a chain of single children stays at one indent, each branch of a fork is drawn with
// ├─ / └─; filters hide entry kinds (their children move up to the nearest shown ancestor); folded branch
// starts hide what is under them; a search keeps rows containing every word.

import type { TreeFilterMode } from "../../../core/config/settings-schema.js";
import type { SessionEntry, SessionTreeNode } from "../../../core/session/entries.js";
import { shortenPath } from "../components/render-utils.js";

export const TREE_FILTER_MODES: readonly TreeFilterMode[] = ["default", "no-tools", "user-only", "labeled-only", "all"];

export interface TreeRow {
	entry: SessionEntry;
	label?: string;
	/** Gutter drawn before the entry (├─, └─, │ and spaces). */
	prefix: string;
	/** One-line description of the entry. */
	text: string;
	/** The entry starts a branch of a fork and has entries under it: it can be folded. */
	isFoldable: boolean;
	isFolded: boolean;
	/** On the path from the root to the current leaf. */
	isOnActivePath: boolean;
	isActiveLeaf: boolean;
	/** Starts a branch of a fork (for Ctrl+←/→ jumps). */
	isBranchStart: boolean;
}

function oneLine(text: string, max = 200): string {
	const collapsed = text.replace(/\s+/g, " ").trim();
	return collapsed.length > max ? `${collapsed.slice(0, max - 1)}…` : collapsed;
}

function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((block: { type?: string; text?: string }) =>
			block.type === "text" ? (block.text ?? "") : block.type === "image" ? "[image]" : "",
		)
		.join(" ");
}

/** A tool call as the tree names its result: what was called, not what came back. */
export interface ToolCallSummary {
	name: string;
	arguments: Record<string, unknown>;
}

function argText(args: Record<string, unknown>, ...names: string[]): string {
	for (const name of names) {
		const value = args[name];
		if (typeof value === "string" || typeof value === "number") return String(value);
	}
	return "";
}

/** `[bash: ls -la]`, `[read: src/a.ts:10-29]`, `[grep: /TODO/ in src]`, `[my_tool: {"x":1}]`. */
export function describeToolCall(call: ToolCallSummary): string {
	const args = call.arguments;
	const path = (fallback = "") => shortenPath(argText(args, "path", "file_path") || fallback);
	switch (call.name) {
		case "bash": {
			const command = oneLine(argText(args, "command"), 1000);
			return `[bash: ${command.length > 50 ? `${command.slice(0, 50)}...` : command}]`;
		}
		case "read": {
			const offset = typeof args.offset === "number" ? args.offset : undefined;
			const limit = typeof args.limit === "number" ? args.limit : undefined;
			let range = "";
			if (offset !== undefined || limit !== undefined) {
				const start = offset ?? 1;
				range = limit !== undefined ? `:${start}-${start + limit - 1}` : `:${start}`;
			}
			return `[read: ${path()}${range}]`;
		}
		case "edit":
		case "write":
			return `[${call.name}: ${path()}]`;
		case "grep":
			return `[grep: /${argText(args, "pattern")}/ in ${path(".")}]`;
		case "find":
			return `[find: ${argText(args, "pattern")} in ${path(".")}]`;
		case "ls":
			return `[ls: ${path(".")}]`;
		default: {
			const json = JSON.stringify(args) ?? "";
			return `[${call.name}: ${json.length > 40 ? `${json.slice(0, 40)}...` : json}]`;
		}
	}
}

/** Every tool call in the tree by id, so a result can be named by its call. */
export function collectToolCalls(roots: readonly SessionTreeNode[]): Map<string, ToolCallSummary> {
	const calls = new Map<string, ToolCallSummary>();
	const stack = [...roots];
	while (stack.length > 0) {
		const node = stack.pop() as SessionTreeNode;
		const entry = node.entry;
		if (entry.type === "message" && entry.message.role === "assistant") {
			for (const block of entry.message.content) {
				if (block.type === "toolCall") calls.set(block.id, { name: block.name, arguments: block.arguments });
			}
		}
		for (const child of node.children) stack.push(child);
	}
	return calls;
}

/** How an entry reads in the tree; tool results are named by their call when `toolCalls` has it. */
export function describeEntry(entry: SessionEntry, toolCalls?: ReadonlyMap<string, ToolCallSummary>): string {
	switch (entry.type) {
		case "message": {
			const message = entry.message;
			switch (message.role) {
				case "user":
					return `user: ${oneLine(contentText(message.content))}`;
				case "assistant": {
					const text = message.content
						.filter((block) => block.type === "text")
						.map((block) => block.text)
						.join(" ");
					if (message.stopReason === "error") return `assistant: [error] ${oneLine(message.errorMessage ?? text)}`;
					if (message.stopReason === "aborted" && !text.trim()) return "assistant: [aborted]";
					if (text.trim()) return `assistant: ${oneLine(text)}`;
					const tools = message.content.filter((block) => block.type === "toolCall").map((block) => block.name);
					return tools.length > 0 ? `assistant: [calls ${tools.join(", ")}]` : "assistant: (no text)";
				}
				case "toolResult": {
					// Named by the call (`[bash: ls -la]`), not by its output: that is what one looks for to branch.
					const call = toolCalls?.get(message.toolCallId);
					const label = call ? describeToolCall(call) : `[${message.toolName}]`;
					return message.isError ? `${label} (error)` : label;
				}
				case "bashExecution":
					return `${message.excludeFromContext ? "!!" : "!"}${message.command}`;
				case "custom":
					return `[${message.customType}] ${oneLine(contentText(message.content))}`;
				default:
					return `[${message.role}]`;
			}
		}
		case "custom_message":
			return `[${entry.customType}] ${oneLine(contentText(entry.content))}`;
		case "compaction":
			return `[compaction: ${Math.round(entry.tokensBefore / 1000)}k tokens]`;
		case "branch_summary":
			return `[branch summary] ${oneLine(entry.summary)}`;
		case "model_change":
			return `[model: ${entry.provider}/${entry.modelId}]`;
		case "thinking_level_change":
			return `[thinking: ${entry.thinkingLevel}]`;
		case "custom":
			return `[custom: ${entry.customType}]`;
		case "label":
			return `[label: ${entry.label ?? "(removed)"}]`;
		case "session_info":
			return `[name: ${entry.name ?? ""}]`;
		case "permission_decision": {
			const how = entry.rule ? `${entry.decidedBy} ${entry.rule}` : entry.decidedBy;
			const scope = entry.scope && entry.scope !== "once" ? ` (${entry.scope})` : "";
			return `[permission: ${entry.decision} ${oneLine(entry.subject ?? entry.toolName, 120)} — ${how}${scope}]`;
		}
		case "file_checkpoint": {
			const isDir = (state: (typeof entry.files)[number]["after"]) => state !== null && "dir" in state;
			const files = entry.files.filter((file) => !isDir(file.before) && !isDir(file.after));
			const names = files.map((file) => file.path);
			const shown = names.length > 3 ? `${names.slice(0, 3).join(", ")} +${names.length - 3}` : names.join(", ");
			return `[files ${entry.source === "restore" ? "restored" : "changed"}: ${shown}]`;
		}
		default:
			return `[${(entry as { type: string }).type}]`;
	}
}

function isUserEntry(entry: SessionEntry): boolean {
	return entry.type === "message" && entry.message.role === "user";
}

/** Whether `filter` shows the entry. */
export function isEntryShown(entry: SessionEntry, filter: TreeFilterMode, label: string | undefined): boolean {
	switch (filter) {
		case "all":
			return true;
		case "user-only":
			return isUserEntry(entry);
		case "labeled-only":
			return label !== undefined && label !== "";
		default: {
			if (entry.type === "label" || entry.type === "custom" || entry.type === "file_checkpoint") return false;
			// Permission decisions: the refusals and the answers are shown; calls that simply ran are not.
			if (entry.type === "permission_decision") {
				return filter !== "no-tools" && (entry.decision === "deny" || entry.decidedBy === "user");
			}
			if (entry.type === "model_change" || entry.type === "thinking_level_change") return false;
			if (entry.type === "message") {
				const message = entry.message;
				if (message.role === "assistant") {
					const hasText = message.content.some((block) => block.type === "text" && block.text.trim() !== "");
					if (!hasText && message.stopReason !== "error" && message.stopReason !== "aborted") return false;
				}
				if (filter === "no-tools" && message.role === "toolResult") return false;
			}
			return true;
		}
	}
}

interface ShownNode {
	node: SessionTreeNode;
	children: ShownNode[];
}

/** The tree with hidden entries removed; their children take their place. */
function shownForest(nodes: readonly SessionTreeNode[], filter: TreeFilterMode): ShownNode[] {
	const result: ShownNode[] = [];
	// Iterative to survive very deep chains (a 5,000-message session is a 5,000-deep chain).
	const stack: { nodes: readonly SessionTreeNode[]; index: number; out: ShownNode[] }[] = [
		{ nodes, index: 0, out: result },
	];
	while (stack.length > 0) {
		const frame = stack[stack.length - 1];
		if (frame.index >= frame.nodes.length) {
			stack.pop();
			continue;
		}
		const node = frame.nodes[frame.index++];
		if (isEntryShown(node.entry, filter, node.label)) {
			const shown: ShownNode = { node, children: [] };
			frame.out.push(shown);
			stack.push({ nodes: node.children, index: 0, out: shown.children });
		} else {
			stack.push({ nodes: node.children, index: 0, out: frame.out });
		}
	}
	return result;
}

export interface TreeRowOptions {
	filter: TreeFilterMode;
	activePath: ReadonlySet<string>;
	leafId: string | null;
	folded: ReadonlySet<string>;
}

/** Every row of the tree for the filter, folding applied. */
export function buildTreeRows(roots: readonly SessionTreeNode[], options: TreeRowOptions): TreeRow[] {
	const rows: TreeRow[] = [];
	const forest = shownForest(roots, options.filter);
	const toolCalls = collectToolCalls(roots);
	type Frame = { node: ShownNode; first: string; rest: string; isBranchStart: boolean };
	const stack: Frame[] = [];
	const pushChildren = (children: ShownNode[], rest: string, forceBranches: boolean) => {
		const branching = forceBranches || children.length > 1;
		for (let i = children.length - 1; i >= 0; i--) {
			const isLast = i === children.length - 1;
			stack.push({
				node: children[i],
				first: branching ? rest + (isLast ? "└─ " : "├─ ") : rest,
				rest: branching ? rest + (isLast ? "   " : "│  ") : rest,
				isBranchStart: branching,
			});
		}
	};
	pushChildren(forest, "", forest.length > 1);
	while (stack.length > 0) {
		const { node, first, rest, isBranchStart } = stack.pop() as Frame;
		const entry = node.node.entry;
		const isFoldable = isBranchStart && node.children.length > 0;
		const isFolded = isFoldable && options.folded.has(entry.id);
		rows.push({
			entry,
			...(node.node.label ? { label: node.node.label } : {}),
			prefix: first,
			text: describeEntry(entry, toolCalls),
			isFoldable,
			isFolded,
			isOnActivePath: options.activePath.has(entry.id),
			isActiveLeaf: entry.id === options.leafId,
			isBranchStart,
		});
		if (!isFolded) pushChildren(node.children, rest, false);
	}
	return rows;
}

/** Rows whose text or label contains every space-separated word of `query` (case-insensitive). */
export function searchTreeRows(rows: readonly TreeRow[], query: string): TreeRow[] {
	const words = query.toLowerCase().split(/\s+/).filter(Boolean);
	if (words.length === 0) return [...rows];
	return rows.filter((row) => {
		const haystack = `${row.text} ${row.label ?? ""}`.toLowerCase();
		return words.every((word) => haystack.includes(word));
	});
}

/** Ids from the root to `leafId`. */
export function activePathIds(branch: readonly SessionEntry[]): Set<string> {
	return new Set(branch.map((entry) => entry.id));
}
