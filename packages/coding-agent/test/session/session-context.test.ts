import { describe, expect, it } from "vitest";
import { buildSessionContext, type SessionEntry, SessionManager } from "../../src/core/session/index.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/session-fixtures.js";

function roles(session: SessionManager): string[] {
	return session.buildSessionContext().messages.map((m) => m.role);
}

describe("context of a linear session", () => {
	it("emits every message on the path and restores model and thinking level", () => {
		const session = SessionManager.inMemory("/p");
		session.appendModelChange("openai", "gpt-4o");
		session.appendThinkingLevelChange("high");
		session.appendMessage(userMessage("q"));
		session.appendMessage(assistantMessage("a", { provider: "anthropic", model: "claude-sonnet-4-5" }));
		session.appendMessage(toolResultMessage("out"));
		const context = session.buildSessionContext();
		expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(context.thinkingLevel).toBe("high");
		// The assistant message comes after the model_change on the path, so it wins.
		expect(context.model).toEqual({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
	});

	it("defaults to thinking off and no model", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("q"));
		expect(session.buildSessionContext()).toMatchObject({ thinkingLevel: "off", model: null });
	});

	it("is empty when the leaf was reset before the first entry", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("q"));
		session.resetLeaf();
		expect(session.buildSessionContext()).toEqual({ messages: [], thinkingLevel: "off", model: null });
	});

	it("falls back to the last entry when the leaf id is unknown", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("q"));
		session.appendMessage(assistantMessage("a"));
		expect(buildSessionContext(session.getEntries(), "nope").messages).toHaveLength(2);
		expect(buildSessionContext(session.getEntries()).messages).toHaveLength(2);
		expect(buildSessionContext([])).toEqual({ messages: [], thinkingLevel: "off", model: null });
	});
});

describe("context with branches", () => {
	it("follows only the current branch", () => {
		const session = SessionManager.inMemory("/p");
		const u1 = session.appendMessage(userMessage("first"));
		session.appendMessage(assistantMessage("answer 1"));
		session.branch(u1);
		session.appendMessage(assistantMessage("answer 2"));
		const texts = session.buildSessionContext().messages.map((m) => JSON.stringify(m));
		expect(texts.some((t) => t.includes("answer 1"))).toBe(false);
		expect(texts.some((t) => t.includes("answer 2"))).toBe(true);
	});

	it("adds a branch summary appended at the branch point", () => {
		const session = SessionManager.inMemory("/p");
		const u1 = session.appendMessage(userMessage("first"));
		session.appendMessage(assistantMessage("abandoned"));
		const summaryId = session.branchWithSummary(u1, "Tried approach A");
		const entry = session.getEntry(summaryId);
		expect(entry).toMatchObject({ type: "branch_summary", parentId: u1, fromId: u1, summary: "Tried approach A" });
		const messages = session.buildSessionContext().messages;
		expect(messages.map((m) => m.role)).toEqual(["user", "branchSummary"]);
		expect(messages[1]).toMatchObject({ role: "branchSummary", summary: "Tried approach A", fromId: u1 });
		expect(typeof messages[1]?.timestamp).toBe("number");
	});

	it("records fromId 'root' and a null parent when summarizing back to before the first entry", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("first"));
		const id = session.branchWithSummary(null, "all of it");
		expect(session.getEntry(id)).toMatchObject({ parentId: null, fromId: "root" });
	});

	it("skips branch summaries with an empty summary", () => {
		const session = SessionManager.inMemory("/p");
		const u1 = session.appendMessage(userMessage("first"));
		session.branchWithSummary(u1, "");
		expect(roles(session)).toEqual(["user"]);
	});
});

describe("context with compaction", () => {
	it("starts with the summary, keeps entries from firstKeptEntryId, then everything after", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("old 1"));
		session.appendMessage(assistantMessage("old 2"));
		const kept = session.appendMessage(userMessage("kept 1"));
		session.appendMessage(assistantMessage("kept 2"));
		session.appendCompaction("summary of old", kept, 5000, { readFiles: [], modifiedFiles: [] }, false);
		session.appendMessage(userMessage("after"));
		const messages = session.buildSessionContext().messages;
		expect(messages[0]).toMatchObject({ role: "compactionSummary", summary: "summary of old", tokensBefore: 5000 });
		const texts = messages.slice(1).map((m) => JSON.stringify(m));
		expect(texts).toHaveLength(3);
		expect(texts[0]).toContain("kept 1");
		expect(texts[1]).toContain("kept 2");
		expect(texts[2]).toContain("after");
	});

	it("uses only the latest compaction on the path", () => {
		const session = SessionManager.inMemory("/p");
		const a = session.appendMessage(userMessage("a"));
		session.appendCompaction("first summary", a, 100);
		const b = session.appendMessage(userMessage("b"));
		session.appendCompaction("second summary", b, 200);
		const messages = session.buildSessionContext().messages;
		expect(messages.map((m) => m.role)).toEqual(["compactionSummary", "user"]);
		expect(messages[0]).toMatchObject({ summary: "second summary" });
	});

	it("keeps nothing before the compaction when firstKeptEntryId is not on the path", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("a"));
		session.appendCompaction("s", "deadbeef", 1);
		session.appendMessage(userMessage("b"));
		expect(roles(session)).toEqual(["compactionSummary", "user"]);
	});
});

describe("extension entries in context", () => {
	it("turns custom_message entries into custom messages (hidden ones too) and never emits custom entries", () => {
		const session = SessionManager.inMemory("/p");
		session.appendCustomEntry("state", { count: 1 });
		const id = session.appendCustomMessageEntry("ext", "injected", false, { meta: true });
		const entry = session.getEntry(id) as SessionEntry;
		const messages = session.buildSessionContext().messages;
		expect(messages).toEqual([
			{
				role: "custom",
				customType: "ext",
				content: "injected",
				display: false,
				details: { meta: true },
				timestamp: Date.parse(entry.timestamp),
			},
		]);
	});

	it("ignores labels, session names and unknown kinds", () => {
		const session = SessionManager.inMemory("/p");
		const u = session.appendMessage(userMessage("q"));
		session.appendLabelChange(u, "checkpoint");
		session.appendSessionInfo("  My session  ");
		expect(roles(session)).toEqual(["user"]);
		expect(session.getLabel(u)).toBe("checkpoint");
		expect(session.getSessionName()).toBe("My session");
		const entries = [
			...session.getEntries(),
			{ type: "future_kind", id: "ffffffff", parentId: session.getLeafId(), timestamp: "2025-01-01T00:00:00.000Z" },
		] as SessionEntry[];
		expect(buildSessionContext(entries).messages.map((m) => m.role)).toEqual(["user"]);
	});
});
