import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	encodeSessionDirName,
	findMostRecentSession,
	getSessionDirForCwd,
	resolveSessionArgument,
	SessionManager,
} from "../../src/core/session/index.js";
import { assistantMessage, userMessage, useTempDirs } from "../helpers/session-fixtures.js";

function writeSession(dir: string, cwd: string, build: (s: SessionManager) => void): string {
	const session = SessionManager.create(cwd, dir);
	build(session);
	session.close();
	return session.getSessionFile() as string;
}

describe("session directory names", () => {
	it("encode the cwd as the reference's examples show", () => {
		expect(encodeSessionDirName("/home/alice/proj")).toBe("--home-alice-proj--");
		expect(encodeSessionDirName("/")).toBe("----");
		expect(encodeSessionDirName("C:\\Users\\bob\\x")).toBe("--C--Users-bob-x--");
		expect(encodeSessionDirName("/a b/ü.x")).toBe("--a b-ü.x--");
	});

	it("live under <agentDir>/sessions", () => {
		expect(getSessionDirForCwd("/home/alice/proj", "/agent")).toBe("/agent/sessions/--home-alice-proj--");
	});
});

describe("listing the sessions of a project", () => {
	const tempDir = useTempDirs();

	it("gives first message, name, modified time and message count, newest first", async () => {
		const dir = tempDir();
		const older = writeSession(dir, "/p", (s) => {
			s.appendMessage(userMessage("first question", 1_000_000));
			s.appendMessage(assistantMessage("answer", { timestamp: 2_000_000 }));
		});
		const newer = writeSession(dir, "/p", (s) => {
			s.appendMessage({
				role: "user",
				content: [
					{ type: "text", text: "hello" },
					{ type: "text", text: "world" },
				],
				timestamp: 3_000_000,
			});
			const a = s.appendMessage(assistantMessage("reply one", { timestamp: 4_000_000 }));
			s.appendSessionInfo("Named");
			s.appendSessionInfo("  Renamed  ");
			s.appendSessionInfo("");
			s.branch(a);
			s.appendMessage(userMessage("branch", 5_000_000));
			s.appendMessage({
				role: "toolResult",
				toolCallId: "c",
				toolName: "bash",
				content: [],
				isError: false,
				timestamp: 9_000_000,
			});
		});
		const sessions = await SessionManager.list("/p", dir);
		expect(sessions.map((s) => s.path)).toEqual([newer, older]);
		const [first, second] = sessions;
		expect(first).toMatchObject({
			cwd: "/p",
			name: "Renamed",
			firstMessage: "hello world",
			messageCount: 4,
			modified: new Date(5_000_000),
		});
		expect(first?.allMessagesText).toBe("hello world reply one branch");
		expect(second).toMatchObject({ firstMessage: "first question", messageCount: 2, modified: new Date(2_000_000) });
		expect(second?.name).toBeUndefined();
		expect(JSON.parse(JSON.stringify(second)).allMessagesText).toBe("first question answer");
	});

	it("reads lines in any key order and skips files that are not sessions", async () => {
		const dir = tempDir();
		writeFileSync(
			join(dir, "other-order.jsonl"),
			[
				'{"id":"hdr","type":"session","version":3,"timestamp":"2025-01-01T00:00:00.000Z","cwd":"/q"}',
				'{"message":{"timestamp":7000,"content":"reordered","role":"user"},"parentId":null,"id":"aaaaaaaa","type":"message","timestamp":"2025-01-01T00:00:01.000Z"}',
				'{"name":"N","type":"session_info","id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"2025-01-01T00:00:02.000Z"}',
				"{broken",
				"",
			].join("\n"),
		);
		writeFileSync(join(dir, "not-a-session.jsonl"), '{"type":"message"}\n');
		writeFileSync(join(dir, "empty.jsonl"), "");
		writeFileSync(join(dir, "ignored.txt"), "x");
		const sessions = await SessionManager.list("/q", dir);
		expect(sessions).toHaveLength(1);
		expect(sessions[0]).toMatchObject({
			id: "hdr",
			name: "N",
			firstMessage: "reordered",
			messageCount: 1,
			modified: new Date(7000),
			created: new Date("2025-01-01T00:00:00.000Z"),
		});
	});

	it("falls back to the header time when there are no messages", async () => {
		const dir = tempDir();
		writeFileSync(
			join(dir, "s.jsonl"),
			'{"type":"session","version":3,"id":"x","timestamp":"2025-02-02T00:00:00.000Z","cwd":""}\n',
		);
		const [info] = await SessionManager.list("/", dir);
		expect(info).toMatchObject({
			firstMessage: "(no messages)",
			messageCount: 0,
			cwd: "",
			modified: new Date("2025-02-02T00:00:00.000Z"),
		});
	});
});

describe("listing all projects", () => {
	const tempDir = useTempDirs();

	it("merges every folder under <agentDir>/sessions, newest first", async () => {
		const agentDir = tempDir();
		const a = writeSession(getSessionDirForCwd("/a", agentDir), "/a", (s) =>
			s.appendMessage(userMessage("in a", 10)),
		);
		const b = writeSession(getSessionDirForCwd("/b", agentDir), "/b", (s) =>
			s.appendMessage(userMessage("in b", 20)),
		);
		// Lazy flush: sessions without an assistant message are not on disk.
		expect(await SessionManager.listAll(agentDir)).toEqual([]);
		const c = writeSession(getSessionDirForCwd("/c", agentDir), "/c", (s) => {
			s.appendMessage(userMessage("in c", 30));
			s.appendMessage(assistantMessage("ok", { timestamp: 40 }));
		});
		const d = writeSession(getSessionDirForCwd("/d", agentDir), "/d", (s) => {
			s.appendMessage(userMessage("in d", 50));
			s.appendMessage(assistantMessage("ok", { timestamp: 60 }));
		});
		expect([a, b].every((p) => p.endsWith(".jsonl"))).toBe(true);
		const all = await SessionManager.listAll(agentDir);
		expect(all.map((s) => [s.path, s.cwd])).toEqual([
			[d, "/d"],
			[c, "/c"],
		]);
	});
});

describe("continue most recent (-c)", () => {
	const tempDir = useTempDirs();

	it("picks the valid session file with the newest mtime", () => {
		const dir = tempDir();
		const make = (text: string) =>
			writeSession(dir, "/p", (s) => {
				s.appendMessage(userMessage(text));
				s.appendMessage(assistantMessage(text));
			});
		const first = make("one");
		const second = make("two");
		utimesSync(first, new Date(), new Date(Date.now() + 60_000));
		utimesSync(second, new Date(), new Date(Date.now() - 60_000));
		writeFileSync(join(dir, "broken.jsonl"), "not json\n");
		utimesSync(join(dir, "broken.jsonl"), new Date(), new Date(Date.now() + 120_000));
		expect(findMostRecentSession(dir)).toBe(first);
		const session = SessionManager.continueRecent("/p", dir);
		expect(session.getSessionFile()).toBe(first);
		session.close();
	});

	it("reads headers longer than 512 bytes", () => {
		const dir = tempDir();
		const header = {
			type: "session",
			version: 3,
			id: "long",
			timestamp: "2025-01-01T00:00:00.000Z",
			cwd: `/${"x".repeat(700)}`,
		};
		writeFileSync(join(dir, "long.jsonl"), `${JSON.stringify(header)}\n`);
		expect(findMostRecentSession(dir)).toBe(join(dir, "long.jsonl"));
	});

	it("starts a new session when the directory has none", () => {
		const dir = join(tempDir(), "empty");
		mkdirSync(dir);
		const session = SessionManager.continueRecent("/p", dir);
		expect(session.getEntries()).toEqual([]);
		expect(session.getSessionFile()?.startsWith(dir)).toBe(true);
	});
});

describe("--session <arg>", () => {
	const tempDir = useTempDirs();

	it("treats paths as paths and id prefixes as lookups, this project first", async () => {
		const agentDir = tempDir();
		const here = writeSession(getSessionDirForCwd("/here", agentDir), "/here", (s) => {
			s.appendMessage(userMessage("q"));
			s.appendMessage(assistantMessage("a"));
		});
		const there = writeSession(getSessionDirForCwd("/there", agentDir), "/there", (s) => {
			s.appendMessage(userMessage("q"));
			s.appendMessage(assistantMessage("a"));
		});
		const idOf = async (path: string) =>
			(await SessionManager.list("/", join(path, ".."))).find((s) => s.path === path)?.id as string;
		const hereId = await idOf(here);
		const thereId = await idOf(there);

		expect(await resolveSessionArgument("./x.jsonl", "/cwd", { agentDir })).toEqual({
			kind: "path",
			path: "/cwd/x.jsonl",
		});
		expect(await resolveSessionArgument("abc.jsonl", "/cwd", { agentDir })).toEqual({
			kind: "path",
			path: "/cwd/abc.jsonl",
		});
		expect(await resolveSessionArgument(hereId.slice(0, 8), "/here", { agentDir })).toMatchObject({
			kind: "project",
			session: { path: here },
		});
		expect(await resolveSessionArgument(thereId.slice(0, 8), "/here", { agentDir })).toMatchObject({
			kind: "other-project",
			session: { path: there, cwd: "/there" },
		});
		expect(await resolveSessionArgument("zzzz", "/here", { agentDir })).toEqual({ kind: "not-found" });
	});
});
