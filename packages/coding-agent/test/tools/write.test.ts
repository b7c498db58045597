import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEditTool, createWriteTool, type WriteOperations } from "@agent/coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorOf, isRoot, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-write-");
const write = (args: Record<string, unknown>) => run(createWriteTool(tempDir()), args);

describe("writing files", () => {
	it("creates a new file and reports the bytes written", async () => {
		const result = await write({ path: "new.txt", content: "hello world" });
		expect(textOf(result)).toBe("Successfully wrote 11 bytes to new.txt");
		expect(result.details).toBeUndefined();
		expect(readFileSync(join(tempDir(), "new.txt"), "utf8")).toBe("hello world");
	});

	it("overwrites an existing file", async () => {
		writeFileSync(join(tempDir(), "old.txt"), "old");
		await write({ path: "old.txt", content: "new" });
		expect(readFileSync(join(tempDir(), "old.txt"), "utf8")).toBe("new");
	});

	it("creates missing parent directories", async () => {
		await write({ path: "nested/deep/dir/test.txt", content: "hello" });
		expect(readFileSync(join(tempDir(), "nested/deep/dir/test.txt"), "utf8")).toBe("hello");
	});
});

describe("content", () => {
	it("writes an empty file", async () => {
		expect(textOf(await write({ path: "empty.txt", content: "" }))).toBe("Successfully wrote 0 bytes to empty.txt");
		expect(statSync(join(tempDir(), "empty.txt")).size).toBe(0);
	});

	it("writes multi-byte UTF-8 and counts bytes, not characters", async () => {
		const result = await write({ path: "utf8.txt", content: "你好 🌍" });
		expect(textOf(result)).toBe("Successfully wrote 11 bytes to utf8.txt");
		expect(readFileSync(join(tempDir(), "utf8.txt"), "utf8")).toBe("你好 🌍");
	});

	it("writes content of several 64 KB chunks whole, and an edit of it reads it back whole", async () => {
		const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i} ${"é".repeat(i % 7)}`).join("\n");
		await write({ path: "big.txt", content: lines });
		expect(readFileSync(join(tempDir(), "big.txt"), "utf8")).toBe(lines);
		await run(createEditTool(tempDir()), { path: "big.txt", oldText: "line 39999", newText: "last line" });
		expect(readFileSync(join(tempDir(), "big.txt"), "utf8")).toBe(lines.replace("line 39999", "last line"));
	});

	it("keeps line endings exactly as given", async () => {
		await write({ path: "crlf.txt", content: "a\r\nb\n" });
		expect(readFileSync(join(tempDir(), "crlf.txt"), "utf8")).toBe("a\r\nb\n");
	});
});

describe("safety and errors", () => {
	it.skipIf(isRoot)("rejects a directory without write permission with EACCES (skipped as root)", async () => {
		const locked = join(tempDir(), "locked");
		mkdirSync(locked);
		chmodSync(locked, 0o500);
		try {
			expect(await errorOf(write({ path: "locked/test.txt", content: "test" }))).toContain("EACCES");
		} finally {
			chmodSync(locked, 0o700);
		}
	});

	it("passes a permission error from the file system through unchanged", async () => {
		const operations: WriteOperations = {
			mkdir: async () => {},
			writeFile: async (p) =>
				Promise.reject(Object.assign(new Error(`EACCES: permission denied, open '${p}'`), { code: "EACCES" })),
		};
		expect(await errorOf(run(createWriteTool("/srv", { operations }), { path: "x.txt", content: "test" }))).toBe(
			"EACCES: permission denied, open '/srv/x.txt'",
		);
	});

	it("refuses to leave the working directory when confined", async () => {
		mkdirSync(join(tempDir(), "work"));
		const tool = createWriteTool(join(tempDir(), "work"), { confineToCwd: true });
		const message = await errorOf(run(tool, { path: "../../etc/crontab", content: "malicious" }));
		expect(message).toContain("Path is outside the working directory: ../../etc/crontab");
		expect(readdirSync(tempDir())).toEqual(["work"]);
		await run(tool, { path: "inside/ok.txt", content: "fine" });
		expect(readFileSync(join(tempDir(), "work/inside/ok.txt"), "utf8")).toBe("fine");
	});

	describe("home directory", () => {
		let savedHome: string | undefined;
		beforeEach(() => {
			savedHome = process.env.HOME;
		});
		afterEach(() => {
			process.env.HOME = savedHome;
		});

		it("expands ~/ to the home directory", async () => {
			process.env.HOME = tempDir();
			await run(createWriteTool("/"), { path: "~/output/result.txt", content: "data" });
			expect(readFileSync(join(tempDir(), "output/result.txt"), "utf8")).toBe("data");
		});
	});

	// Wrong argument types: tool-argument-validation.test.ts, with the other tools.
});

describe("atomic replacement", () => {
	it("keeps the mode of the file it replaces and leaves no temp file", async () => {
		const path = join(tempDir(), "run.sh");
		writeFileSync(path, "old");
		chmodSync(path, 0o700);
		await write({ path: "run.sh", content: "#!/bin/sh\n" });
		expect(statSync(path).mode & 0o777).toBe(0o700);
		expect(readdirSync(tempDir())).toEqual(["run.sh"]);
	});

	it("serialises concurrent writes of one file so the last call wins whole", async () => {
		const contents = Array.from({ length: 10 }, (_, i) => `${i}`.repeat(100_000));
		await Promise.all(contents.map((content) => write({ path: "race.txt", content })));
		expect(readFileSync(join(tempDir(), "race.txt"), "utf8")).toBe(contents[9]);
	});

	it("rejects with Operation aborted when the signal has fired, writing nothing", async () => {
		const controller = new AbortController();
		controller.abort();
		expect(await errorOf(run(createWriteTool(tempDir()), { path: "a.txt", content: "x" }, controller.signal))).toBe(
			"Operation aborted",
		);
		expect(readdirSync(tempDir())).toEqual([]);
	});
});
