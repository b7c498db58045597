// The working-tree index bash commands are compared against: what it tracks, what it never opens or follows,
// its file limit, and that looking at reported paths and rescanning the tree find the same changes.
import { execFileSync } from "node:child_process";
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	realpathSync,
	renameSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BlobStore } from "../../src/core/checkpoints/blob-store.js";
import { readFileNoFollow } from "../../src/core/checkpoints/file-state.js";
import { type ObservedChange, WorkingTreeIndex } from "../../src/core/checkpoints/tree-index.js";
import { writeFiles } from "../helpers/checkpoint-fixtures.js";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(files: Record<string, string>, options: { maxFiles?: number } = {}) {
	const base = realpathSync(mkdtempSync(join(tmpdir(), "agent-tree-index-")));
	dirs.push(base);
	const root = join(base, "project");
	mkdirSync(root);
	writeFiles(root, files);
	const store = new BlobStore(join(base, "store"), 1e9);
	const limits: number[] = [];
	const create = () =>
		new WorkingTreeIndex({
			root,
			store: () => store,
			maxFileBytes: 1024 * 1024,
			maxFiles: options.maxFiles ?? 100_000,
			excluded: () => new Set(),
			onFileLimit: (max) => limits.push(max),
		});
	return { base, root, store, limits, create };
}

const paths = (index: WorkingTreeIndex) => [...index.entries.keys()].sort();
const summary = (changes: ObservedChange[]) =>
	changes.map((change) => `${change.before === null ? "+" : change.after === null ? "-" : "~"}${change.path}`).sort();

describe("the working-tree index", () => {
	it("writes nothing into the store when stopped before the walk begins (a session disposed at once)", async () => {
		const t = setup({ "a.txt": "a" });
		const index = t.create();
		const stop = new AbortController();
		const building = index.build(stop.signal);
		stop.abort();
		await expect(building).rejects.toThrow();
		expect(index.isBuilt).toBe(false);
		expect(existsSync(join(t.base, "store"))).toBe(false);
	});

	it("honours ignore files (nested, and those above the tree) and skips .git and node_modules", async () => {
		const t = setup({
			"src/a.ts": "a",
			"src/gen/out.ts": "generated",
			"src/.gitignore": "gen/\n",
			".ignore": "*.tmp\n",
			"notes.tmp": "x",
			"node_modules/lib/index.js": "lib",
			"packages/p/node_modules/x.js": "x",
			".git/HEAD": "ref",
		});
		writeFileSync(join(t.base, ".gitignore"), "secret.txt\n");
		writeFileSync(join(t.root, "secret.txt"), "s");
		const index = t.create();
		await index.build();
		expect(paths(index)).toEqual([".ignore", "packages", "packages/p", "src", "src/.gitignore", "src/a.ts"]);
	});

	it("never tracks the temp file of an edit or write in progress, walking or told of it", async () => {
		const temp = ".a.txt.0d12423a87cc.tmp";
		const t = setup({ "a.txt": "a", [temp]: "half written" });
		const index = t.create();
		await index.build();
		expect(paths(index)).toEqual(["a.txt"]);
		const another = ".b.txt.a1b2c3d4e5f6.tmp";
		writeFileSync(join(t.root, another), "b");
		expect(index.refreshPaths([another])).toEqual([]);
		renameSync(join(t.root, another), join(t.root, "b.txt"));
		expect(summary(index.refreshPaths([another, "b.txt"]))).toEqual(["+b.txt"]);
	});

	it("records links by their target without following them, and never opens FIFOs or devices", async () => {
		const t = setup({ "a.txt": "a" });
		const outside = join(t.base, "outside");
		mkdirSync(outside);
		writeFiles(outside, { "inner.txt": "not tracked" });
		symlinkSync(outside, join(t.root, "out"));
		symlinkSync("/dev/zero", join(t.root, "zero"));
		execFileSync("mkfifo", [join(t.root, "pipe")]);
		const index = t.create();
		await index.build();
		expect(paths(index)).toEqual(["a.txt", "out", "zero"]);
		expect(index.stateOf("out")).toEqual({ link: outside });
		expect(index.stateOf("zero")).toEqual({ link: "/dev/zero" });
		// A FIFO put where a file was is not read either.
		rmSync(join(t.root, "a.txt"));
		execFileSync("mkfifo", [join(t.root, "a.txt")]);
		expect(summary(index.refreshPaths(["a.txt"]))).toEqual(["-a.txt"]);
	});

	it("finds the same changes by the paths reported to it as by rescanning the tree", async () => {
		const files = { "a.txt": "a", "b.txt": "b", "dir/c.txt": "c", "dir/sub/d.txt": "d", "e.txt": "e" };
		const t = setup(files);
		const byPaths = t.create();
		const byScan = t.create();
		await byPaths.build();
		await byScan.build();
		writeFileSync(join(t.root, "a.txt"), "changed");
		rmSync(join(t.root, "b.txt"));
		renameSync(join(t.root, "dir"), join(t.root, "moved"));
		writeFiles(t.root, { "new/deep/f.txt": "f" });
		renameSync(join(t.root, "e.txt"), join(t.root, "e2.txt"));
		const expected = [
			"+e2.txt",
			"+moved",
			"+moved/c.txt",
			"+moved/sub",
			"+moved/sub/d.txt",
			"+new",
			"+new/deep",
			"+new/deep/f.txt",
			"-b.txt",
			"-dir",
			"-dir/c.txt",
			"-dir/sub",
			"-dir/sub/d.txt",
			"-e.txt",
			"~a.txt",
		];
		expect(summary(byPaths.refreshPaths(["a.txt", "b.txt", "dir", "moved", "new", "e.txt", "e2.txt"]))).toEqual(
			expected,
		);
		expect(summary(byScan.rescanSubtree(""))).toEqual(expected);
		expect(paths(byPaths)).toEqual(paths(byScan));
	});

	it("does not report files that new ignore rules hide or reveal", async () => {
		const t = setup({ "a.log": "a", "b.txt": "b" });
		const index = t.create();
		await index.build();
		writeFileSync(join(t.root, ".gitignore"), "*.log\n");
		expect(summary(index.refreshPaths([".gitignore"]))).toEqual(["+.gitignore"]);
		expect(paths(index)).toEqual([".gitignore", "b.txt"]);
		writeFileSync(join(t.root, ".gitignore"), "");
		expect(summary(index.refreshPaths([".gitignore"]))).toEqual(["~.gitignore"]);
		expect(paths(index)).toEqual([".gitignore", "a.log", "b.txt"]);
	});

	it("stops at its file limit, says so once, and never takes a file it did not index for a new one", async () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 10; i++) files[`f${i}.txt`] = String(i);
		const t = setup(files, { maxFiles: 4 });
		const index = t.create();
		await index.build();
		expect(index.trackedFiles).toBe(4);
		expect(t.limits).toEqual([4]);
		const unindexed = Object.keys(files).find((path) => !index.entries.has(path)) as string;
		writeFileSync(join(t.root, unindexed), "changed");
		expect(index.refreshPaths([unindexed])).toEqual([]);
		expect(index.rescanSubtree("")).toEqual([]);
		expect(t.limits).toEqual([4]);
	});
});

describe("reading a file once for the index", () => {
	it("keeps a file of exactly the size limit, not one of a byte more, and gives the stat of what it opened", () => {
		const t = setup({ "empty.txt": "", "exact.txt": "12345", "over.txt": "123456" });
		const empty = readFileNoFollow(join(t.root, "empty.txt"), 5);
		expect(empty.content).toEqual(Buffer.alloc(0));
		const exact = readFileNoFollow(join(t.root, "exact.txt"), 5);
		expect(exact.content?.toString()).toBe("12345");
		expect(exact.stats.size).toBe(5);
		const over = readFileNoFollow(join(t.root, "over.txt"), 5);
		expect(over.content).toBeUndefined();
		expect(over.stats.size).toBe(6);
	});

	it("refuses a link and a FIFO instead of following or waiting on them", () => {
		const t = setup({ "a.txt": "a" });
		symlinkSync("a.txt", join(t.root, "link"));
		execFileSync("mkfifo", [join(t.root, "pipe")]);
		expect(() => readFileNoFollow(join(t.root, "link"), 5)).toThrow();
		expect(() => readFileNoFollow(join(t.root, "pipe"), 5)).toThrow(/not a regular file/);
	});
});
