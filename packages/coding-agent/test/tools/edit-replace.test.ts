import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEditTool, type EditOperations, type EditToolDetails, localEditOperations } from "@agent/coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorOf, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-edit-");

function setup(name: string, content: string | Buffer) {
	const path = join(tempDir(), name);
	writeFileSync(path, content);
	return { path, tool: createEditTool(tempDir()) };
}

describe("basic replacement", () => {
	it("replaces an exact match and returns the success text and a diff", async () => {
		const { path, tool } = setup("hello.txt", "Hello, world!");
		const result = await run<EditToolDetails>(tool, { path: "hello.txt", oldText: "world", newText: "testing" });
		expect(textOf(result)).toBe("Successfully replaced text in hello.txt.");
		expect(readFileSync(path, "utf8")).toBe("Hello, testing!");
		expect(result.details.diff).toBe("-1 Hello, world!\n+1 Hello, testing!");
		expect(result.details.firstChangedLine).toBe(1);
	});

	it("reports text that is not in the file", async () => {
		const { path, tool } = setup("hello.txt", "Hello, world!");
		const message = await errorOf(run(tool, { path: "hello.txt", oldText: "nonexistent", newText: "x" }));
		expect(message).toBe(
			"Could not find the exact text in hello.txt. The old text must match exactly including all whitespace and newlines.",
		);
		expect(readFileSync(path, "utf8")).toBe("Hello, world!");
	});

	it("refuses text that occurs three times", async () => {
		const { path, tool } = setup("foo.txt", "foo bar foo baz foo");
		const message = await errorOf(run(tool, { path: "foo.txt", oldText: "foo", newText: "qux" }));
		expect(message).toBe(
			"Found 3 occurrences of the text in foo.txt. The text must be unique. Please provide more context to make it unique.",
		);
		expect(readFileSync(path, "utf8")).toBe("foo bar foo baz foo");
	});
});

describe("CRLF and BOM preservation", () => {
	it("matches LF oldText against a CRLF file", async () => {
		const { path, tool } = setup("crlf.txt", "one\r\ntwo\r\nthree\r\n");
		await run(tool, { path: "crlf.txt", oldText: "one\ntwo", newText: "uno\ndos" });
		expect(readFileSync(path, "utf8")).toBe("uno\r\ndos\r\nthree\r\n");
	});

	it("writes CRLF back to a CRLF file, including in the new text", async () => {
		const { path, tool } = setup("crlf.txt", "a\r\nb\r\nc\r\n");
		await run(tool, { path: "crlf.txt", oldText: "b", newText: "b1\nb2" });
		const written = readFileSync(path, "utf8");
		expect(written).toBe("a\r\nb1\r\nb2\r\nc\r\n");
		expect(written.replace(/\r\n/g, "")).not.toContain("\n");
	});

	it("keeps an LF file free of CR characters", async () => {
		const { path, tool } = setup("lf.txt", "a\nb\nc\n");
		await run(tool, { path: "lf.txt", oldText: "b", newText: "b1\r\nb2" });
		const written = readFileSync(path, "utf8");
		expect(written).toBe("a\nb1\nb2\nc\n");
		expect(written).not.toContain("\r");
	});

	it("counts CRLF and LF spellings of the same text as two occurrences", async () => {
		const { tool } = setup("mixed.txt", "hello\r\nworld\nand\nhello\nworld\n");
		const message = await errorOf(run(tool, { path: "mixed.txt", oldText: "hello\nworld", newText: "x" }));
		expect(message).toContain("Found 2 occurrences of the text in mixed.txt.");
	});

	it("keeps both the BOM and CRLF line endings", async () => {
		const { path, tool } = setup("bom.txt", "\uFEFFfirst\r\nsecond\r\n");
		await run(tool, { path: "bom.txt", oldText: "first", newText: "1st" });
		const bytes = readFileSync(path);
		expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
		expect(bytes.toString("utf8")).toBe("\uFEFF1st\r\nsecond\r\n");
	});

	it("lets oldText match at the very start of a BOM file", async () => {
		const { path, tool } = setup("bom-start.txt", "\uFEFFabc");
		await run(tool, { path: "bom-start.txt", oldText: "abc", newText: "xyz" });
		expect(readFileSync(path, "utf8")).toBe("\uFEFFxyz");
	});
});

describe("safety and edge cases", () => {
	it("refuses an empty oldText and leaves an empty file empty", async () => {
		const { path, tool } = setup("empty.txt", "");
		const message = await errorOf(run(tool, { path: "empty.txt", oldText: "", newText: "content" }));
		expect(message).toBe(
			"oldText must not be empty. Include the exact text to replace in oldText, or use the write tool to write the whole file.",
		);
		expect(readFileSync(path, "utf8")).toBe("");
	});

	it("edits a 10MB file correctly; its time is measured in bench/tools.bench.ts", async () => {
		const line = "const value = computeSomething(alpha, beta, gamma); // filler\n";
		const count = Math.ceil((10 * 1024 * 1024) / line.length);
		const lines = Array.from({ length: count }, () => line);
		lines[count - 10] = "const target = 1;\n";
		const { path, tool } = setup("big.ts", lines.join(""));
		const result = await run<EditToolDetails>(tool, { path: "big.ts", oldText: "target = 1", newText: "target = 2" });
		expect(result.details.firstChangedLine).toBe(count - 9);
		const written = readFileSync(path, "utf8");
		expect(written.length).toBe(lines.join("").length);
		expect(written.split("\n")[count - 10]).toBe("const target = 2;");
	});

	it("rejects a replacement that changes nothing", async () => {
		const { tool } = setup("same.txt", "hello");
		const message = await errorOf(run(tool, { path: "same.txt", oldText: "hello", newText: "hello" }));
		expect(message).toBe(
			"No changes made to same.txt. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.",
		);
	});

	it("applies two concurrent edits of one file without losing either", async () => {
		const { path, tool } = setup("shared.txt", "alpha\nbeta\ngamma\n");
		const other = createEditTool(tempDir());
		await Promise.all([
			run(tool, { path: "shared.txt", oldText: "alpha", newText: "ALPHA" }),
			run(other, { path: join(tempDir(), "shared.txt"), oldText: "gamma", newText: "GAMMA" }),
		]);
		expect(readFileSync(path, "utf8")).toBe("ALPHA\nbeta\nGAMMA\n");
	});

	it("refuses a binary file and leaves its bytes intact", async () => {
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
		const { path, tool } = setup("image.png", Buffer.concat([png, Buffer.from("IHDR text")]));
		const message = await errorOf(run(tool, { path: "image.png", oldText: "IHDR", newText: "XXXX" }));
		expect(message).toBe("Cannot edit image.png: it is a binary file. The edit tool only changes text files.");
		expect(readFileSync(path).equals(Buffer.concat([png, Buffer.from("IHDR text")]))).toBe(true);
	});

	it("refuses a file that is not valid UTF-8 rather than corrupting it", async () => {
		const latin1 = Buffer.from("caf\xe9 au lait", "latin1");
		const { path, tool } = setup("latin1.txt", latin1);
		const message = await errorOf(run(tool, { path: "latin1.txt", oldText: "au", newText: "with" }));
		expect(message).toContain("Cannot edit latin1.txt: it is not valid UTF-8 text");
		expect(readFileSync(path).equals(latin1)).toBe(true);
	});

	describe("with workspace confinement on", () => {
		let outside: string;
		beforeEach(() => {
			outside = join(tempDir(), "outside.txt");
			writeFileSync(outside, "root:x:0:0");
			mkdirSync(join(tempDir(), "work"));
		});

		it("refuses a ../ path that leaves the working directory", async () => {
			const tool = createEditTool(join(tempDir(), "work"), { confineToCwd: true });
			const message = await errorOf(run(tool, { path: "../outside.txt", oldText: "root", newText: "hacked" }));
			expect(message).toContain("Path is outside the working directory: ../outside.txt");
			expect(readFileSync(outside, "utf8")).toBe("root:x:0:0");
		});

		it("refuses a symlink inside the working directory that points outside it", async () => {
			symlinkSync(outside, join(tempDir(), "work", "link.txt"));
			const tool = createEditTool(join(tempDir(), "work"), { confineToCwd: true });
			const message = await errorOf(run(tool, { path: "link.txt", oldText: "root", newText: "hacked" }));
			expect(message).toContain("Path is outside the working directory: link.txt");
			expect(readFileSync(outside, "utf8")).toBe("root:x:0:0");
		});

		it("still edits files inside the working directory", async () => {
			writeFileSync(join(tempDir(), "work", "inside.txt"), "root");
			const tool = createEditTool(join(tempDir(), "work"), { confineToCwd: true });
			await run(tool, { path: "inside.txt", oldText: "root", newText: "user" });
			expect(readFileSync(join(tempDir(), "work", "inside.txt"), "utf8")).toBe("user");
		});
	});

	it("reports a directory as such", async () => {
		mkdirSync(join(tempDir(), "folder"));
		const message = await errorOf(run(createEditTool(tempDir()), { path: "folder", oldText: "x", newText: "y" }));
		expect(message).toBe("Is a directory: folder. Provide the path of a file to edit.");
	});

	it("reports a missing file with the path as given", async () => {
		const message = await errorOf(
			run(createEditTool(tempDir()), { path: "missing.txt", oldText: "x", newText: "y" }),
		);
		expect(message).toBe("File not found: missing.txt");
	});
});

describe("atomic write", () => {
	it("keeps the file mode and leaves no temp file behind", async () => {
		const { path, tool } = setup("script.sh", "#!/bin/sh\necho old\n");
		chmodSync(path, 0o754);
		await run(tool, { path: "script.sh", oldText: "old", newText: "new" });
		expect(statSync(path).mode & 0o777).toBe(0o754);
		expect(readFileSync(path, "utf8")).toBe("#!/bin/sh\necho new\n");
		const { readdirSync } = await import("node:fs");
		expect(readdirSync(tempDir())).toEqual(["script.sh"]);
	});

	it("edits the target of a symlink and keeps the link", async () => {
		const { path } = setup("real.txt", "value = 1");
		symlinkSync(path, join(tempDir(), "alias.txt"));
		await run(createEditTool(tempDir()), { path: "alias.txt", oldText: "1", newText: "2" });
		expect(readFileSync(path, "utf8")).toBe("value = 2");
		const { lstatSync } = await import("node:fs");
		expect(lstatSync(join(tempDir(), "alias.txt")).isSymbolicLink()).toBe(true);
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

	it("expands ~/ to the home directory", async () => {
		process.env.HOME = tempDir();
		mkdirSync(join(tempDir(), "test_dir"));
		writeFileSync(join(tempDir(), "test_dir", "hello.txt"), "a");
		await run(createEditTool("/"), { path: "~/test_dir/hello.txt", oldText: "a", newText: "b" });
		expect(readFileSync(join(tempDir(), "test_dir", "hello.txt"), "utf8")).toBe("b");
	});

	// Wrong argument types: tool-argument-validation.test.ts, with the other tools.

	it("numbers diff lines from their place in a 500-line file", async () => {
		const lines = Array.from({ length: 500 }, (_, i) => (i === 337 ? "target" : `line ${i + 1}`));
		setup("long.txt", `${lines.join("\n")}\n`);
		const result = await run<EditToolDetails>(createEditTool(tempDir()), {
			path: "long.txt",
			oldText: "target",
			newText: "replaced",
		});
		expect(result.details.firstChangedLine).toBe(338);
		expect(result.details.diff).toBe(
			[
				"     ...",
				" 334 line 334",
				" 335 line 335",
				" 336 line 336",
				" 337 line 337",
				"-338 target",
				"+338 replaced",
				" 339 line 339",
				" 340 line 340",
				" 341 line 341",
				" 342 line 342",
				"     ...",
			].join("\n"),
		);
	});
});

describe("custom operations", () => {
	it("reads and writes through injected operations (e.g. an editor's file system)", async () => {
		const files = new Map([["/virtual/a.txt", Buffer.from("one two")]]);
		const operations: EditOperations = {
			readFile: async (p) => files.get(p) ?? Promise.reject(Object.assign(new Error("nope"), { code: "ENOENT" })),
			writeFile: async (p, content) => {
				files.set(p, Buffer.from(content));
			},
			access: async (p) => {
				if (!files.has(p)) throw Object.assign(new Error("nope"), { code: "ENOENT" });
			},
		};
		const tool = createEditTool("/virtual", { operations });
		await run(tool, { path: "a.txt", oldText: "two", newText: "2" });
		expect(files.get("/virtual/a.txt")?.toString()).toBe("one 2");
		expect(await errorOf(run(tool, { path: "b.txt", oldText: "x", newText: "y" }))).toBe("File not found: b.txt");
		expect(localEditOperations.writeFile).toBeTypeOf("function");
	});

	it("rejects with Operation aborted when the signal has fired", async () => {
		const { path, tool } = setup("abort.txt", "keep");
		const controller = new AbortController();
		controller.abort();
		expect(await errorOf(run(tool, { path: "abort.txt", oldText: "keep", newText: "lose" }, controller.signal))).toBe(
			"Operation aborted",
		);
		expect(readFileSync(path, "utf8")).toBe("keep");
	});
});
