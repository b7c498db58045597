// File checkpoints across the session's life: /undo, /fork, reopening the file, the store beside it and its
// limits, and files the reference program must still open.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hashContent } from "../../src/core/checkpoints/blob-store.js";
import { checkpointStoreDirFor } from "../../src/core/checkpoints/checkpoint-paths.js";
import type { SessionEntry } from "../../src/core/session/entries.js";
import { parseSessionText } from "../../src/core/session/session-file.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import {
	bash,
	checkpointEntries,
	createCheckpointHarness,
	edit,
	readTree,
	runTurn,
	toolCalls,
	userEntryId,
	write,
} from "../helpers/checkpoint-fixtures.js";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";
import { referenceContext } from "../helpers/session-reference.js";

const harnesses: RuntimeHarness[] = [];
afterEach(() => {
	for (const h of harnesses.splice(0).reverse()) h.dispose();
});

async function start(options: Parameters<typeof createCheckpointHarness>[0] = {}): Promise<RuntimeHarness> {
	const h = await createCheckpointHarness(options);
	harnesses.push(h);
	return h;
}

describe("/undo", () => {
	it("restores the last turn's files, then the turn before, and keeps the conversation", async () => {
		const h = await start({ files: { "keep.txt": "k\n" } });
		await runTurn(h, "t1", toolCalls(write("a.txt", "one\n")));
		await runTurn(h, "t2", toolCalls(edit("a.txt", "one", "two"), bash("echo b > b.txt")));
		const messages = h.session.messages.length;

		const first = h.session.undoFiles();
		expect(first).toMatchObject({ restored: ["a.txt"], removed: ["b.txt"], conflicts: [] });
		expect(first.turnEntryId).toBe(userEntryId(h, "t2"));
		expect(readTree(h.cwd)).toEqual({ "keep.txt": "k\n", "a.txt": "one\n" });

		const second = h.session.undoFiles();
		expect(second).toMatchObject({ restored: [], removed: ["a.txt"] });
		expect(second.turnEntryId).toBe(userEntryId(h, "t1"));
		expect(readTree(h.cwd)).toEqual({ "keep.txt": "k\n" });

		expect(h.session.undoFiles().turnEntryId).toBeUndefined();
		expect(h.session.messages.length).toBe(messages);
	});

	it("reports a conflict with the file changed by hand, and overwrites it only when forced", async () => {
		const h = await start();
		await runTurn(h, "t1", toolCalls(write("a.txt", "agent\n")));
		writeFileSync(join(h.cwd, "a.txt"), "mine\n");
		const refused = h.session.undoFiles();
		expect(refused).toMatchObject({ restored: [], removed: [], conflicts: ["a.txt"] });
		expect(readFileSync(join(h.cwd, "a.txt"), "utf8")).toBe("mine\n");
		expect(refused.diffs?.[0]?.diff).toMatch(/-1 agent[\s\S]*\+1 mine/);
		expect(h.session.undoFiles({ force: true }).removed).toEqual(["a.txt"]);
	});
});

describe("fork with restoreFiles", () => {
	it("starts a session from before the message with the files of that point, independent of the old session's store", async () => {
		const h = await start();
		await runTurn(h, "t1", toolCalls(write("a.txt", "1\n")));
		await runTurn(h, "t2", toolCalls(edit("a.txt", "1", "2"), write("b.txt", "b\n")));
		const oldFile = h.sessionManager.getSessionFile() as string;
		const result = await h.session.fork(userEntryId(h, "t2"), { restoreFiles: true });
		expect(result).toMatchObject({ cancelled: false, selectedText: "t2" });
		expect(result.files).toMatchObject({ restored: ["a.txt"], removed: ["b.txt"], conflicts: [] });
		expect(h.sessionManager.getSessionFile()).not.toBe(oldFile);
		expect(readTree(h.cwd)).toEqual({ "a.txt": "1\n" });

		// The old session and its store go; the fork still knows the contents of its history.
		rmSync(oldFile);
		rmSync(checkpointStoreDirFor(oldFile), { recursive: true, force: true });
		writeFileSync(join(h.cwd, "a.txt"), "1\n");
		const t1Parent = h.sessionManager.getEntry(userEntryId(h, "t1"))?.parentId as string;
		await runTurn(h, "t3", toolCalls(bash("rm a.txt")));
		expect(h.session.restoreFiles(userEntryId(h, "t3")).restored).toEqual(["a.txt"]);
		expect(readTree(h.cwd)).toEqual({ "a.txt": "1\n" });
		expect(h.session.restoreFiles(t1Parent).removed).toEqual(["a.txt"]);
	});
});

describe("clone", () => {
	it("continues in a new session whose store holds the contents of its history", async () => {
		const h = await start({ files: { "a.txt": "1\n" } });
		await runTurn(h, "t1", toolCalls(bash("echo 2 > a.txt")));
		const oldFile = h.sessionManager.getSessionFile() as string;
		expect(await h.session.clone()).toEqual({ cancelled: false });
		expect(h.sessionManager.getSessionFile()).not.toBe(oldFile);

		// The old session and its store go; the clone can still restore what its history recorded.
		rmSync(oldFile);
		rmSync(checkpointStoreDirFor(oldFile), { recursive: true, force: true });
		const t1Parent = h.sessionManager.getEntry(userEntryId(h, "t1"))?.parentId as string;
		expect(h.session.restoreFiles(t1Parent)).toMatchObject({ restored: ["a.txt"], unrestorable: [] });
		expect(readTree(h.cwd)).toEqual({ "a.txt": "1\n" });
	});
});

describe("the store", () => {
	it("lives beside the session file and serves a reopened session", async () => {
		const h = await start({ files: { "a.txt": "before\n" } });
		await runTurn(h, "t1", toolCalls(bash("echo after > a.txt && echo new > n.txt")));
		const file = h.sessionManager.getSessionFile() as string;
		expect(existsSync(checkpointStoreDirFor(file))).toBe(true);
		const point = h.sessionManager.getEntry(userEntryId(h, "t1"))?.parentId as string;
		h.session.dispose();
		h.sessionManager.close();

		const reopened = await createRuntimeHarness({
			root: h.root,
			sessionManager: SessionManager.open(file),
			mcp: false,
		});
		harnesses.push(reopened);
		const result = reopened.session.restoreFiles(point);
		expect(result).toMatchObject({ restored: ["a.txt"], removed: ["n.txt"], conflicts: [] });
		expect(readTree(reopened.cwd)).toEqual({ "a.txt": "before\n" });
	});

	it("keeps, once the session has ended, only the contents its entries refer to, and those still restore", async () => {
		const h = await start({ files: { "a.txt": "before\n", "other.txt": "untouched\n" } });
		await runTurn(h, "t1", toolCalls(bash("echo after > a.txt")));
		const file = h.sessionManager.getSessionFile() as string;
		const store = checkpointStoreDirFor(file);
		// While the session runs, the whole working tree is in a pack (the index's baseline).
		expect(readdirSync(join(store, "packs")).filter((name) => name.endsWith(".pack"))).toHaveLength(1);
		const point = h.sessionManager.getEntry(userEntryId(h, "t1"))?.parentId as string;
		await h.session.shutdown();

		expect(existsSync(join(store, "packs")) ? readdirSync(join(store, "packs")) : []).toEqual([]);
		const blob = (content: string) => {
			const hash = hashContent(Buffer.from(content));
			return join(store, "blobs", hash.slice(0, 2), hash.slice(2));
		};
		expect(existsSync(blob("before\n"))).toBe(true);
		expect(existsSync(blob("untouched\n"))).toBe(false);

		const reopened = await createRuntimeHarness({
			root: h.root,
			sessionManager: SessionManager.open(file),
			mcp: false,
		});
		harnesses.push(reopened);
		expect(reopened.session.restoreFiles(point)).toMatchObject({ restored: ["a.txt"], conflicts: [] });
		expect(readTree(reopened.cwd)).toEqual({ "a.txt": "before\n", "other.txt": "untouched\n" });
	});

	it("hands the working tree's baseline on to the next session of the run, keeping only what it refers to", async () => {
		const h = await start({ files: { "a.txt": "1\n", "b.txt": "b\n" } });
		await runTurn(h, "t1", toolCalls(bash("echo 2 > a.txt")));
		const first = h.sessionManager.getSessionFile() as string;
		const firstPoint = h.sessionManager.getEntry(userEntryId(h, "t1"))?.parentId as string;
		expect(await h.session.newSession()).toBe(true);
		await runTurn(h, "t2", toolCalls(bash("echo B > b.txt")));
		const second = h.sessionManager.getSessionFile() as string;
		const secondPoint = h.sessionManager.getEntry(userEntryId(h, "t2"))?.parentId as string;
		const packs = (file: string) => {
			const dir = join(checkpointStoreDirFor(file), "packs");
			return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".pack")) : [];
		};
		const hasBlob = (file: string, content: string) => {
			const hash = hashContent(Buffer.from(content));
			return existsSync(join(checkpointStoreDirFor(file), "blobs", hash.slice(0, 2), hash.slice(2)));
		};
		expect(packs(first)).toEqual([]);
		expect(packs(second)).toHaveLength(1);
		expect([hasBlob(first, "1\n"), hasBlob(first, "b\n")]).toEqual([true, false]);
		await h.session.shutdown();
		expect(packs(second)).toEqual([]);
		expect([hasBlob(second, "b\n"), hasBlob(second, "1\n")]).toEqual([true, false]);

		// Each session, opened again, restores what it changed.
		for (const [file, point, restored] of [
			[second, secondPoint, "b.txt"],
			[first, firstPoint, "a.txt"],
		] as const) {
			const reopened = await createRuntimeHarness({
				root: h.root,
				sessionManager: SessionManager.open(file),
				mcp: false,
			});
			harnesses.push(reopened);
			expect(reopened.session.restoreFiles(point)).toMatchObject({ restored: [restored], conflicts: [] });
			reopened.session.dispose();
			reopened.sessionManager.close();
		}
		expect(readTree(h.cwd)).toEqual({ "a.txt": "1\n", "b.txt": "b\n" });
	});

	it("is removed when its session has ended without changing a file (an SDK program's dispose)", async () => {
		const h = await start({ files: { "a.txt": "a\n" } });
		// The command waits for the index, so its baseline is stored before the session ends.
		await runTurn(h, "t1", toolCalls(bash("true")));
		const file = h.sessionManager.getSessionFile() as string;
		expect(existsSync(checkpointStoreDirFor(file))).toBe(true);
		h.session.dispose();
		expect(existsSync(file)).toBe(true);
		expect(existsSync(checkpointStoreDirFor(file))).toBe(false);
	});

	it("keeps no content past checkpoints.maxFileBytes: such a file is recorded, but cannot be restored", async () => {
		const h = await start({
			files: { "big.txt": `${"x".repeat(100)}\nHERE\n` },
			settings: { checkpoints: { maxFileBytes: 50 } },
		});
		// Same size, same second: only the content tells the versions apart.
		await runTurn(h, "t1", toolCalls(edit("big.txt", "HERE", "THRE")));
		const [change] = checkpointEntries(h.sessionManager.getEntries()).flatMap((entry) => entry.files);
		expect(change?.after).toMatchObject({ unrecorded: "too-large" });
		const result = h.session.restoreFiles(h.sessionManager.getEntry(userEntryId(h, "t1"))?.parentId as string);
		expect(result).toMatchObject({ restored: [], unrestorable: ["big.txt"] });
	});

	it("says once when the session's store is full, and what it could not keep is not restorable", async () => {
		const h = await start({ settings: { checkpoints: { maxSessionBytes: 64 } } });
		await runTurn(h, "t1", toolCalls(write("a.txt", "small\n")));
		await runTurn(
			h,
			"t2",
			toolCalls(write("b.txt", `${"z".repeat(200)}\n`)),
			toolCalls(write("c.txt", `${"w".repeat(200)}\n`)),
		);
		const notices = h.eventsOf("checkpoint_notice");
		expect(notices).toHaveLength(1);
		expect(notices[0]?.message).toContain("checkpoints.maxSessionBytes");
		rmSync(join(h.cwd, "b.txt"));
		const result = h.session.restoreFiles(h.sessionManager.getLeafId() as string);
		expect(result.unrestorable).toContain("b.txt");
	});

	it("is removed with a session that was never written", async () => {
		const h = await start();
		await h.session.executeBash("echo x > x.txt");
		const file = h.sessionManager.getSessionFile() as string;
		expect(existsSync(file)).toBe(false);
		h.session.dispose();
		expect(existsSync(checkpointStoreDirFor(file))).toBe(false);
	});

	it("is not used when checkpoints are off", async () => {
		const h = await start({ settings: { checkpoints: { enabled: false } } });
		await runTurn(h, "t1", toolCalls(write("a.txt", "a\n"), bash("echo b > b.txt")));
		expect(checkpointEntries(h.sessionManager.getEntries())).toEqual([]);
		expect(existsSync(checkpointStoreDirFor(h.sessionManager.getSessionFile() as string))).toBe(false);
	});
});

describe("compatibility", () => {
	it("leaves the conversation the reference rebuilds from the file unchanged", async () => {
		const h = await start({ files: { "a.txt": "a\n" } });
		await runTurn(h, "t1", toolCalls(edit("a.txt", "a", "b"), bash("echo c > c.txt")));
		await runTurn(h, "t2", toolCalls(write("d.txt", "d\n")));
		const text = readFileSync(h.sessionManager.getSessionFile() as string, "utf8");
		const parsed = parseSessionText(text, "session.jsonl");
		const entries = parsed.records.flatMap((record) =>
			record.kind === "entry" ? [record.entry as SessionEntry] : [],
		);
		expect(checkpointEntries(entries).length).toBeGreaterThan(0);
		// The reference keeps entries of unknown kinds as tree nodes and builds its context from the messages.
		const leaf = entries.at(-1)?.id ?? null;
		const reference = referenceContext(entries, leaf);
		expect(reference.messages).toEqual(h.session.messages);
	});
});
