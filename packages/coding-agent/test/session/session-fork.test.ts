import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../src/core/session/index.js";
import { assistantMessage, userMessage, useTempDirs } from "../helpers/session-fixtures.js";

function fileTypes(path: string): string[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line).type);
}

describe("forking a branch into a new file (/fork)", () => {
	const tempDir = useTempDirs();

	it("copies the path without labels, re-creates labels on it, and points parentSession at the old file", () => {
		const session = SessionManager.create("/p", tempDir());
		const u1 = session.appendMessage(userMessage("one"));
		const a1 = session.appendMessage(assistantMessage("one"));
		session.appendLabelChange(u1, "start");
		const u2 = session.appendMessage(userMessage("two"));
		session.appendMessage(assistantMessage("two"));
		session.appendLabelChange(u2, "off-path label");
		const oldFile = session.getSessionFile() as string;
		const oldText = readFileSync(oldFile, "utf8");

		const newFile = session.createBranchedSession(a1) as string;
		expect(newFile).not.toBe(oldFile);
		expect(session.getHeader().parentSession).toBe(oldFile);
		const entries = session.getEntries();
		expect(entries.map((e) => e.type)).toEqual(["message", "message", "label"]);
		expect(entries[0]?.id).toBe(u1);
		expect(entries[1]?.id).toBe(a1);
		expect(entries[2]).toMatchObject({ type: "label", targetId: u1, label: "start", parentId: a1 });
		expect(session.getLeafId()).toBe(entries[2]?.id);
		expect(session.getLabel(u1)).toBe("start");
		// The path holds an assistant message: written at once.
		expect(fileTypes(newFile)).toEqual(["session", "message", "message", "label"]);
		expect(readFileSync(oldFile, "utf8")).toBe(oldText);
		session.close();
	});

	it("defers writing when the copied path has no assistant message", () => {
		const session = SessionManager.create("/p", tempDir());
		const u1 = session.appendMessage(userMessage("one"));
		session.appendMessage(assistantMessage("one"));
		const newFile = session.createBranchedSession(u1) as string;
		expect(existsSync(newFile)).toBe(false);
		session.appendMessage(assistantMessage("two"));
		expect(fileTypes(newFile)).toEqual(["session", "message", "message"]);
		session.close();
	});

	it("returns undefined in memory and keeps no parentSession", () => {
		const session = SessionManager.inMemory("/p");
		const u1 = session.appendMessage(userMessage("one"));
		expect(session.createBranchedSession(u1)).toBeUndefined();
		expect(session.getHeader().parentSession).toBeUndefined();
		expect(session.getEntries()).toHaveLength(1);
	});
});

describe("switching session files", () => {
	const tempDir = useTempDirs();

	it("loads the other file and releases the first one's lock", () => {
		const dir = tempDir();
		const a = SessionManager.create("/p", dir);
		a.appendMessage(assistantMessage("in a"));
		const fileA = a.getSessionFile() as string;
		const b = SessionManager.create("/p", dir);
		b.appendMessage(assistantMessage("in b"));
		const fileB = b.getSessionFile() as string;
		b.close();
		a.setSessionFile(fileB);
		expect(a.getSessionFile()).toBe(fileB);
		expect(a.getEntries()).toHaveLength(1);
		// fileA is free again.
		SessionManager.open(fileA).close();
		a.close();
	});

	it("keeps the current session when the target is locked elsewhere", () => {
		const dir = tempDir();
		const a = SessionManager.create("/p", dir);
		a.appendMessage(assistantMessage("in a"));
		const holder = SessionManager.create("/p", dir);
		holder.appendMessage(assistantMessage("held"));
		expect(() => a.setSessionFile(holder.getSessionFile() as string)).toThrow(/already open/);
		expect(a.getEntries()).toHaveLength(1);
		a.appendMessage(userMessage("still works"));
		expect(
			readFileSync(a.getSessionFile() as string, "utf8")
				.split("\n")
				.filter(Boolean),
		).toHaveLength(3);
		a.close();
		holder.close();
	});
});
