import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BlobStore, hashContent } from "../../src/core/checkpoints/blob-store.js";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "agent-blobs-"));
	dirs.push(dir);
	return dir;
}

function loosePath(storeDir: string, hash: string): string {
	return join(storeDir, "blobs", hash.slice(0, 2), hash.slice(2));
}

describe("the checkpoint store", () => {
	it("keeps a content once, under its SHA-256", () => {
		const dir = join(tempDir(), "store");
		const store = new BlobStore(dir, 1_000_000);
		const first = store.put(Buffer.from("same"));
		const second = store.put(Buffer.from("same"));
		expect(first).toEqual({ hash: hashContent(Buffer.from("same")) });
		expect(second).toEqual(first);
		expect(store.usedBytes).toBe(4);
		expect(readdirSync(join(dir, "blobs")).length).toBe(1);
		expect(store.read((first as { hash: string }).hash)?.toString()).toBe("same");
	});

	it("removes temp files an interrupted write left an hour ago when it opens, and never reads them", () => {
		const dir = join(tempDir(), "store");
		mkdirSync(join(dir, "tmp"), { recursive: true });
		const hash = hashContent(Buffer.from("complete content"));
		const leftover = join(dir, "tmp", `${hash}.abcd.tmp`);
		writeFileSync(leftover, "compl");
		const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
		utimesSync(leftover, twoHoursAgo, twoHoursAgo);
		// Another process's write in progress: young, kept.
		const inProgress = join(dir, "tmp", "pack-y.pack.tmp");
		writeFileSync(inProgress, "being written");
		const store = new BlobStore(dir, 1_000_000);
		expect(store.has(hash)).toBe(false);
		expect(existsSync(leftover)).toBe(false);
		expect(existsSync(inProgress)).toBe(true);
	});

	it("never uses a blob whose content does not match its name", () => {
		const dir = join(tempDir(), "store");
		const content = Buffer.from("the real content");
		const hash = hashContent(content);
		mkdirSync(join(dir, "blobs", hash.slice(0, 2)), { recursive: true });
		// Half of it: what a crash on a file system that reorders writes could leave.
		writeFileSync(loosePath(dir, hash), content.subarray(0, 8));
		const store = new BlobStore(dir, 1_000_000);
		expect(store.has(hash)).toBe(true);
		expect(store.read(hash)).toBeUndefined();
	});

	it("refuses contents past its limit and says so", () => {
		const store = new BlobStore(join(tempDir(), "store"), 10);
		expect(store.put(Buffer.from("12345"))).toHaveProperty("hash");
		expect(store.hasRefused).toBe(false);
		expect(store.put(Buffer.from("678901"))).toEqual({ full: true });
		expect(store.hasRefused).toBe(true);
		expect(store.usedBytes).toBe(5);
	});

	it("writes many contents as one pack, usable only once committed", () => {
		const dir = join(tempDir(), "store");
		const store = new BlobStore(dir, 1_000_000);
		const pack = store.beginPack();
		const contents = ["alpha", "beta", "gamma"].map((text) => Buffer.from(text));
		for (const content of contents) expect(pack.add(hashContent(content), content)).toBe(true);
		expect(store.has(hashContent(contents[0] as Buffer))).toBe(false);
		pack.commit();
		for (const content of contents) expect(store.read(hashContent(content))).toEqual(content);
		const reopened = new BlobStore(dir, 1_000_000);
		for (const content of contents) expect(reopened.read(hashContent(content))).toEqual(content);
		expect(reopened.usedBytes).toBe(contents.reduce((sum, content) => sum + content.length, 0));
	});

	it("lets another process open the store while a pack is being written (a fork of a live session)", () => {
		const dir = join(tempDir(), "store");
		const content = Buffer.from("part of a live baseline");
		const writer = new BlobStore(dir, 1_000_000);
		const pack = writer.beginPack();
		pack.add(hashContent(content), content);
		expect(new BlobStore(dir, 1_000_000).has(hashContent(content))).toBe(false);
		pack.commit();
		expect(writer.read(hashContent(content))?.toString()).toBe("part of a live baseline");
	});

	it("never reads a pack whose index was never written, and drops it once stale", () => {
		const dir = join(tempDir(), "store");
		mkdirSync(join(dir, "packs"), { recursive: true });
		const orphan = join(dir, "packs", "pack-x.pack");
		writeFileSync(orphan, "orphan bytes");
		// Young: perhaps a process between its two renames; not read, not removed.
		expect(new BlobStore(dir, 1_000_000).usedBytes).toBe(0);
		expect(existsSync(orphan)).toBe(true);
		const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
		utimesSync(orphan, twoHoursAgo, twoHoursAgo);
		expect(new BlobStore(dir, 1_000_000).usedBytes).toBe(0);
		expect(existsSync(orphan)).toBe(false);
	});

	it("copies contents from another store, hard-linking loose blobs", () => {
		const from = new BlobStore(join(tempDir(), "a"), 1_000_000);
		const to = new BlobStore(join(tempDir(), "b"), 1_000_000);
		const loose = from.put(Buffer.from("loose")) as { hash: string };
		const pack = from.beginPack();
		const packedContent = Buffer.from("packed");
		pack.add(hashContent(packedContent), packedContent);
		pack.commit();
		expect(to.importFrom(from, [loose.hash, hashContent(packedContent), "0".repeat(64)])).toEqual(["0".repeat(64)]);
		expect(to.read(loose.hash)?.toString()).toBe("loose");
		expect(to.read(hashContent(packedContent))?.toString()).toBe("packed");
		expect(statSync(loosePath(to.dir, loose.hash)).ino).toBe(statSync(loosePath(from.dir, loose.hash)).ino);
	});

	it("drops its own packs when released, keeping as loose blobs the contents asked for", () => {
		const dir = join(tempDir(), "store");
		const store = new BlobStore(dir, 1_000_000);
		const kept = Buffer.from("referenced");
		const pack = store.beginPack();
		pack.add(hashContent(kept), kept);
		pack.add(hashContent(Buffer.from("scratch")), Buffer.from("scratch"));
		pack.commit();
		store.releasePacks(new Set([hashContent(kept)]));
		expect(readdirSync(join(dir, "packs"))).toEqual([]);
		expect(existsSync(loosePath(dir, hashContent(kept)))).toBe(true);
		expect(store.has(hashContent(Buffer.from("scratch")))).toBe(false);
		expect(store.read(hashContent(kept))?.toString()).toBe("referenced");
		expect(store.usedBytes).toBe(kept.length);
		// Nothing asked for: nothing is left, not even the directory.
		const empty = join(tempDir(), "empty");
		const other = new BlobStore(empty, 1_000_000);
		const scratch = other.beginPack();
		scratch.add(hashContent(Buffer.from("x")), Buffer.from("x"));
		scratch.commit();
		other.releasePacks(new Set());
		expect(existsSync(empty)).toBe(false);
	});

	it("abandons a pack still being written when released, leaving nothing behind", () => {
		const dir = join(tempDir(), "store");
		const store = new BlobStore(dir, 1_000_000);
		const pack = store.beginPack();
		pack.add(hashContent(Buffer.from("half a baseline")), Buffer.from("half a baseline"));
		expect(readdirSync(join(dir, "tmp"))).toHaveLength(1);
		store.releasePacks(new Set());
		expect(existsSync(dir)).toBe(false);
		// The walk that was writing it then stops and aborts: nothing to do.
		pack.abort();
	});

	it("hands its own packs over to another store, which then owns them", () => {
		const from = new BlobStore(join(tempDir(), "from"), 1_000_000);
		const to = new BlobStore(join(tempDir(), "to"), 1_000_000);
		const kept = Buffer.from("referenced by the first session");
		const baseline = Buffer.from("baseline only");
		const pack = from.beginPack();
		pack.add(hashContent(kept), kept);
		pack.add(hashContent(baseline), baseline);
		pack.commit();
		from.handOverPacks(to, new Set([hashContent(kept)]));
		expect(from.has(hashContent(baseline))).toBe(false);
		expect(from.read(hashContent(kept))?.toString()).toBe("referenced by the first session");
		expect(to.read(hashContent(baseline))?.toString()).toBe("baseline only");
		to.releasePacks(new Set());
		expect(to.has(hashContent(baseline))).toBe(false);
	});

	it("commits a pack handed over while being written into the store it went to, leaving nothing behind", () => {
		const from = new BlobStore(join(tempDir(), "first"), 1_000_000);
		const to = new BlobStore(join(tempDir(), "second"), 1_000_000);
		const content = Buffer.from("read while the session switched");
		const pack = from.beginPack();
		pack.add(hashContent(content), content);
		from.handOverPacks(to, new Set());
		pack.commit();
		expect(to.holdsLastingly(hashContent(content))).toBe(true);
		expect(to.read(hashContent(content))?.toString()).toBe("read while the session switched");
		expect(existsSync(from.dir)).toBe(false);
		// The next session's end drops it as its own.
		to.releasePacks(new Set());
		expect(existsSync(to.dir)).toBe(false);
	});

	it("abandons a pack handed over while being written when the next session ends first", () => {
		const from = new BlobStore(join(tempDir(), "first"), 1_000_000);
		const to = new BlobStore(join(tempDir(), "second"), 1_000_000);
		const pack = from.beginPack();
		pack.add(hashContent(Buffer.from("half a baseline")), Buffer.from("half a baseline"));
		from.handOverPacks(to, new Set());
		to.releasePacks(new Set());
		expect(existsSync(from.dir)).toBe(false);
		pack.abort();
	});

	it("never leans on another process's pack: it packs those contents again, and reads one that went loose", () => {
		const dir = join(tempDir(), "store");
		const content = Buffer.from("in both baselines");
		const hash = hashContent(content);
		// Another process's baseline, in the store when this one opens it.
		const theirs = new BlobStore(dir, 1_000_000);
		const theirPack = theirs.beginPack();
		theirPack.add(hash, content);
		theirPack.commit();
		const ours = new BlobStore(dir, 1_000_000);
		expect(ours.has(hash)).toBe(true);
		const ourPack = ours.beginPack();
		ourPack.add(hash, content);
		ourPack.commit();
		expect(readdirSync(join(dir, "packs")).filter((name) => name.endsWith(".pack"))).toHaveLength(2);
		// Their session ends, keeping the content loose; a third reader that mapped their pack still reads it.
		const reader = new BlobStore(dir, 1_000_000);
		expect(reader.has(hash)).toBe(true);
		theirs.releasePacks(new Set([hash]));
		ours.releasePacks(new Set());
		expect(reader.read(hash)?.toString()).toBe("in both baselines");
	});

	it("stores again, to keep it, a content it has only in another process's pack", () => {
		const dir = join(tempDir(), "store");
		const content = Buffer.from("only in their pack");
		const hash = hashContent(content);
		const theirs = new BlobStore(dir, 1_000_000);
		const pack = theirs.beginPack();
		pack.add(hash, content);
		pack.commit();
		const ours = new BlobStore(dir, 1_000_000);
		expect([ours.has(hash), ours.holdsLastingly(hash)]).toEqual([true, false]);
		expect(ours.importFrom(ours, [hash])).toEqual([]);
		expect(ours.holdsLastingly(hash)).toBe(true);
		theirs.releasePacks(new Set());
		expect(ours.read(hash)?.toString()).toBe("only in their pack");
	});

	it.skipIf(process.platform !== "linux")(
		"takes over a pack written under its own pid by a process that started earlier (a pid reused)",
		() => {
			const dir = join(tempDir(), "store");
			const content = Buffer.from("an earlier process's baseline");
			const pack = new BlobStore(dir, 1_000_000).beginPack();
			pack.add(hashContent(content), content);
			pack.commit();
			const [indexName] = readdirSync(join(dir, "packs")).filter((name) => name.endsWith(".idx"));
			const indexPath = join(dir, "packs", indexName);
			const index = JSON.parse(readFileSync(indexPath, "utf8"));
			// Written by this process: not taken over.
			expect(new BlobStore(dir, 1_000_000).holdsLastingly(hashContent(content))).toBe(false);
			writeFileSync(indexPath, JSON.stringify({ ...index, writer: { ...index.writer, startTime: "1" } }));
			const next = new BlobStore(dir, 1_000_000);
			expect(next.holdsLastingly(hashContent(content))).toBe(true);
			next.releasePacks(new Set());
			expect(existsSync(dir)).toBe(false);
		},
	);

	it("takes over no pack whose writer it cannot tell ended: alive, on another machine, or not recorded", () => {
		const content = Buffer.from("their baseline");
		const hash = hashContent(content);
		const writers: Record<string, unknown> = {
			"a live process": { host: hostname(), pid: process.ppid },
			"another machine": { host: `not-${hostname()}`, pid: 999_999_999 },
			"an older version": undefined,
		};
		for (const [who, writer] of Object.entries(writers)) {
			const dir = join(tempDir(), "store");
			const pack = new BlobStore(dir, 1_000_000).beginPack();
			pack.add(hash, content);
			pack.commit();
			const [indexName] = readdirSync(join(dir, "packs")).filter((name) => name.endsWith(".idx"));
			const indexPath = join(dir, "packs", indexName);
			const index = JSON.parse(readFileSync(indexPath, "utf8"));
			expect(index.writer).toMatchObject({ host: hostname(), pid: process.pid });
			writeFileSync(indexPath, JSON.stringify({ ...index, writer }));
			const next = new BlobStore(dir, 1_000_000);
			expect([who, next.holdsLastingly(hash)]).toEqual([who, false]);
			next.releasePacks(new Set());
			expect([who, readdirSync(join(dir, "packs")).length]).toEqual([who, 2]);
		}
	});
});
