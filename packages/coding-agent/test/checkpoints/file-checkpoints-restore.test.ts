// Restoring files to points of a branched session tree, in real temp directories: with and without git, with
// file-system notifications and with the scanning fallback.
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
	bash,
	checkpointEntries,
	createCheckpointHarness,
	edit,
	isGitAvailable,
	readTree,
	runTurn,
	toolCalls,
	userEntryId,
	write,
} from "../helpers/checkpoint-fixtures.js";
import type { RuntimeHarness } from "../helpers/runtime-harness.js";

let harness: RuntimeHarness | undefined;
const cleanups: (() => void)[] = [];
afterEach(() => {
	harness?.dispose();
	harness = undefined;
	for (const cleanup of cleanups.splice(0)) cleanup();
});

const variants = [
	{ name: "watching, without git", watch: true, git: false },
	{ name: "scanning, without git", watch: false, git: false },
	...(isGitAvailable()
		? [
				{ name: "watching, in a git repository", watch: true, git: true },
				{ name: "scanning, in a git repository", watch: false, git: true },
			]
		: []),
];

describe.each(variants)("a branched session ($name)", ({ watch, git }) => {
	it("restores the files of each point: edits, writes, created, changed, deleted and renamed files", async () => {
		harness = await createCheckpointHarness({
			files: { "a.txt": "v0\n", "keep.txt": "keep\n" },
			git,
			settings: { checkpoints: { watch } },
		});
		const h = harness;
		const tree = () => readTree(h.cwd);
		const start = tree();

		await runTurn(h, "t1", toolCalls(edit("a.txt", "v0", "v1")), toolCalls(bash("echo one > one.txt")));
		const afterT1 = tree();
		await runTurn(h, "t2", toolCalls(bash("mv one.txt uno.txt && rm a.txt && echo changed >> keep.txt")));
		const afterT2 = tree();
		const endOfFirstBranch = h.sessionManager.getLeafId() as string;
		expect(afterT2).toEqual({ "keep.txt": "keep\nchanged\n", "uno.txt": "one\n" });

		// Back to before t2: its changes are undone.
		let result = await h.session.navigateTree(userEntryId(h, "t2"), { restoreFiles: true });
		expect(result.files).toMatchObject({ conflicts: [], unrestorable: [] });
		expect([...(result.files?.restored ?? [])].sort()).toEqual(["a.txt", "keep.txt", "one.txt"]);
		expect(result.files?.removed).toEqual(["uno.txt"]);
		expect(tree()).toEqual(afterT1);

		// A second branch from there.
		await runTurn(
			h,
			"t2b",
			toolCalls(write("b.txt", "bee\n")),
			toolCalls(bash("mkdir -p d/e && echo deep > d/e/f.txt && printf 'bin\\0ary' > blob.bin")),
		);
		const afterT2b = tree();
		const endOfSecondBranch = h.sessionManager.getLeafId() as string;

		// To the end of the first branch: the second branch's files go, the first branch's come back.
		result = await h.session.navigateTree(endOfFirstBranch, { restoreFiles: true });
		expect(result.files?.conflicts).toEqual([]);
		expect(tree()).toEqual(afterT2);
		expect(existsSync(join(h.cwd, "d"))).toBe(false);

		// To the very beginning.
		result = await h.session.navigateTree(userEntryId(h, "t1"), { restoreFiles: true });
		expect(result.files?.conflicts).toEqual([]);
		expect(tree()).toEqual(start);

		// And to the end of the second branch.
		result = await h.session.navigateTree(endOfSecondBranch, { restoreFiles: true });
		expect(result.files?.conflicts).toEqual([]);
		expect(tree()).toEqual(afterT2b);
		expect(readFileSync(join(h.cwd, "blob.bin"))).toEqual(Buffer.from("bin\0ary"));
	});

	it("treats a file changed outside the agent as a conflict: nothing is written unless forced", async () => {
		harness = await createCheckpointHarness({
			files: { "a.txt": "v0\n", "b.txt": "b0\n" },
			git,
			settings: { checkpoints: { watch } },
		});
		const h = harness;
		await runTurn(h, "t1", toolCalls(edit("a.txt", "v0", "v1"), edit("b.txt", "b0", "b1")));
		writeFileSync(join(h.cwd, "a.txt"), "edited by hand\n");
		const leaf = h.sessionManager.getLeafId();

		const refused = await h.session.navigateTree(userEntryId(h, "t1"), { restoreFiles: true });
		expect(refused.cancelled).toBe(true);
		expect(refused.files).toMatchObject({ restored: [], removed: [], conflicts: ["a.txt"] });
		expect(refused.files?.diffs?.[0]?.diff).toContain("edited by hand");
		expect(h.sessionManager.getLeafId()).toBe(leaf);
		expect(readTree(h.cwd)).toEqual({ "a.txt": "edited by hand\n", "b.txt": "b1\n" });

		const forced = await h.session.navigateTree(userEntryId(h, "t1"), { restoreFiles: true, forceRestore: true });
		expect(forced.cancelled).toBe(false);
		expect([...(forced.files?.restored ?? [])].sort()).toEqual(["a.txt", "b.txt"]);
		expect(readTree(h.cwd)).toEqual({ "a.txt": "v0\n", "b.txt": "b0\n" });
	});
});

describe("paths outside the usual", () => {
	it("records and restores a file written outside the working directory", async () => {
		harness = await createCheckpointHarness({ files: { "a.txt": "a\n" } });
		const h = harness;
		const outside = join(h.root, "outside", "x.txt");
		await runTurn(h, "t1", toolCalls(write(outside, "far away\n")));
		const files = checkpointEntries(h.sessionManager.getEntries()).flatMap((entry) => entry.files.map((f) => f.path));
		// Recorded by its absolute path (the folder it created too).
		expect(files.sort()).toEqual([join(h.root, "outside"), outside]);

		const result = h.session.restoreFiles(userEntryIdParent(h, "t1"));
		expect(result.removed).toEqual([outside]);
		expect(existsSync(join(h.root, "outside"))).toBe(false);
	});

	it("follows an edit through a symlink to its target, restores links as links, and never writes through a linked directory", async () => {
		const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), "agent-elsewhere-")));
		cleanups.push(() => rmSync(elsewhere, { recursive: true, force: true }));
		writeFileSync(join(elsewhere, "theirs.txt"), "not ours\n");
		harness = await createCheckpointHarness({ files: { "real.txt": "r0\n", "d/f.txt": "f0\n" } });
		const h = harness;
		symlinkSync("real.txt", join(h.cwd, "link.txt"));
		symlinkSync(elsewhere, join(h.cwd, "ext"));

		await runTurn(h, "t1", toolCalls(edit("link.txt", "r0", "r1")));
		const edited = checkpointEntries(h.sessionManager.getEntries()).flatMap((entry) =>
			entry.files.map((f) => f.path),
		);
		expect(edited).toEqual(["real.txt"]);

		await runTurn(
			h,
			"t2",
			toolCalls(bash("ln -s real.txt link2.txt && rm link.txt && echo new > ext/new.txt && echo f1 > d/f.txt")),
		);
		// Nothing behind the link to the other directory is looked at.
		const changed = checkpointEntries(h.sessionManager.getEntries())
			.flatMap((entry) => entry.files.map((f) => f.path))
			.sort();
		expect(changed).toEqual(["d/f.txt", "link.txt", "link2.txt", "real.txt"]);

		// `d` becomes a link to the other directory: restoring d/f.txt would write there, so it is left alone.
		rmSync(join(h.cwd, "d"), { recursive: true });
		symlinkSync(elsewhere, join(h.cwd, "d"));
		const result = h.session.restoreFiles(userEntryIdParent(h, "t1"), { force: true });
		expect(result.unrestorable).toEqual(["d/f.txt"]);
		expect(readTree(h.cwd)).toMatchObject({ "real.txt": "r0\n", "link.txt": "-> real.txt" });
		expect(existsSync(join(h.cwd, "link2.txt"))).toBe(false);
		expect(readTree(elsewhere)).toEqual({ "theirs.txt": "not ours\n", "new.txt": "new\n" });
	});

	it("leaves ignored files, node_modules and .git out of what bash records", async () => {
		harness = await createCheckpointHarness({ files: { ".gitignore": "dist/\n*.log\n", "src/a.ts": "a\n" } });
		const h = harness;
		mkdirSync(join(h.cwd, ".git"));
		await runTurn(
			h,
			"t1",
			toolCalls(
				bash(
					"mkdir -p dist node_modules/x && echo 1 > dist/out.js && echo 2 > x.log && echo 3 > node_modules/x/i.js && echo 4 > .git/HEAD && echo 5 > src/b.ts",
				),
			),
		);
		const changed = checkpointEntries(h.sessionManager.getEntries()).flatMap((entry) =>
			entry.files.map((f) => f.path),
		);
		expect(changed).toEqual(["src/b.ts"]);
	});
});

/** The entry before the user message `text` (the point "before that turn"). */
function userEntryIdParent(h: RuntimeHarness, text: string): string {
	const parent = h.sessionManager.getEntry(userEntryId(h, text))?.parentId;
	if (!parent) throw new Error(`user message "${text}" has no parent`);
	return parent;
}
