import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import { type SessionEntry, SessionManager } from "../../src/core/session/index.js";
import { assistantMessage, toolResultMessage, userMessage, useTempDirs } from "../helpers/session-fixtures.js";
import { referenceContext, referenceLabels, referencePath } from "../helpers/session-reference.js";

type Operation =
	| { kind: "user" | "assistant" | "tool" | "custom" | "customMessage" | "name" | "model" | "reset" }
	| { kind: "thinking"; level: "off" | "low" | "high" }
	| { kind: "compaction"; pick: number; dangling: boolean }
	| { kind: "branch"; pick: number }
	| { kind: "branchSummary"; pick: number; toRoot: boolean; summary: string }
	| { kind: "label"; pick: number; label: string };

const operation: fc.Arbitrary<Operation> = fc.oneof(
	{ weight: 4, arbitrary: fc.constantFrom<Operation>({ kind: "user" }, { kind: "assistant" }, { kind: "tool" }) },
	fc.constantFrom<Operation>(
		{ kind: "custom" },
		{ kind: "customMessage" },
		{ kind: "name" },
		{ kind: "model" },
		{ kind: "reset" },
	),
	fc.record({
		kind: fc.constant("thinking" as const),
		level: fc.constantFrom("off" as const, "low" as const, "high" as const),
	}),
	fc.record({ kind: fc.constant("compaction" as const), pick: fc.nat(), dangling: fc.boolean() }),
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant("branch" as const), pick: fc.nat() }) },
	fc.record({
		kind: fc.constant("branchSummary" as const),
		pick: fc.nat(),
		toRoot: fc.boolean(),
		summary: fc.constantFrom("", "went elsewhere"),
	}),
	fc.record({ kind: fc.constant("label" as const), pick: fc.nat(), label: fc.constantFrom("", "checkpoint", "v2") }),
);

function apply(session: SessionManager, op: Operation, step: number): void {
	const entries = session.getEntries();
	const pickEntry = (pick: number) => entries[pick % entries.length] as SessionEntry;
	switch (op.kind) {
		case "user":
			session.appendMessage(userMessage(`user ${step}`));
			return;
		case "assistant":
			session.appendMessage(assistantMessage(`assistant ${step}`, { model: `m${step % 3}` }));
			return;
		case "tool":
			session.appendMessage(toolResultMessage(`result ${step}`));
			return;
		case "custom":
			session.appendCustomEntry("ext", { step });
			return;
		case "customMessage":
			session.appendCustomMessageEntry("ext", `note ${step}`, step % 2 === 0, step % 3 === 0 ? { step } : undefined);
			return;
		case "name":
			session.appendSessionInfo(`name ${step}`);
			return;
		case "model":
			session.appendModelChange("openai", `gpt-${step}`);
			return;
		case "reset":
			session.resetLeaf();
			return;
		case "thinking":
			session.appendThinkingLevelChange(op.level);
			return;
		case "compaction": {
			const path = session.getBranch();
			const firstKept =
				op.dangling || path.length === 0 ? "00000000" : (path[op.pick % path.length] as SessionEntry).id;
			session.appendCompaction(`summary ${step}`, firstKept, step * 10, { readFiles: [], modifiedFiles: [] }, false);
			return;
		}
		case "branch":
			if (entries.length > 0) session.branch(pickEntry(op.pick).id);
			return;
		case "branchSummary":
			session.branchWithSummary(op.toRoot || entries.length === 0 ? null : pickEntry(op.pick).id, op.summary);
			return;
		case "label":
			if (entries.length > 0) session.appendLabelChange(pickEntry(op.pick).id, op.label || undefined);
			return;
	}
}

function checkInvariants(session: SessionManager): void {
	const entries = session.getEntries();
	const ids = new Set(entries.map((e) => e.id));
	expect(ids.size).toBe(entries.length);
	for (const entry of entries) {
		if (entry.parentId !== null) expect(ids.has(entry.parentId)).toBe(true);
	}
	const leaf = session.getLeafId();
	if (leaf !== null) {
		expect(ids.has(leaf)).toBe(true);
		const branch = session.getBranch();
		expect(branch[branch.length - 1]?.id).toBe(leaf);
		expect(branch[0]?.parentId).toBeNull();
		for (let i = 1; i < branch.length; i++) expect(branch[i]?.parentId).toBe(branch[i - 1]?.id);
		expect(branch).toEqual(referencePath(entries, leaf));
	}
	expect(session.buildSessionContext()).toEqual(referenceContext(entries, leaf));
	const labels = referenceLabels(entries);
	for (const entry of entries) expect(session.getLabel(entry.id)).toBe(labels.get(entry.id));
	const treeCount = (nodes: ReturnType<SessionManager["getTree"]>): number =>
		nodes.reduce((n, node) => n + 1 + treeCount(node.children), 0);
	expect(treeCount(session.getTree())).toBe(entries.length);
}

describe("session tree under random operations", () => {
	it("keeps every parent present, the leaf reachable, and the context equal to a reference fold", () => {
		fc.assert(
			fc.property(fc.array(operation, { maxLength: 60 }), (ops) => {
				const session = SessionManager.inMemory("/p");
				for (const [step, op] of ops.entries()) {
					apply(session, op, step);
					checkInvariants(session);
				}
			}),
			{ numRuns: 200 },
		);
	});
});

describe("persisted session under random operations", () => {
	const tempDir = useTempDirs();

	it("reopens with the same entries, the last entry as leaf, and the reference context", () => {
		fc.assert(
			fc.property(fc.array(operation, { maxLength: 40 }), (ops) => {
				const session = SessionManager.create("/p", tempDir());
				for (const [step, op] of ops.entries()) apply(session, op, step);
				const file = session.getSessionFile() as string;
				const entries = session.getEntries();
				session.close();
				const hasAssistant = entries.some((e) => e.type === "message" && e.message.role === "assistant");
				expect(existsSync(file)).toBe(hasAssistant);
				if (!hasAssistant) return;
				const reopened = SessionManager.open(file);
				expect(reopened.getEntries()).toEqual(entries);
				expect(reopened.getLoadDiagnostics()).toEqual([]);
				const last = entries[entries.length - 1]?.id ?? null;
				expect(reopened.getLeafId()).toBe(last);
				expect(reopened.buildSessionContext()).toEqual(referenceContext(entries, last));
				reopened.close();
			}),
			{ numRuns: 60 },
		);
	});
});
