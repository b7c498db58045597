import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type SessionEntry, SessionManager } from "../../src/core/session/index.js";
import { FIXTURES_DIR, useTempDirs } from "../helpers/session-fixtures.js";

function copyFixture(name: string, dir: string): string {
	const target = join(dir, name);
	copyFileSync(join(FIXTURES_DIR, name), target);
	return target;
}

function fileLines(path: string): string[] {
	return readFileSync(path, "utf8").split("\n").slice(0, -1);
}

describe("migrating a v1 session (no ids)", () => {
	const tempDir = useTempDirs();

	it("chains every entry linearly with fresh 8-hex ids and rewrites the file as v3", () => {
		const path = copyFixture("v1-linear-with-compaction.jsonl", tempDir());
		const session = SessionManager.open(path);
		const entries = session.getEntries();
		expect(entries.map((e) => e.type)).toEqual([
			"message",
			"message",
			"thinking_level_change",
			"message",
			"message",
			"compaction",
			"message",
		]);
		expect(entries[0]?.parentId).toBeNull();
		for (let i = 1; i < entries.length; i++) expect(entries[i]?.parentId).toBe(entries[i - 1]?.id);
		for (const entry of entries) expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
		expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
		session.close();

		const header = JSON.parse(fileLines(path)[0] as string);
		expect(header).toEqual({
			type: "session",
			version: 3,
			id: "0f1c3f5e-4b7a-4f0e-9c55-2d7b0a1e9f10",
			timestamp: "2024-11-02T10:00:00.000Z",
			cwd: "/home/alice/proj",
			provider: "anthropic",
			modelId: "claude-sonnet-4-5",
			thinkingLevel: "off",
		});
	});

	it("turns firstKeptEntryIndex into firstKeptEntryId of the same parsed line", () => {
		const path = copyFixture("v1-linear-with-compaction.jsonl", tempDir());
		const session = SessionManager.open(path);
		const entries = session.getEntries();
		const compaction = entries.find((e) => e.type === "compaction");
		// Parsed line 4 (the header is 0) is the "Refactor the parser" user message; the corrupt line is not counted.
		const kept = entries[3] as SessionEntry;
		expect(kept.type === "message" && kept.message.role === "user" && kept.message.content).toBe(
			"Refactor the parser",
		);
		expect(compaction).toMatchObject({ firstKeptEntryId: kept.id });
		expect(compaction).not.toHaveProperty("firstKeptEntryIndex");
		const context = session.buildSessionContext();
		expect(context.messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "user"]);
		expect(context.thinkingLevel).toBe("high");
		session.close();
	});

	it("keeps a corrupt line verbatim, in place, and reports it with its line number", () => {
		const dir = tempDir();
		const path = copyFixture("v1-linear-with-compaction.jsonl", dir);
		const corrupt = fileLines(path)[6] as string;
		const session = SessionManager.open(path);
		expect(session.getLoadDiagnostics()).toEqual([
			{ file: path, line: 7, message: expect.stringContaining("not valid JSON") },
		]);
		session.close();
		const lines = fileLines(path);
		expect(lines[6]).toBe(corrupt);
		expect(lines).toHaveLength(9);
		// The rewrite was atomic: no temp files remain.
		expect(readdirSync(dir).filter((name) => !name.endsWith(".jsonl"))).toEqual([]);
	});

	it("is stable: reopening the migrated file changes nothing", () => {
		const path = copyFixture("v1-linear-with-compaction.jsonl", tempDir());
		const first = SessionManager.open(path);
		const entries = first.getEntries();
		first.close();
		const migratedText = readFileSync(path, "utf8");
		const second = SessionManager.open(path);
		expect(second.getEntries()).toEqual(entries);
		second.close();
		expect(readFileSync(path, "utf8")).toBe(migratedText);
	});
});

describe("migrating a v2 session", () => {
	const tempDir = useTempDirs();

	it("renames hookMessage to custom, keeps ids, and sets version 3", () => {
		const path = copyFixture("v2-hook-message.jsonl", tempDir());
		const original = fileLines(path);
		const session = SessionManager.open(path);
		const hook = session.getEntry("aa000003");
		expect(hook).toMatchObject({ type: "message", message: { role: "custom", customType: "reminder" } });
		expect(session.getLeafId()).toBe("aa000004");
		expect(session.buildSessionContext().messages.map((m) => m.role)).toEqual(["user", "custom", "assistant"]);
		expect(session.buildSessionContext().model).toEqual({ provider: "openai", modelId: "gpt-4o" });
		session.close();
		const lines = fileLines(path);
		expect(JSON.parse(lines[0] as string)).toMatchObject({ version: 3 });
		// Untouched entries are written back byte for byte.
		expect(lines.slice(1, 3)).toEqual(original.slice(1, 3));
		expect(lines[4]).toBe(original[4]);
		expect(lines[3]).toBe((original[3] as string).replace('"role":"hookMessage"', '"role":"custom"'));
	});
});

describe("files that are not session files", () => {
	const tempDir = useTempDirs();

	it("are refused with the file named, and left untouched", async () => {
		const dir = tempDir();
		const path = join(dir, "notes.jsonl");
		const { writeFileSync } = await import("node:fs");
		writeFileSync(path, '{"hello":"world"}\n');
		expect(() => SessionManager.open(path)).toThrow(/notes\.jsonl is not a session file: line 1/);
		expect(readFileSync(path, "utf8")).toBe('{"hello":"world"}\n');
		expect(readdirSync(dir)).toEqual(["notes.jsonl"]);
	});
});
