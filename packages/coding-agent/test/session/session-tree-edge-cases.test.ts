import { describe, expect, it } from "vitest";
import {
	buildSessionContext,
	buildSessionTree,
	getBranchPath,
	indexEntries,
	type SessionEntry,
} from "../../src/core/session/index.js";

function entry(id: string, parentId: string | null, text = id, timestamp = "2025-01-01T00:00:00.000Z"): SessionEntry {
	return {
		type: "message",
		id,
		parentId,
		timestamp,
		message: { role: "user", content: text, timestamp: 0 },
	};
}

function ids(entries: SessionEntry[]): string[] {
	return entries.map((e) => e.id);
}

describe("hand-edited trees", () => {
	it("treat a self-parent as the end of the path", () => {
		const entries = [entry("a", "a"), entry("b", "a")];
		expect(ids(getBranchPath(indexEntries(entries), "b"))).toEqual(["a", "b"]);
		expect(buildSessionTree(entries).map((n) => n.entry.id)).toEqual(["a"]);
	});

	it("stop at a parent cycle, listing each entry once", () => {
		const entries = [entry("a", "b"), entry("b", "a"), entry("c", "b")];
		expect(ids(getBranchPath(indexEntries(entries), "c"))).toEqual(["a", "b", "c"]);
		expect(buildSessionContext(entries, "c").messages).toHaveLength(3);
		const tree = buildSessionTree(entries);
		const count = (nodes: typeof tree): number => nodes.reduce((n, node) => n + 1 + count(node.children), 0);
		expect(count(tree)).toBe(3);
	});

	it("make entries with a missing parent roots (orphans)", () => {
		const entries = [entry("a", null), entry("b", "gone")];
		expect(ids(getBranchPath(indexEntries(entries), "b"))).toEqual(["b"]);
		expect(buildSessionTree(entries).map((n) => n.entry.id)).toEqual(["a", "b"]);
	});

	it("let the later of two lines with the same id win", () => {
		const entries = [entry("a", null, "first"), entry("a", null, "second")];
		const [message] = buildSessionContext(entries, "a").messages;
		expect(message).toMatchObject({ content: "second" });
	});

	it("sort children by timestamp", () => {
		const entries = [
			entry("root", null),
			entry("late", "root", "late", "2025-01-03T00:00:00.000Z"),
			entry("early", "root", "early", "2025-01-02T00:00:00.000Z"),
		];
		expect(buildSessionTree(entries)[0]?.children.map((n) => n.entry.id)).toEqual(["early", "late"]);
	});
});
