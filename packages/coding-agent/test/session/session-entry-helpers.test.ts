// The reference's exported session helpers: parsing a file's text into entries, migrating them in place, and
// the latest compaction / last usable usage on a branch.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getLastAssistantUsage } from "../../src/core/compaction/index.js";
import {
	CURRENT_SESSION_VERSION,
	type FileEntry,
	getLatestCompactionEntry,
	loadEntriesFromFile,
	migrateSessionEntries,
	parseSessionEntries,
	type SessionEntry,
	SessionManager,
} from "../../src/core/session/index.js";
import { assistantMessage, FIXTURES_DIR, userMessage } from "../helpers/session-fixtures.js";

const fixtureText = (name: string) => readFileSync(join(FIXTURES_DIR, name), "utf8");

function entriesOnly(entries: FileEntry[]): SessionEntry[] {
	return entries.filter((entry): entry is SessionEntry => entry.type !== "session");
}

describe("parseSessionEntries", () => {
	it("gives the header and entries of a file's text, as loadEntriesFromFile does for the file", () => {
		const entries = parseSessionEntries(fixtureText("v3-every-entry-kind.jsonl"));
		expect(entries).toEqual(loadEntriesFromFile(join(FIXTURES_DIR, "v3-every-entry-kind.jsonl")));
		expect(entries[0]?.type).toBe("session");
		expect(entries.length).toBeGreaterThan(5);
	});

	it("skips lines that are not JSON and keeps the rest", () => {
		const text = [
			JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" }),
			"{ truncated",
			JSON.stringify({ type: "label", id: "a", parentId: null, timestamp: "t", targetId: "x", label: "L" }),
			"",
		].join("\n");
		expect(parseSessionEntries(text).map((entry) => entry.type)).toEqual(["session", "label"]);
	});
});

describe("migrateSessionEntries", () => {
	it("brings v1 entries to the current version in place: ids, parents, compaction's kept entry", () => {
		const entries = parseSessionEntries(fixtureText("v1-linear-with-compaction.jsonl"));
		const list = entries;
		migrateSessionEntries(entries);
		expect(list).toBe(entries);
		const header = entries[0];
		expect(header?.type === "session" && header.version).toBe(CURRENT_SESSION_VERSION);
		const body = entriesOnly(entries);
		expect(body[0]?.parentId).toBeNull();
		for (let i = 1; i < body.length; i++) expect(body[i]?.parentId).toBe(body[i - 1]?.id);
		const compaction = body.find((entry) => entry.type === "compaction");
		expect(compaction?.type === "compaction" && body.some((entry) => entry.id === compaction.firstKeptEntryId)).toBe(
			true,
		);
	});

	it("renames v2's hookMessage role to custom and leaves current entries untouched", () => {
		const entries = parseSessionEntries(fixtureText("v2-hook-message.jsonl"));
		migrateSessionEntries(entries);
		const roles = entriesOnly(entries).flatMap((entry) => (entry.type === "message" ? [entry.message.role] : []));
		expect(roles).toContain("custom");
		expect(roles).not.toContain("hookMessage");

		const current = parseSessionEntries(fixtureText("v3-every-entry-kind.jsonl"));
		const before = structuredClone(current);
		migrateSessionEntries(current);
		expect(current).toEqual(before);
	});
});

describe("latest compaction and last usage on a branch", () => {
	it("finds the newest compaction, or null", () => {
		const session = SessionManager.inMemory("/tmp/project");
		session.appendMessage(userMessage("one"));
		expect(getLatestCompactionEntry(session.getBranch())).toBeNull();
		const first = session.appendMessage(assistantMessage("two"));
		session.appendCompaction("first summary", first, 100);
		session.appendCompaction("second summary", first, 50);
		expect(getLatestCompactionEntry(session.getBranch())?.summary).toBe("second summary");
	});

	it("takes the usage of the last reply that was neither aborted nor failed", () => {
		const session = SessionManager.inMemory("/tmp/project");
		expect(getLastAssistantUsage(session.getBranch())).toBeUndefined();
		session.appendMessage(userMessage("one"));
		const usable = assistantMessage("two");
		usable.usage = { ...usable.usage, input: 1234, totalTokens: 1239 };
		session.appendMessage(usable);
		session.appendMessage({ ...assistantMessage("three"), stopReason: "aborted" });
		session.appendMessage({ ...assistantMessage("four"), stopReason: "error", errorMessage: "boom" });
		expect(getLastAssistantUsage(session.getBranch())).toEqual(usable.usage);
	});
});
