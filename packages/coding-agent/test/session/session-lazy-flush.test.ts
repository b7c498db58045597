import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../src/core/session/index.js";
import { assistantMessage, userMessage, useTempDirs } from "../helpers/session-fixtures.js";

function linesOf(path: string): Record<string, unknown>[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("a new persisted session", () => {
	const tempDir = useTempDirs();

	it("writes nothing until the first assistant message exists", () => {
		const dir = tempDir();
		const session = SessionManager.create("/home/alice/proj", dir);
		session.appendModelChange("anthropic", "claude-sonnet-4-5");
		session.appendThinkingLevelChange("medium");
		session.appendMessage(userMessage("list files"));
		const file = session.getSessionFile() as string;
		expect(file.startsWith(dir)).toBe(true);
		expect(existsSync(file)).toBe(false);
		session.close();
	});

	it("writes the header and every entry at the first assistant message, then one line per append", () => {
		const dir = tempDir();
		const session = SessionManager.create("/home/alice/proj", dir);
		session.appendModelChange("anthropic", "claude-sonnet-4-5");
		session.appendThinkingLevelChange("medium");
		session.appendMessage(userMessage("list files"));
		session.appendMessage(assistantMessage("done"));
		const file = session.getSessionFile() as string;
		const lines = linesOf(file);
		expect(lines.map((l) => l.type)).toEqual([
			"session",
			"model_change",
			"thinking_level_change",
			"message",
			"message",
		]);
		expect(lines[0]).toMatchObject({
			type: "session",
			version: 3,
			id: session.getSessionId(),
			cwd: "/home/alice/proj",
		});
		session.appendMessage(userMessage("again"));
		expect(linesOf(file)).toHaveLength(6);
		session.close();
	});

	it("names the file <timestamp>_<uuid>.jsonl after the header", () => {
		const session = SessionManager.create("/x", tempDir());
		const header = session.getHeader();
		const expected = `${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`;
		expect(session.getSessionFile()?.endsWith(expected)).toBe(true);
		expect(expected).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
		session.close();
	});

	it("writes header keys in the reference's order, compactly", () => {
		const session = SessionManager.create("/home/alice/proj", tempDir(), { parentSession: "/prev.jsonl" });
		session.appendMessage(assistantMessage("hi"));
		const first = readFileSync(session.getSessionFile() as string, "utf8").split("\n")[0] as string;
		expect(first).toMatch(
			/^\{"type":"session","version":3,"id":"[^"]+","timestamp":"[^"]+","cwd":"\/home\/alice\/proj","parentSession":"\/prev.jsonl"\}$/,
		);
		session.close();
	});
});

describe("an opened session file", () => {
	const tempDir = useTempDirs();

	it("appends line by line even before any assistant message, without duplicating earlier lines", () => {
		const dir = tempDir();
		const path = join(dir, "s.jsonl");
		writeFileSync(
			path,
			`${JSON.stringify({ type: "session", version: 3, id: "abc", timestamp: "2025-01-15T09:30:12.345Z", cwd: "/p" })}\n` +
				`${JSON.stringify({ type: "message", id: "11111111", parentId: null, timestamp: "2025-01-15T09:30:13.000Z", message: userMessage("hi") })}\n`,
		);
		const session = SessionManager.open(path);
		session.appendMessage(userMessage("second"));
		const lines = linesOf(path);
		expect(lines).toHaveLength(3);
		expect(lines[2]).toMatchObject({ type: "message", parentId: "11111111" });
		session.close();
	});

	it("treats a missing path as a new session at exactly that path, written lazily", () => {
		const path = join(tempDir(), "custom-name.jsonl");
		const session = SessionManager.open(path, undefined, "/work");
		expect(session.getSessionFile()).toBe(path);
		expect(session.getCwd()).toBe("/work");
		session.appendMessage(userMessage("q"));
		expect(existsSync(path)).toBe(false);
		session.appendMessage(assistantMessage("a"));
		expect(linesOf(path).map((l) => l.type)).toEqual(["session", "message", "message"]);
		session.close();
	});
});

describe("an in-memory session (--no-session)", () => {
	const tempDir = useTempDirs();

	it("has no file and never writes", async () => {
		const dir = tempDir();
		const session = SessionManager.inMemory(dir);
		session.appendMessage(userMessage("q"));
		session.appendMessage(assistantMessage("a"));
		expect(session.getSessionFile()).toBeUndefined();
		expect(session.isPersisted()).toBe(false);
		expect(session.buildSessionContext().messages).toHaveLength(2);
		expect(readdirSync(dir)).toEqual([]);
		expect(await SessionManager.list("/", dir)).toEqual([]);
	});
});

describe("/new", () => {
	const tempDir = useTempDirs();

	it("starts a fresh header in the same directory and leaves the old file untouched", () => {
		const dir = tempDir();
		const session = SessionManager.create("/p", dir);
		session.appendMessage(userMessage("q"));
		session.appendMessage(assistantMessage("a"));
		const oldFile = session.getSessionFile() as string;
		const before = readFileSync(oldFile, "utf8");
		const oldId = session.getSessionId();
		const newFile = session.newSession({ parentSession: oldFile });
		expect(newFile).not.toBe(oldFile);
		expect(session.getSessionId()).not.toBe(oldId);
		expect(session.getEntries()).toEqual([]);
		expect(session.getHeader().parentSession).toBe(oldFile);
		session.appendThinkingLevelChange("medium");
		expect(readFileSync(oldFile, "utf8")).toBe(before);
		session.close();
	});
});
