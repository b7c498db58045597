import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSessionText, SessionManager, serializeFileEntry } from "../../src/core/session/index.js";
import { serializeRecords } from "../../src/core/session/session-file.js";
import { FIXTURES_DIR, userMessage, useTempDirs } from "../helpers/session-fixtures.js";

const FIXTURE = join(FIXTURES_DIR, "v3-every-entry-kind.jsonl");
const fixtureText = readFileSync(FIXTURE, "utf8");
const fixtureLines = fixtureText.split("\n").slice(0, -1);

describe("every entry kind of the fixture", () => {
	it("covers each kind of docs/session-format.md, plus an unknown one", () => {
		const kinds = new Set(fixtureLines.map((line) => JSON.parse(line).type));
		for (const kind of [
			"session",
			"message",
			"thinking_level_change",
			"model_change",
			"compaction",
			"branch_summary",
			"custom",
			"custom_message",
			"label",
			"session_info",
			"bookmark_v9",
		]) {
			expect(kinds.has(kind)).toBe(true);
		}
	});

	it("re-serializes to byte-identical lines", () => {
		const parsed = parseSessionText(fixtureText, FIXTURE);
		expect(parsed.diagnostics).toEqual([]);
		expect(serializeRecords(parsed.records)).toBe(fixtureText);
		const entries = parsed.records.flatMap((r) => (r.kind === "entry" ? [r.entry] : []));
		expect(entries.map((e) => serializeFileEntry(e))).toEqual(fixtureLines.slice(1).map((line) => `${line}\n`));
	});
});

describe("opening and appending to the fixture", () => {
	const tempDir = useTempDirs();

	it("keeps every existing byte and adds one line", () => {
		const path = join(tempDir(), "s.jsonl");
		copyFileSync(FIXTURE, path);
		const session = SessionManager.open(path);
		expect(session.getLoadDiagnostics()).toEqual([]);
		expect(session.getEntries()).toHaveLength(fixtureLines.length - 1);
		expect(session.getEntry("6a7b8c9d")).toMatchObject({ type: "bookmark_v9", color: "red" });
		expect(session.getLabel("55ee66ff")).toBe("checkpoint-1");
		expect(session.getLabel("77aa88bb")).toBeUndefined();
		expect(session.getSessionName()).toBe("Refactor auth module");
		session.appendMessage(userMessage("next"));
		session.close();
		const text = readFileSync(path, "utf8");
		expect(text.startsWith(fixtureText)).toBe(true);
		const added = text.slice(fixtureText.length).split("\n");
		expect(added).toHaveLength(2);
		expect(JSON.parse(added[0] as string)).toMatchObject({ type: "message", parentId: "7b8c9d0e" });
	});

	it("rebuilds the context through the unknown entry and the compaction", () => {
		const path = join(tempDir(), "s.jsonl");
		copyFileSync(FIXTURE, path);
		const session = SessionManager.open(path);
		const context = session.buildSessionContext();
		expect(context.messages.map((m) => m.role)).toEqual([
			"compactionSummary",
			"toolResult",
			"assistant",
			"bashExecution",
			"bashExecution",
			"branchSummary",
			"custom",
			"custom",
			"user",
		]);
		expect(context.model).toEqual({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
		expect(context.thinkingLevel).toBe("medium");
		session.close();
	});

	it("forks into another project with every entry line copied verbatim", () => {
		const dir = tempDir();
		const source = join(dir, "source.jsonl");
		copyFileSync(FIXTURE, source);
		const fork = SessionManager.forkFrom(source, "/elsewhere", join(dir, "fork"));
		const file = fork.getSessionFile() as string;
		fork.close();
		const lines = readFileSync(file, "utf8").split("\n").slice(0, -1);
		expect(JSON.parse(lines[0] as string)).toMatchObject({
			type: "session",
			version: 3,
			cwd: "/elsewhere",
			parentSession: source,
		});
		expect(JSON.parse(lines[0] as string).id).not.toBe("6f1c3f5e-4b7a-4f0e-9c55-2d7b0a1e9f10");
		expect(lines.slice(1)).toEqual(fixtureLines.slice(1));
		expect(fork.getEntries()).toHaveLength(fixtureLines.length - 1);
	});
});

describe("entries appended by this program", () => {
	it("use the reference's key order for every kind", () => {
		const session = SessionManager.inMemory("/p");
		const u = session.appendMessage(userMessage("hi", 1));
		session.appendThinkingLevelChange("high");
		session.appendModelChange("openai", "gpt-4o");
		session.appendCompaction("s", u, 10, { readFiles: [], modifiedFiles: [] }, false);
		session.branchWithSummary(u, "b", { readFiles: [] }, true);
		session.appendCustomEntry("ext", { n: 1 });
		session.appendCustomEntry("ext");
		session.appendCustomMessageEntry("ext", "c", true, { d: 1 });
		session.appendLabelChange(u, "L");
		session.appendLabelChange(u, undefined);
		session.appendSessionInfo("name");
		const keys = session.getEntries().map((e) => Object.keys(e).join(","));
		expect(keys).toEqual([
			"type,id,parentId,timestamp,message",
			"type,id,parentId,timestamp,thinkingLevel",
			"type,id,parentId,timestamp,provider,modelId",
			"type,id,parentId,timestamp,summary,firstKeptEntryId,tokensBefore,details,fromHook",
			"type,id,parentId,timestamp,fromId,summary,details,fromHook",
			"type,customType,data,id,parentId,timestamp",
			"type,customType,id,parentId,timestamp",
			"type,customType,content,display,details,id,parentId,timestamp",
			"type,id,parentId,timestamp,targetId,label",
			"type,id,parentId,timestamp,targetId",
			"type,id,parentId,timestamp,name",
		]);
		for (const entry of session.getEntries()) {
			expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
			expect(entry.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		}
	});
});
