import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLsTool, type LsOperations, type LsToolDetails } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { errorOf, run, textOf, useTempDir, writeTree } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-ls-");
const ls = (args: Record<string, unknown> = {}) => run<LsToolDetails | undefined>(createLsTool(tempDir()), args);

describe("listing", () => {
	it("lists dotfiles and marks directories with /", async () => {
		writeTree(tempDir(), { ".hidden-file": "", ".hidden-dir/inner.txt": "", "visible.txt": "" });
		const result = await ls();
		expect(textOf(result)).toBe(".hidden-dir/\n.hidden-file\nvisible.txt");
		expect(result.details).toBeUndefined();
	});

	it("says so for an empty directory", async () => {
		mkdirSync(join(tempDir(), "empty"));
		expect(textOf(await ls({ path: "empty" }))).toBe("(empty directory)");
	});

	it("sorts case-insensitively", async () => {
		writeTree(tempDir(), { "Zebra.txt": "", "apple.txt": "", "Banana.txt": "" });
		expect(textOf(await ls())).toBe("apple.txt\nBanana.txt\nZebra.txt");
	});

	it("marks a symlink to a directory with / and skips a dangling symlink", async () => {
		mkdirSync(join(tempDir(), "real"));
		symlinkSync(join(tempDir(), "real"), join(tempDir(), "alias"));
		symlinkSync(join(tempDir(), "nowhere"), join(tempDir(), "dangling"));
		expect(textOf(await ls())).toBe("alias/\nreal/");
	});
});

describe("errors and limits", () => {
	it("refuses a file", async () => {
		writeFileSync(join(tempDir(), "file.txt"), "");
		expect(await errorOf(ls({ path: "file.txt" }))).toBe(`Not a directory: ${join(tempDir(), "file.txt")}`);
	});

	it("reports a missing path with its absolute form", async () => {
		expect(await errorOf(ls({ path: "nope" }))).toBe(`Path not found: ${join(tempDir(), "nope")}`);
	});

	it("stops at 500 of 600 entries and says how to see more", async () => {
		for (let i = 0; i < 600; i++) writeFileSync(join(tempDir(), `f${String(i).padStart(3, "0")}.txt`), "");
		const result = await ls();
		const [listing, notice] = textOf(result).split("\n\n");
		expect(listing.split("\n")).toHaveLength(500);
		expect(listing.split("\n").at(-1)).toBe("f499.txt");
		expect(notice).toBe("[500 entries limit reached. Use limit=1000 for more]");
		expect(result.details).toEqual({ entryLimitReached: 500 });
	});

	it("does not claim a limit was reached when exactly the limit exists", async () => {
		writeTree(tempDir(), { a: "", b: "" });
		expect(await ls({ limit: 2 })).toEqual({ content: [{ type: "text", text: "a\nb" }], details: undefined });
	});

	it("cuts the listing at 50KB and says so", async () => {
		for (let i = 0; i < 300; i++)
			writeFileSync(join(tempDir(), `${String(i).padStart(3, "0")}${"n".repeat(200)}`), "");
		const result = await ls();
		expect(textOf(result).endsWith("\n\n[50.0KB limit reached]")).toBe(true);
		expect(result.details?.truncation?.truncatedBy).toBe("bytes");
	});

	// Wrong argument types: tool-argument-validation.test.ts, with the other tools.
});

describe("custom operations", () => {
	it("lists through injected operations", async () => {
		const operations: LsOperations = {
			exists: () => true,
			stat: (p) => ({ isDirectory: () => p === "/remote" || p.endsWith("/sub") }),
			readdir: () => ["b.txt", "sub", "A.md"],
		};
		expect(textOf(await run(createLsTool("/remote", { operations }), {}))).toBe("A.md\nb.txt\nsub/");
	});
});
