import { appendFileSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import {
	lockPathFor,
	type SessionEntry,
	SessionLockedError,
	SessionManager,
	type SessionPersistenceError,
} from "../../src/core/session/index.js";
import { startSessionChild } from "../helpers/session-child-process.js";
import { assistantMessage, userMessage, useTempDirs } from "../helpers/session-fixtures.js";

function assertTreeIntact(entries: SessionEntry[]): void {
	const ids = new Set(entries.map((e) => e.id));
	for (const entry of entries) if (entry.parentId !== null) expect(ids.has(entry.parentId)).toBe(true);
}

describe("kill -9 during heavy appends", () => {
	const tempDir = useTempDirs();

	it("loses no committed entry and leaves at most one partial line, which is skipped", async () => {
		// Kill points drawn at random; each run is a real process killed with SIGKILL.
		const killPoints = fc.sample(fc.integer({ min: 1, max: 120 }), 4);
		for (const killAfter of killPoints) {
			const dir = tempDir();
			const child = startSessionChild("append", dir);
			const file = await child.waitForLine("READY ");
			await child.waitForCount("COMMITTED ", killAfter);
			await child.killHard();
			const committed = child
				.lines()
				.filter((line) => line.startsWith("COMMITTED "))
				.map((line) => line.slice("COMMITTED ".length));
			expect(committed.length).toBeGreaterThanOrEqual(killAfter);

			// The dead child's lock is stale: opening takes it over instead of refusing.
			const session = SessionManager.open(file);
			const ids = new Set(session.getEntries().map((e) => e.id));
			for (const id of committed) expect(ids.has(id)).toBe(true);
			const diagnostics = session.getLoadDiagnostics();
			expect(diagnostics.length).toBeLessThanOrEqual(1);
			const lineCount = readFileSync(file, "utf8")
				.split("\n")
				.filter((l) => l.length > 0).length;
			if (diagnostics[0]) expect(diagnostics[0].line).toBe(lineCount);
			assertTreeIntact(session.getEntries());

			// Appending after the crash starts on a fresh line, so the new entry is readable.
			const added = session.appendMessage(userMessage("after the crash"));
			session.close();
			const reopened = SessionManager.open(file);
			expect(reopened.getEntry(added)).toBeDefined();
			expect(reopened.getLoadDiagnostics().length).toBe(diagnostics.length);
			reopened.close();
		}
	});
});

describe("corrupt lines", () => {
	const tempDir = useTempDirs();

	function persistedSession(dir: string): { session: SessionManager; file: string } {
		const session = SessionManager.create("/p", dir);
		session.appendMessage(userMessage("q"));
		session.appendMessage(assistantMessage("a"));
		return { session, file: session.getSessionFile() as string };
	}

	it("skips a truncated last line with its line number, and never rewrites it away", () => {
		const { session, file } = persistedSession(tempDir());
		session.close();
		appendFileSync(file, '{"type":"message","id":"abcd1234","parentId":');
		const reopened = SessionManager.open(file);
		expect(reopened.getEntries()).toHaveLength(2);
		expect(reopened.getLoadDiagnostics()).toEqual([
			{ file, line: 4, message: expect.stringMatching(/not valid JSON/) },
		]);
		reopened.appendMessage(userMessage("next"));
		reopened.close();
		const lines = readFileSync(file, "utf8").split("\n");
		expect(lines[3]).toBe('{"type":"message","id":"abcd1234","parentId":');
		expect(JSON.parse(lines[4] as string)).toMatchObject({ type: "message" });
		expect(SessionManager.open(file).getEntries()).toHaveLength(3);
	});

	it("skips damaged lines in the middle and keeps the entries around them", () => {
		const { session, file } = persistedSession(tempDir());
		session.close();
		const lines = readFileSync(file, "utf8").split("\n");
		lines.splice(2, 0, "garbage {", "42");
		writeFileSync(file, lines.join("\n"));
		const reopened = SessionManager.open(file);
		expect(reopened.getEntries()).toHaveLength(2);
		expect(reopened.getLoadDiagnostics().map((d) => d.line)).toEqual([3, 4]);
		reopened.close();
	});
});

describe("a second writer", () => {
	const tempDir = useTempDirs();

	it("is refused while another live process holds the session file, naming its pid", async () => {
		const { file } = (() => {
			const session = SessionManager.create("/p", tempDir());
			session.appendMessage(assistantMessage("a"));
			session.close();
			return { file: session.getSessionFile() as string };
		})();
		const child = startSessionChild("hold", file);
		const pid = Number(await child.waitForLine("HOLDING "));
		let error: unknown;
		try {
			SessionManager.open(file);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(SessionLockedError);
		expect((error as Error).message).toContain(`pid ${pid}`);
		expect((error as Error).message).toContain(file);
		child.process.stdin.end();
		await child.exited;
		// Released on a clean exit.
		const session = SessionManager.open(file);
		session.close();
	});

	it("is refused within one process too, until the first session is closed", () => {
		const dir = tempDir();
		const first = SessionManager.create("/p", dir);
		first.appendMessage(assistantMessage("a"));
		const file = first.getSessionFile() as string;
		expect(() => SessionManager.open(file)).toThrow(/already open in another session of this process/);
		first.close();
		SessionManager.open(file).close();
	});

	it("takes over a lock left by a killed process", async () => {
		const session = SessionManager.create("/p", tempDir());
		session.appendMessage(assistantMessage("a"));
		session.close();
		const file = session.getSessionFile() as string;
		const child = startSessionChild("hold", file);
		await child.waitForLine("HOLDING ");
		await child.killHard();
		expect(readFileSync(lockPathFor(file), "utf8")).toContain(`"pid":${child.process.pid}`);
		const reopened = SessionManager.open(file);
		expect(reopened.getEntries()).toHaveLength(1);
		reopened.close();
	});

	it("takes over a lock whose pid now belongs to this very process (pid reuse after a restart)", () => {
		const session = SessionManager.create("/p", tempDir());
		session.appendMessage(assistantMessage("a"));
		session.close();
		const file = session.getSessionFile() as string;
		writeFileSync(
			lockPathFor(file),
			JSON.stringify({ pid: process.pid, token: "from-a-previous-life", acquiredAt: "" }),
		);
		const reopened = SessionManager.open(file);
		const lock = JSON.parse(readFileSync(lockPathFor(file), "utf8")) as { pid: number; token: string };
		expect(lock.pid).toBe(process.pid);
		expect(lock.token).not.toBe("from-a-previous-life");
		reopened.close();
	});
});

describe("write failures", () => {
	const tempDir = useTempDirs();

	it("reports a full disk, keeps working in memory, and writes everything once writing works again", () => {
		const session = SessionManager.create("/p", tempDir());
		const file = session.getSessionFile() as string;
		symlinkSync("/dev/full", file);
		const reports: (SessionPersistenceError | undefined)[] = [];
		session.onPersistenceError((error) => reports.push(error));
		session.appendMessage(userMessage("q"));
		session.appendMessage(assistantMessage("a"));
		session.appendMessage(userMessage("q2"));
		expect(session.getPersistenceError()).toMatchObject({ code: "ENOSPC", sessionFile: file });
		expect(session.getPersistenceError()?.message).toContain("the disk is full");
		expect(reports).toHaveLength(1);
		expect(session.buildSessionContext().messages).toHaveLength(3);

		rmSync(file);
		session.appendMessage(assistantMessage("a2"));
		expect(session.getPersistenceError()).toBeUndefined();
		expect(reports).toEqual([expect.objectContaining({ code: "ENOSPC" }), undefined]);
		session.close();
		const reopened = SessionManager.open(file);
		expect(reopened.getEntries()).toEqual(session.getEntries());
		expect(reopened.getLoadDiagnostics()).toEqual([]);
		reopened.close();
	});

	it("reports a directory that cannot be created and keeps the session in memory", () => {
		const dir = tempDir();
		const blocker = join(dir, "not-a-dir");
		writeFileSync(blocker, "");
		const session = SessionManager.create("/p", join(blocker, "sessions"));
		session.appendMessage(userMessage("q"));
		session.appendMessage(assistantMessage("a"));
		expect(session.getPersistenceError()?.message).toMatch(/^Could not write session file .*not-a-dir/);
		expect(session.buildSessionContext().messages).toHaveLength(2);
	});
});

describe("secrets", () => {
	it("are not part of any entry: a model change stores only provider and id", () => {
		const session = SessionManager.inMemory("/p");
		session.appendModelChange("anthropic", "claude-sonnet-4-5");
		expect(Object.keys(session.getEntries()[0] as object).sort()).toEqual([
			"id",
			"modelId",
			"parentId",
			"provider",
			"timestamp",
			"type",
		]);
	});
});
