import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { comparePaths, visitDirectory, walkDirectory } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { useTempDir, writeTree } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-walk-");
const listing = async (root = tempDir()) =>
	(await walkDirectory(root)).map((entry) =>
		entry.kind === "directory" ? `${entry.relativePath}/` : entry.relativePath,
	);

describe("walkDirectory", () => {
	it("lists hidden entries, sorted, and skips .git", async () => {
		writeTree(tempDir(), { ".git/HEAD": "", ".env": "", "b/c.txt": "", "a.txt": "" });
		expect(await listing()).toEqual([".env", "a.txt", "b/", "b/c.txt"]);
	});

	it("visits depth-first in path order, a directory's contents right after it", async () => {
		writeTree(tempDir(), { "a-b": "", "a/z": "", "a/b/c": "", B: "" });
		expect(await listing()).toEqual(["B", "a/", "a/b/", "a/b/c", "a/z", "a-b"]);
		expect(["a-b", "a/z", "a/", "B"].sort(comparePaths)).toEqual(["B", "a/", "a/z", "a-b"]);
	});

	it("stops when the visitor returns false", async () => {
		writeTree(tempDir(), { "1.txt": "", "2.txt": "", "3.txt": "" });
		const seen: string[] = [];
		await visitDirectory(tempDir(), (entry) => {
			seen.push(entry.relativePath);
			return seen.length < 2;
		});
		expect(seen).toEqual(["1.txt", "2.txt"]);
	});

	it("lets a deeper ignore file re-include what a shallower one ignores", async () => {
		writeTree(tempDir(), {
			".gitignore": "*.log\n",
			"keep/.gitignore": "!important.log\n",
			"keep/important.log": "",
			"x.log": "",
		});
		expect(await listing()).toEqual([".gitignore", "keep/", "keep/.gitignore", "keep/important.log"]);
	});

	it("gives .ignore precedence over .gitignore in the same directory", async () => {
		writeTree(tempDir(), { ".gitignore": "notes.md\n", ".ignore": "!notes.md\n", "notes.md": "" });
		expect(await listing()).toContain("notes.md");
	});

	it("does not descend into ignored directories, so their files cannot be re-included", async () => {
		writeTree(tempDir(), { ".gitignore": "vendor/\n!vendor/keep.txt\n", "vendor/keep.txt": "" });
		expect(await listing()).toEqual([".gitignore"]);
	});

	it("keeps the contents of a directory a deeper ignore file re-includes, whichever matcher the rules take", async () => {
		// `a` alone takes the name-only fast path; `/x` beside it needs node-ignore, which on its own would also
		// ignore everything inside an ignored `a`. Either way the walk answers as git and rg do.
		for (const rootRules of ["a\n", "a\n/x\n"]) {
			writeTree(tempDir(), {
				".gitignore": rootRules,
				"docs/.gitignore": "!a\n",
				"docs/a/page.md": "",
				"a/gone": "",
			});
			expect(await listing()).toEqual([".gitignore", "docs/", "docs/.gitignore", "docs/a/", "docs/a/page.md"]);
		}
	});

	it("matches ignore patterns case-sensitively, as git on Linux does", async () => {
		writeTree(tempDir(), { ".gitignore": "build/\n", "Build/x": "", "build/y": "" });
		expect(await listing()).toEqual([".gitignore", "Build/", "Build/x"]);
	});

	it("does not read .fdignore files, which only resource discovery honours", async () => {
		writeTree(tempDir(), { ".fdignore": "draft.md\n", "draft.md": "" });
		expect(await listing()).toEqual([".fdignore", "draft.md"]);
	});

	it("lists symlinks without following them", async () => {
		writeTree(tempDir(), { "real/file.txt": "" });
		symlinkSync(join(tempDir(), "real"), join(tempDir(), "loop"));
		symlinkSync(tempDir(), join(tempDir(), "real", "back-to-root"));
		const entries = await walkDirectory(tempDir());
		expect(entries.map((entry) => [entry.relativePath, entry.kind])).toEqual([
			["loop", "symlink"],
			["real", "directory"],
			["real/back-to-root", "symlink"],
			["real/file.txt", "file"],
		]);
	});

	it("returns nothing for an empty directory and rejects when aborted", async () => {
		mkdirSync(join(tempDir(), "empty"));
		expect(await listing(join(tempDir(), "empty"))).toEqual([]);
		const controller = new AbortController();
		controller.abort();
		await expect(walkDirectory(tempDir(), { signal: controller.signal })).rejects.toThrow("Operation aborted");
	});
});
