// The conversation: the current branch top to bottom; where other branches leave it, a fork block holds them,
// each collapsed (plain <details>, so no script is needed) and rendered the same way, recursively.
// The walk uses an explicit work stack: every entry is rendered once, and deep or heavily forked trees cannot
// overflow the call stack.
import type { SessionTreeNode } from "../session/entries.js";
import { escapeHtml } from "./html-text.js";
import { describeEntry, type EntryRenderContext, entryAnchor, renderEntry } from "./render-entry.js";
import type { SessionView } from "./session-view.js";

type Work = { kind: "chain"; node: SessionTreeNode; onCurrentBranch: boolean } | { kind: "html"; html: string };

function plural(count: number, singular: string, pluralForm: string): string {
	return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Work items for a fork, in stack order (the last pushed runs first). */
function pushFork(
	stack: Work[],
	view: SessionView,
	forkId: string,
	alternatives: readonly SessionTreeNode[],
	continuation: Work | undefined,
	where: string,
): void {
	if (continuation) stack.push(continuation);
	stack.push({ kind: "html", html: "</div>" });
	for (let i = alternatives.length - 1; i >= 0; i--) {
		const node = alternatives[i] as SessionTreeNode;
		const size = view.subtreeSizes.get(node) ?? 1;
		stack.push({ kind: "html", html: "</div></details>" });
		stack.push({ kind: "chain", node, onCurrentBranch: false });
		stack.push({
			kind: "html",
			html:
				`<details class="branch"><summary>${escapeHtml(describeEntry(node.entry))} ` +
				`<span class="muted">(${plural(size, "entry", "entries")})</span></summary><div class="branch-body">`,
		});
	}
	const count = continuation
		? plural(alternatives.length, "other branch", "other branches")
		: plural(alternatives.length, "branch", "branches");
	stack.push({
		kind: "html",
		html: `<div class="fork" id="fork-${escapeHtml(forkId)}"><div class="fork-head">⑂ ${count} ${where}</div>`,
	});
}

/** Appends the transcript's HTML parts to `parts`, in reading order. */
export function renderTranscript(view: SessionView, parts: string[]): void {
	const context: EntryRenderContext = { labels: view.labels, toolCalls: view.toolCalls };
	const stack: Work[] = [];
	const currentRoot = view.roots.find((root) => view.currentIds.has(root.entry.id));
	const continuation: Work | undefined = currentRoot
		? { kind: "chain", node: currentRoot, onCurrentBranch: true }
		: undefined;
	const otherRoots = view.roots.filter((root) => root !== currentRoot);
	if (otherRoots.length > 0) pushFork(stack, view, "start", otherRoots, continuation, "from the start");
	else if (continuation) stack.push(continuation);

	while (stack.length > 0) {
		const work = stack.pop() as Work;
		if (work.kind === "html") {
			parts.push(work.html);
			continue;
		}
		let node = work.node;
		const onCurrentBranch = work.onCurrentBranch;
		for (;;) {
			parts.push(renderEntry(node.entry, context));
			const children = node.children;
			if (children.length === 0) break;
			// On the current branch the path goes on; elsewhere the newest child does, and older ones fork off.
			const next = onCurrentBranch
				? children.find((child) => view.currentIds.has(child.entry.id))
				: children[children.length - 1];
			if (children.length === 1 && next) {
				node = next;
				continue;
			}
			const alternatives = children.filter((child) => child !== next);
			const nextWork: Work | undefined = next ? { kind: "chain", node: next, onCurrentBranch } : undefined;
			const where = next ? `from <a href="#${entryAnchor(node.entry.id)}">here</a>` : "continue from here";
			pushFork(stack, view, node.entry.id, alternatives, nextWork, where);
			break;
		}
	}
}
