// A recording process killed with SIGKILL: the session still opens, and no half-written content is ever used.
// The children are told when to stop by the lines they print, never by time.
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BlobStore, hashContent } from "../../src/core/checkpoints/blob-store.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { checkpointEntries } from "../helpers/checkpoint-fixtures.js";
import { type SessionChild, startSourcesInChild } from "../helpers/session-child-process.js";

const SOURCES = join(import.meta.dirname, "..", "..", "src");
const dirs: string[] = [];
const children: SessionChild[] = [];
afterEach(async () => {
	for (const child of children.splice(0)) await child.killHard();
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "agent-checkpoint-crash-"));
	dirs.push(dir);
	return dir;
}

/** Every loose blob's name against its content: a mismatch would be a half-written blob under its name. */
function misnamedBlobs(storeDir: string): string[] {
	const misnamed: string[] = [];
	const blobs = join(storeDir, "blobs");
	for (const prefix of readdirSync(blobs)) {
		for (const name of readdirSync(join(blobs, prefix))) {
			if (hashContent(readFileSync(join(blobs, prefix, name))) !== prefix + name) misnamed.push(prefix + name);
		}
	}
	return misnamed;
}

const RECORDING_CHILD = (sessionDir: string) => `
const { SessionManager } = await load(${JSON.stringify(join(SOURCES, "core/session/session-manager.ts"))});
const { BlobStore } = await load(${JSON.stringify(join(SOURCES, "core/checkpoints/blob-store.ts"))});
const { checkpointStoreDirFor } = await load(${JSON.stringify(join(SOURCES, "core/checkpoints/checkpoint-paths.ts"))});
const session = SessionManager.create("/child", ${JSON.stringify(sessionDir)});
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
session.appendMessage({ role: "assistant", content: [{ type: "text", text: "hi" }], api: "x", provider: "x", model: "x", usage, stopReason: "stop", timestamp: 1 });
const store = new BlobStore(checkpointStoreDirFor(session.getSessionFile()), 1e12);
process.stdout.write("FILE " + session.getSessionFile() + "\\n");
for (let i = 0; ; i++) {
	// From a few bytes to 2 MB, so the kill lands inside large writes too.
	const size = i % 3 === 0 ? 2_000_000 : 1 + ((i * 7919) % 50_000);
	const bytes = Buffer.alloc(size, i % 251);
	bytes.writeUInt32LE(i, 0);
	const put = store.put(bytes);
	session.appendFileCheckpoint("bash", [{ path: "f" + i, before: null, after: { blob: put.hash, size, mode: 420 }, seq: i + 1 }]);
	process.stdout.write("COMMITTED " + put.hash + "\\n");
}
`;

const PACKING_CHILD = (storeDir: string) => `
const { BlobStore, hashContent } = await load(${JSON.stringify(join(SOURCES, "core/checkpoints/blob-store.ts"))});
const store = new BlobStore(${JSON.stringify(storeDir)}, 1e12);
const pack = store.beginPack();
for (let i = 0; i < 3; i++) {
	const bytes = Buffer.alloc(1_000_000, i + 1);
	pack.add(hashContent(bytes), bytes);
	process.stdout.write("ADDED " + hashContent(bytes) + "\\n");
}
process.stdout.write("PACKING\\n");
process.stdin.resume();
`;

const COMMITTING_CHILD = (storeDir: string) => `
const { BlobStore, hashContent } = await load(${JSON.stringify(join(SOURCES, "core/checkpoints/blob-store.ts"))});
const store = new BlobStore(${JSON.stringify(storeDir)}, 1e12);
const pack = store.beginPack();
for (const text of ["referenced by the session", "scratch"]) pack.add(hashContent(Buffer.from(text)), Buffer.from(text));
pack.commit();
process.stdout.write("COMMITTED\\n");
process.stdin.resume();
`;

describe("a recording killed with SIGKILL", () => {
	it("leaves a session that opens and a store whose every blob matches its name", async () => {
		const sessionDir = tempDir();
		const child = startSourcesInChild(RECORDING_CHILD(sessionDir));
		children.push(child);
		const file = await child.waitForLine("FILE ");
		await child.waitForCount("COMMITTED ", 25);
		await child.killHard();
		const committed = child
			.lines()
			.filter((line) => line.startsWith("COMMITTED "))
			.map((line) => line.slice(10));

		const session = SessionManager.open(file);
		try {
			const store = new BlobStore(file.replace(/\.jsonl$/, ".checkpoints"), 1e12);
			expect(misnamedBlobs(store.dir)).toEqual([]);
			// Every content a written entry refers to reads back whole.
			const referenced = checkpointEntries(session.getEntries()).flatMap((entry) =>
				entry.files.map((change) => (change.after as { blob: string }).blob),
			);
			expect(referenced.length).toBeGreaterThanOrEqual(committed.length);
			for (const hash of referenced) expect(store.read(hash)).toBeDefined();
		} finally {
			session.close();
		}
	});

	it("leaves nothing of a pack that was not committed", async () => {
		const storeDir = join(tempDir(), "store");
		const child = startSourcesInChild(PACKING_CHILD(storeDir));
		children.push(child);
		await child.waitForLine("PACKING");
		await child.killHard();
		const added = child
			.lines()
			.filter((line) => line.startsWith("ADDED "))
			.map((line) => line.slice(6));
		const store = new BlobStore(storeDir, 1e12);
		for (const hash of added) expect(store.has(hash)).toBe(false);
		expect(store.usedBytes).toBe(0);
		// Its temp file could be a live process's write until it is an hour old; then an open removes it.
		const temp = join(storeDir, "tmp");
		const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
		for (const name of readdirSync(temp)) utimesSync(join(temp, name), twoHoursAgo, twoHoursAgo);
		expect(new BlobStore(storeDir, 1e12).usedBytes).toBe(0);
		expect(readdirSync(storeDir)).toEqual([]);
	});

	it("leaves its committed pack to the next process opening the store, which releases it as its own", async () => {
		const storeDir = join(tempDir(), "store");
		const child = startSourcesInChild(COMMITTING_CHILD(storeDir));
		children.push(child);
		await child.waitForLine("COMMITTED");
		const referenced = hashContent(Buffer.from("referenced by the session"));
		const scratch = hashContent(Buffer.from("scratch"));
		// While the writer lives, its pack is its own: another process does not keep what it needs from it.
		expect(new BlobStore(storeDir, 1e12).holdsLastingly(referenced)).toBe(false);
		await child.killHard();
		const next = new BlobStore(storeDir, 1e12);
		expect(next.holdsLastingly(referenced)).toBe(true);
		// Its index now names the process that took it over, so nobody else takes it over meanwhile.
		const [index] = readdirSync(join(storeDir, "packs")).filter((name) => name.endsWith(".idx"));
		expect(JSON.parse(readFileSync(join(storeDir, "packs", index), "utf8")).writer.pid).toBe(process.pid);
		next.releasePacks(new Set([referenced]));
		expect(readdirSync(join(storeDir, "packs"))).toEqual([]);
		expect(next.read(referenced)?.toString()).toBe("referenced by the session");
		expect(next.has(scratch)).toBe(false);
	});
});
