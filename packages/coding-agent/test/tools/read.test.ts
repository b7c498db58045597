import { appendFileSync, chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createReadTool, type ReadOperations, type ReadToolDetails } from "@agent/coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openLocalReadableFile } from "../../src/core/tools/read.js";
import { errorOf, isRoot, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-read-");
const numberedLines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

function file(name: string, content: string | Buffer): string {
	const path = join(tempDir(), name);
	writeFileSync(path, content);
	return path;
}

const read = (args: Record<string, unknown>) => run<ReadToolDetails | undefined>(createReadTool(tempDir()), args);

describe("basic reading", () => {
	it("returns a small file whole, with no details", async () => {
		file("three.txt", "a\nb\nc");
		const result = await read({ path: "three.txt" });
		expect(result.content).toEqual([{ type: "text", text: "a\nb\nc" }]);
		expect(result.details).toBeUndefined();
	});

	it("rejects a missing file with the ENOENT error", async () => {
		const message = await errorOf(read({ path: "missing.txt" }));
		expect(message).toBe(`ENOENT: no such file or directory, access '${join(tempDir(), "missing.txt")}'`);
	});

	it("returns an empty string for an empty file", async () => {
		file("empty.txt", "");
		expect(await read({ path: "empty.txt" })).toEqual({ content: [{ type: "text", text: "" }], details: undefined });
	});
});

describe("paging", () => {
	beforeEach(() => {
		file("hundred.txt", numberedLines(100));
	});

	it("starts at the 1-based offset", async () => {
		const text = textOf(await read({ path: "hundred.txt", offset: 51 }));
		expect(text).toBe(Array.from({ length: 50 }, (_, i) => `line ${i + 51}`).join("\n"));
	});

	it("stops at the limit and says how to continue", async () => {
		const text = textOf(await read({ path: "hundred.txt", limit: 10 }));
		expect(text).toBe(`${numberedLines(10)}\n\n[90 more lines in file. Use offset=11 to continue.]`);
	});

	it("combines offset and limit", async () => {
		const text = textOf(await read({ path: "hundred.txt", offset: 41, limit: 20 }));
		const expected = Array.from({ length: 20 }, (_, i) => `line ${i + 41}`).join("\n");
		expect(text).toBe(`${expected}\n\n[40 more lines in file. Use offset=61 to continue.]`);
	});

	it("treats offset=1 as the start of the file", async () => {
		expect(textOf(await read({ path: "hundred.txt", offset: 1 }))).toBe(textOf(await read({ path: "hundred.txt" })));
	});

	it("rejects an offset past the end", async () => {
		file("three.txt", "a\nb\nc");
		expect(await errorOf(read({ path: "three.txt", offset: 100 }))).toBe(
			"Offset 100 is beyond end of file (3 lines total)",
		);
	});
});

describe("truncation", () => {
	it("shows the first 2000 of 2500 lines and how to continue", async () => {
		file("long.txt", numberedLines(2500));
		const text = textOf(await read({ path: "long.txt" }));
		expect(text).toBe(`${numberedLines(2000)}\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]`);
	});

	it("cuts at 50KB and says so", async () => {
		const lines = Array.from({ length: 500 }, (_, i) => `${String(i + 1).padStart(4, "0")}${"x".repeat(196)}`);
		file("wide.txt", lines.join("\n"));
		const result = await read({ path: "wide.txt" });
		// 255 lines of 200 bytes plus 254 newlines = 51,254 bytes > 51,200, so 254 lines fit.
		expect(textOf(result)).toBe(
			`${lines.slice(0, 254).join("\n")}\n\n[Showing lines 1-254 of 500 (50.0KB limit). Use offset=255 to continue.]`,
		);
		expect(result.details?.truncation?.truncatedBy).toBe("bytes");
	});

	it("points to sed for a first line over 50KB", async () => {
		file("one-line.txt", "y".repeat(60 * 1024));
		const result = await read({ path: "one-line.txt" });
		expect(textOf(result)).toBe(
			"[Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' one-line.txt | head -c 51200]",
		);
		expect(result.details?.truncation?.firstLineExceedsLimit).toBe(true);
	});
});

describe("type detection", () => {
	it("detects a PNG by its bytes despite a .txt name", async () => {
		const png = Buffer.from(
			"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
			"base64",
		);
		file("picture.txt", png);
		const result = await run(createReadTool(tempDir(), { autoResizeImages: false }), { path: "picture.txt" });
		expect(result.content).toEqual([
			{ type: "text", text: "Read image file [image/png]" },
			{ type: "image", data: png.toString("base64"), mimeType: "image/png" },
		]);
	});

	it("reads text saved with an image extension as text", async () => {
		file("fake.png", "just some text");
		const result = await read({ path: "fake.png" });
		expect(result.content).toEqual([{ type: "text", text: "just some text" }]);
	});
});

describe("file system edge cases", () => {
	it("reads a file of several 64 KB chunks whole", async () => {
		const lines = numberedLines(20_000);
		file("long.txt", lines);
		const result = await read({ path: "long.txt", offset: 19_999 });
		expect(textOf(result)).toBe("line 19999\nline 20000");
	});

	it("reads a local file to its end, including what was appended after it was opened", async () => {
		const path = file("growing.txt", "first\n");
		const opened = await openLocalReadableFile(path);
		try {
			appendFileSync(path, "second\n");
			const buffer = Buffer.alloc(64);
			const bytesRead = await opened.read(buffer, 0);
			expect(buffer.subarray(0, bytesRead).toString()).toBe("first\nsecond\n");
			expect(await opened.read(buffer, bytesRead)).toBe(0);
			expect(await opened.read(Buffer.alloc(6), 0)).toBe(6);
			expect(await opened.read(Buffer.alloc(64), 6)).toBe(7);
		} finally {
			await opened.close();
		}
		// Its descriptor's number may belong to another file by now.
		await expect(opened.read(Buffer.alloc(64), 0)).rejects.toThrow("was closed");
		await opened.close();
	});

	it("describes the truncation in details", async () => {
		file("long.txt", numberedLines(2500));
		const result = await read({ path: "long.txt" });
		expect(result.details?.truncation).toMatchObject({
			truncated: true,
			truncatedBy: "lines",
			totalLines: 2500,
			outputLines: 2000,
			maxLines: 2000,
			maxBytes: 51200,
		});
	});

	it("returns just the last line for offset = last line", async () => {
		file("hundred.txt", numberedLines(100));
		expect(await read({ path: "hundred.txt", offset: 100 })).toEqual({
			content: [{ type: "text", text: "line 100" }],
			details: undefined,
		});
	});

	it("reads through a symlink", async () => {
		file("target.txt", "through the link");
		symlinkSync(join(tempDir(), "target.txt"), join(tempDir(), "link.txt"));
		expect(textOf(await read({ path: "link.txt" }))).toBe("through the link");
	});

	it.skipIf(isRoot)("rejects an unreadable file with EACCES (skipped as root, who can read anything)", async () => {
		const path = file("secret.txt", "hidden");
		chmodSync(path, 0o000);
		expect(await errorOf(read({ path: "secret.txt" }))).toBe(`EACCES: permission denied, access '${path}'`);
	});

	it("passes a permission error from the file system through unchanged", async () => {
		const denied = Object.assign(new Error("EACCES: permission denied, access '/srv/secret.txt'"), {
			code: "EACCES",
		});
		const operations: ReadOperations = {
			readFile: async () => Buffer.from(""),
			access: async () => Promise.reject(denied),
		};
		expect(await errorOf(run(createReadTool("/srv", { operations }), { path: "secret.txt" }))).toBe(
			"EACCES: permission denied, access '/srv/secret.txt'",
		);
	});
});

describe("regressions from the reference", () => {
	let savedHome: string | undefined;
	beforeEach(() => {
		savedHome = process.env.HOME;
	});
	afterEach(() => {
		process.env.HOME = savedHome;
	});

	it("reads names with spaces and CJK characters, and macOS screenshot spellings", async () => {
		file("截图 2026-02-11 下午3.42.10.txt", "cjk name");
		expect(textOf(await read({ path: "截图 2026-02-11 下午3.42.10.txt" }))).toBe("cjk name");
		file("Screenshot 2026-02-11 at 3.42.10\u202FPM.txt", "narrow space");
		expect(textOf(await read({ path: "Screenshot 2026-02-11 at 3.42.10 PM.txt" }))).toBe("narrow space");
		file("Capture d\u2019e\u0301cran.txt", "curly and nfd");
		expect(textOf(await read({ path: "Capture d'écran.txt" }))).toBe("curly and nfd");
	});

	it("expands ~/ to the home directory", async () => {
		process.env.HOME = tempDir();
		file("test.txt", "from home");
		expect(textOf(await run(createReadTool("/"), { path: "~/test.txt" }))).toBe("from home");
	});

	// Wrong argument types: tool-argument-validation.test.ts, with the other tools.

	it("strips a leading @ that some models add", async () => {
		mkdirSync(join(tempDir(), "src"));
		file("src/a.ts", "export {}");
		expect(textOf(await read({ path: "@src/a.ts" }))).toBe("export {}");
	});
});

describe("custom operations and abort", () => {
	it("reads through injected operations and sniffs images from the bytes they return", async () => {
		const operations: ReadOperations = {
			readFile: async (p) => Buffer.from(`remote:${p}`),
			access: async () => {},
		};
		expect(textOf(await run(createReadTool("/remote", { operations }), { path: "x.txt" }))).toBe(
			"remote:/remote/x.txt",
		);
	});

	it("rejects with Operation aborted when the signal has fired", async () => {
		file("a.txt", "a");
		const controller = new AbortController();
		controller.abort();
		expect(await errorOf(run(createReadTool(tempDir()), { path: "a.txt" }, controller.signal))).toBe(
			"Operation aborted",
		);
	});

	it("refuses paths outside the working directory when confined", async () => {
		file("outside.txt", "secret");
		mkdirSync(join(tempDir(), "work"));
		const tool = createReadTool(join(tempDir(), "work"), { confineToCwd: true });
		expect(await errorOf(run(tool, { path: "../outside.txt" }))).toContain(
			"Path is outside the working directory: ../outside.txt",
		);
	});
});
