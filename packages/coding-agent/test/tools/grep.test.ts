import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createGrepTool, type GrepToolDetails } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { errorOf, run, searchEngines, textOf, useTempDir, writeTree } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-grep-");

describe.each(searchEngines("rg"))("grep with the $engine engine", ({ engine, skipReason }) => {
	const grep = (args: Record<string, unknown>, cwd = tempDir()) =>
		run<GrepToolDetails | undefined>(createGrepTool(cwd, { engine }), args);

	describe.skipIf(skipReason !== undefined)(`basic search${skipReason ? ` (skipped: ${skipReason})` : ""}`, () => {
		it("shows file:line: text for a match in a single file", async () => {
			writeTree(tempDir(), { "file.txt": "first\nsecond\nhello world\n" });
			const result = await grep({ pattern: "hello", path: "file.txt" });
			expect(textOf(result)).toBe("file.txt:3: hello world");
			expect(result.details).toBeUndefined();
		});

		it("lists matches from every matching file of a directory", async () => {
			writeTree(tempDir(), { "a.txt": "a test here\n", "b.txt": "nothing\n", "sub/c.txt": "x\ntest again\n" });
			expect(textOf(await grep({ pattern: "test" }))).toBe("a.txt:1: a test here\nsub/c.txt:2: test again");
		});

		it("says No matches found", async () => {
			writeTree(tempDir(), { "file.txt": "something else\n" });
			expect(await grep({ pattern: "nonexistent", path: "file.txt" })).toEqual({
				content: [{ type: "text", text: "No matches found" }],
				details: undefined,
			});
		});

		it("reports a missing search path with its absolute form", async () => {
			expect(await errorOf(grep({ pattern: "x", path: "missing" }))).toBe(
				`Path not found: ${join(tempDir(), "missing")}`,
			);
		});
	});

	describe.skipIf(skipReason !== undefined)("search options", () => {
		it("shows one match with its context and the limit notice", async () => {
			writeTree(tempDir(), { "x.txt": Array.from({ length: 10 }, (_, i) => `x${i + 1}`).join("\n") });
			const result = await grep({ pattern: "x", path: "x.txt", limit: 1, context: 1 });
			expect(textOf(result)).toBe(
				"x.txt:1: x1\nx.txt-2- x2\n\n[1 matches limit reached. Use limit=2 for more, or refine pattern]",
			);
			expect(result.details).toEqual({ matchLimitReached: 1 });
		});

		it("shows context lines before and after with - separators, blocks not merged", async () => {
			writeTree(tempDir(), { "c.txt": "a\nhit1\nb\nhit2\nc\n" });
			expect(textOf(await grep({ pattern: "hit", path: "c.txt", context: 1 }))).toBe(
				["c.txt-1- a", "c.txt:2: hit1", "c.txt-3- b", "c.txt-3- b", "c.txt:4: hit2", "c.txt-5- c"].join("\n"),
			);
		});

		it("treats the pattern as a regex", async () => {
			writeTree(tempDir(), { "code.txt": "fooXbar(baz)\nfoo.bar(baz)\n" });
			expect(textOf(await grep({ pattern: "foo\\.bar\\(", path: "code.txt" }))).toBe("code.txt:2: foo.bar(baz)");
		});

		it("matches regex characters literally with literal=true", async () => {
			writeTree(tempDir(), { "code.txt": "fooXbar(baz)\nfoo.bar(baz)\n" });
			expect(textOf(await grep({ pattern: "foo.bar(", path: "code.txt", literal: true }))).toBe(
				"code.txt:2: foo.bar(baz)",
			);
		});

		it("ignores case on request", async () => {
			writeTree(tempDir(), { "h.txt": "Hello World\n" });
			expect(textOf(await grep({ pattern: "hello", path: "h.txt" }))).toBe("No matches found");
			expect(textOf(await grep({ pattern: "hello", path: "h.txt", ignoreCase: true }))).toBe("h.txt:1: Hello World");
		});

		it("accepts a pattern that starts with a dash", async () => {
			writeTree(tempDir(), { "flags.txt": "use --verbose here\n" });
			expect(textOf(await grep({ pattern: "--verbose", path: "flags.txt" }))).toBe(
				"flags.txt:1: use --verbose here",
			);
		});

		it("reports an invalid regex as an error", async () => {
			writeTree(tempDir(), { "a.txt": "a(\n" });
			expect(await errorOf(grep({ pattern: "a(", path: "a.txt" }))).toMatch(/regex parse error/);
		});
	});

	describe.skipIf(skipReason !== undefined)("truncation and filtering", () => {
		it("cuts output at 50KB and says so", async () => {
			const line = `common ${"w".repeat(400)}`;
			writeTree(tempDir(), { "big.txt": Array.from({ length: 200 }, () => line).join("\n") });
			const result = await grep({ pattern: "common", limit: 1000 });
			const text = textOf(result);
			expect(text.endsWith("\n\n[50.0KB limit reached]")).toBe(true);
			expect(Buffer.byteLength(text.split("\n\n[")[0])).toBeLessThanOrEqual(51_200);
			expect(result.details?.truncation?.truncatedBy).toBe("bytes");
		});

		it("searches only files matching the glob", async () => {
			writeTree(tempDir(), { "lib/a.ex": "test ex\n", "lib/b.js": "test js\n", "c.ex": "test top\n" });
			expect(textOf(await grep({ pattern: "test", glob: "*.ex" }))).toBe("c.ex:1: test top\nlib/a.ex:1: test ex");
		});

		it("anchors a glob with / at the search directory", async () => {
			writeTree(tempDir(), { "src/a/x.ts": "hit\n", "test/src/y.ts": "hit\n", "src/z.js": "hit\n" });
			expect(textOf(await grep({ pattern: "hit", glob: "src/**/*.ts" }))).toBe("src/a/x.ts:1: hit");
		});

		it("skips binary files", async () => {
			const png = Buffer.concat([
				Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
				Buffer.from("test inside binary\n"),
			]);
			writeTree(tempDir(), { "image.png": png, "notes.txt": "test in text\n" });
			expect(textOf(await grep({ pattern: "test" }))).toBe("notes.txt:1: test in text");
		});

		it("cuts long lines to 500 characters and says so", async () => {
			writeTree(tempDir(), { "long.txt": `needle ${"z".repeat(700)}\n` });
			const result = await grep({ pattern: "needle" });
			expect(textOf(result)).toBe(
				`long.txt:1: needle ${"z".repeat(493)}... [truncated]\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]`,
			);
			expect(result.details).toEqual({ linesTruncated: true });
		});

		it("finds a match past the first 64KB of a large file exactly once", async () => {
			const filler = Array.from({ length: 3000 }, (_, i) => `filler line ${i} ${"f".repeat(30)}`);
			writeTree(tempDir(), { "large.txt": `${filler.join("\n")}\nthe needle\n` });
			expect(textOf(await grep({ pattern: "needle" }))).toBe("large.txt:3001: the needle");
		});

		it("shows CRLF lines without carriage returns", async () => {
			writeTree(tempDir(), { "win.txt": "one\r\ntwo match\r\nthree\r\n" });
			expect(textOf(await grep({ pattern: "match", path: "win.txt", context: 1 }))).toBe(
				"win.txt-1- one\nwin.txt:2: two match\nwin.txt-3- three",
			);
		});

		// Wrong argument types: tool-argument-validation.test.ts, with the other tools.
	});

	describe.skipIf(skipReason !== undefined)("ignore files and hidden files", () => {
		it("honours .gitignore outside a git repository, and nested and .ignore files", async () => {
			writeTree(tempDir(), {
				".gitignore": "*.log\nbuild/\n/top-only.txt\n",
				".ignore": "private.txt\n",
				"app.log": "needle\n",
				"build/out.txt": "needle\n",
				"top-only.txt": "needle\n",
				"sub/top-only.txt": "needle\n",
				"private.txt": "needle\n",
				"sub/.gitignore": "generated.txt\n!keep.log\n",
				"sub/generated.txt": "needle\n",
				"sub/keep.log": "needle\n",
				"sub/visible.txt": "needle\n",
			});
			expect(textOf(await grep({ pattern: "needle" }))).toBe(
				"sub/keep.log:1: needle\nsub/top-only.txt:1: needle\nsub/visible.txt:1: needle",
			);
		});

		it("searches hidden files but not the .git directory", async () => {
			writeTree(tempDir(), { ".env": "needle\n", ".config/settings": "needle\n", ".git/config": "needle\n" });
			expect(textOf(await grep({ pattern: "needle" }))).toBe(".config/settings:1: needle\n.env:1: needle");
		});

		it("keeps ignored files out even when they match the glob (ours differs)", async () => {
			writeTree(tempDir(), { ".gitignore": "*.gen.ts\n", "a.gen.ts": "needle\n", "b.ts": "needle\n" });
			expect(textOf(await grep({ pattern: "needle", glob: "*.ts" }))).toBe("b.ts:1: needle");
		});

		it("searches inside an ignored directory when asked to explicitly", async () => {
			writeTree(tempDir(), { ".gitignore": "node_modules/\n", "node_modules/lib/index.js": "needle\n" });
			expect(textOf(await grep({ pattern: "needle" }))).toBe("No matches found");
			expect(textOf(await grep({ pattern: "needle", path: "node_modules/lib" }))).toBe("index.js:1: needle");
		});

		it("applies ignore files of the directories above the search path", async () => {
			writeTree(tempDir(), { ".gitignore": "*.tmp\n", "pkg/a.tmp": "needle\n", "pkg/b.txt": "needle\n" });
			mkdirSync(join(tempDir(), "pkg", "empty"));
			expect(textOf(await grep({ pattern: "needle", path: "pkg" }))).toBe("b.txt:1: needle");
		});
	});

	describe.skipIf(skipReason !== undefined)("abort", () => {
		it("rejects with Operation aborted when the signal has fired", async () => {
			writeTree(tempDir(), { "a.txt": "needle\n" });
			const controller = new AbortController();
			controller.abort();
			const tool = createGrepTool(tempDir(), { engine });
			expect(await errorOf(run(tool, { pattern: "needle" }, controller.signal))).toBe("Operation aborted");
		});
	});
});

describe("grep with the default engine", () => {
	it("honours nested ignore files outside a repository", async () => {
		writeTree(tempDir(), {
			"sub/.gitignore": "/local.txt\n",
			"sub/local.txt": "hit\n",
			"sub/deeper/local.txt": "hit\n",
		});
		expect(textOf(await run(createGrepTool(tempDir()), { pattern: "hit" }))).toBe("sub/deeper/local.txt:1: hit");
	});
});

describe("engines agree", () => {
	it.skipIf(searchEngines("rg")[1].skipReason !== undefined)(
		"built-in and rg return the same output on a mixed tree",
		async () => {
			const files: Record<string, string> = { ".gitignore": "dist/\n*.min.js\n" };
			for (let i = 0; i < 60; i++) {
				files[`src/mod${i % 7}/file${i}.ts`] = `import x from "y";\nconst value${i} = ${i};\n// TODO item ${i}\n`;
				files[`dist/out${i}.js`] = "// TODO generated\n";
			}
			files["src/app.min.js"] = "// TODO minified\n";
			writeTree(tempDir(), files);
			const cases = [
				{ pattern: "TODO" },
				{ pattern: "value\\d+ = 1" },
				{ pattern: "todo", ignoreCase: true, glob: "**/mod3/*.ts" },
			];
			for (const args of cases) {
				const builtin = textOf(await run(createGrepTool(tempDir(), { engine: "builtin" }), args));
				const rg = textOf(await run(createGrepTool(tempDir(), { engine: "rg" }), args));
				expect(builtin).toBe(rg);
			}
			// With a limit, rg (parallel) may stop on a different subset; the count and the notice agree.
			const limited = { pattern: "value\\d+ = 1", limit: 5 };
			const builtin = await run<GrepToolDetails>(createGrepTool(tempDir(), { engine: "builtin" }), limited);
			const rg = await run<GrepToolDetails>(createGrepTool(tempDir(), { engine: "rg" }), limited);
			expect(builtin.details).toEqual({ matchLimitReached: 5 });
			expect(rg.details).toEqual({ matchLimitReached: 5 });
			expect(textOf(rg).split("\n")).toHaveLength(textOf(builtin).split("\n").length);
		},
	);
});
