import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createFindTool, type FindOperations, type FindToolDetails } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { errorOf, run, searchEngines, textOf, useTempDir, writeTree } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-find-");

/** Marks the fixture as a git work tree, where fd of any version honours .gitignore. */
const makeRepository = () => mkdirSync(join(tempDir(), ".git"), { recursive: true });

describe.each(searchEngines("fd"))("find with the $engine engine", ({ engine, skipReason }) => {
	const find = (args: Record<string, unknown>) =>
		run<FindToolDetails | undefined>(createFindTool(tempDir(), { engine }), args);

	describe.skipIf(skipReason !== undefined)(`basic search${skipReason ? ` (skipped: ${skipReason})` : ""}`, () => {
		it("includes files in hidden directories", async () => {
			writeTree(tempDir(), { ".secret/hidden.txt": "", "visible.txt": "", "other.md": "" });
			const result = await find({ pattern: "*.txt" });
			expect(textOf(result)).toBe(".secret/hidden.txt\nvisible.txt");
			expect(result.details).toBeUndefined();
		});

		it("matches **/*.ex at every depth", async () => {
			writeTree(tempDir(), { "top.ex": "", "lib/a.ex": "", "lib/deep/er/b.ex": "", "lib/c.exs": "" });
			expect(textOf(await find({ pattern: "**/*.ex" }))).toBe("lib/a.ex\nlib/deep/er/b.ex\ntop.ex");
		});

		it("says when nothing matches", async () => {
			writeTree(tempDir(), { "a.txt": "" });
			expect(await find({ pattern: "*.xyz" })).toEqual({
				content: [{ type: "text", text: "No files found matching pattern" }],
				details: undefined,
			});
		});

		it("matches a pattern with / against the path below the search directory (ours differs)", async () => {
			writeTree(tempDir(), {
				"src/a.spec.ts": "",
				"src/x/b.spec.ts": "",
				"test/src/c.spec.ts": "",
				"d.spec.ts": "",
			});
			expect(textOf(await find({ pattern: "src/**/*.spec.ts" }))).toBe("src/a.spec.ts\nsrc/x/b.spec.ts");
		});

		it("lists matching directories with a trailing slash", async () => {
			writeTree(tempDir(), { "packages/app/index.ts": "", "packages/lib/index.ts": "" });
			expect(textOf(await find({ pattern: "packages" }))).toBe("packages/");
		});

		it("matches case-insensitively unless the pattern has a capital (smart case)", async () => {
			writeTree(tempDir(), { "README.md": "", "notes.MD": "", "guide.md": "" });
			expect(textOf(await find({ pattern: "*.md" }))).toBe("README.md\nguide.md\nnotes.MD");
			expect(textOf(await find({ pattern: "*.MD" }))).toBe("notes.MD");
		});

		it("searches a subdirectory given as path", async () => {
			writeTree(tempDir(), { "a/one.ts": "", "b/two.ts": "" });
			expect(textOf(await find({ pattern: "*.ts", path: "a" }))).toBe("one.ts");
		});

		it("reports a missing search path", async () => {
			expect(await errorOf(find({ pattern: "*", path: "missing" }))).toBe(
				`Path not found: ${join(tempDir(), "missing")}`,
			);
		});
	});

	describe.skipIf(skipReason !== undefined)("filtering and limits", () => {
		it("leaves out files named in .gitignore", async () => {
			writeTree(tempDir(), { ".gitignore": "ignored.txt\n", "ignored.txt": "", "kept.txt": "" });
			expect(textOf(await find({ pattern: "*.txt" }))).toBe("kept.txt");
		});

		it("honours nested and anchored ignore rules and .ignore files in a repository", async () => {
			makeRepository();
			writeTree(tempDir(), {
				".gitignore": "/root-only.txt\nbuild/\n",
				".ignore": "secret.txt\n",
				"root-only.txt": "",
				"sub/root-only.txt": "",
				"build/out.txt": "",
				"secret.txt": "",
				"sub/.gitignore": "/local.txt\n",
				"sub/local.txt": "",
				"local.txt": "",
			});
			expect(textOf(await find({ pattern: "*.txt" }))).toBe("local.txt\nsub/root-only.txt");
		});

		it("skips the .git directory", async () => {
			makeRepository();
			writeTree(tempDir(), { ".git/HEAD": "", ".git/config": "", config: "" });
			expect(textOf(await find({ pattern: "*config*" }))).toBe("config");
		});

		it("returns only as many results as the limit and says so", async () => {
			writeTree(tempDir(), Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}.txt`, ""])));
			const result = await find({ pattern: "*", limit: 5 });
			const [list, notice] = textOf(result).split("\n\n");
			expect(list.split("\n")).toHaveLength(5);
			expect(notice).toBe("[5 results limit reached. Use limit=10 for more, or refine pattern]");
			expect(result.details).toEqual({ resultLimitReached: 5 });
		});

		it("lists a symlink to a directory without following it", async () => {
			writeTree(tempDir(), { "real/inside.txt": "" });
			symlinkSync(join(tempDir(), "real"), join(tempDir(), "linked"));
			expect(textOf(await find({ pattern: "*.txt" }))).toBe("real/inside.txt");
			expect(textOf(await find({ pattern: "link*" }))).toBe("linked");
		});

		// Wrong argument types: tool-argument-validation.test.ts, with the other tools.

		it("rejects with Operation aborted when the signal has fired", async () => {
			writeTree(tempDir(), { "a.txt": "" });
			const controller = new AbortController();
			controller.abort();
			const tool = createFindTool(tempDir(), { engine });
			expect(await errorOf(run(tool, { pattern: "*" }, controller.signal))).toBe("Operation aborted");
		});
	});
});

describe("find engines agree", () => {
	it.skipIf(searchEngines("fd")[1].skipReason !== undefined)(
		"built-in and fd list the same entries in a repository",
		async () => {
			makeRepository();
			const files: Record<string, string> = { ".gitignore": "dist/\n*.log\n", "sub/.gitignore": "/gen/\n" };
			for (let i = 0; i < 40; i++) {
				files[`src/m${i % 5}/f${i}.ts`] = "";
				files[`dist/o${i}.js`] = "";
				files[`sub/gen/g${i}.ts`] = "";
				files[`logs/l${i}.log`] = "";
			}
			files[".github/workflows/ci.yml"] = "";
			writeTree(tempDir(), files);
			for (const pattern of ["*.ts", "**/m3/*", "*", "src/**", ".*", "*.YML"]) {
				const builtin = textOf(await run(createFindTool(tempDir(), { engine: "builtin" }), { pattern }));
				const fd = textOf(await run(createFindTool(tempDir(), { engine: "fd" }), { pattern }));
				expect(builtin, pattern).toBe(fd);
			}
		},
	);
});

describe("find with the default engine", () => {
	it("honours anchored rules of nested .gitignore files outside a repository, whatever fd is installed", async () => {
		writeTree(tempDir(), {
			"sub/.gitignore": "/local.txt\n",
			"sub/local.txt": "",
			"sub/deeper/local.txt": "",
			"local.txt": "",
		});
		expect(textOf(await run(createFindTool(tempDir()), { pattern: "*.txt" }))).toBe(
			"local.txt\nsub/deeper/local.txt",
		);
	});
});

describe("find through custom operations", () => {
	it("calls glob with the default ignores and shortens the limit notice", async () => {
		const calls: unknown[] = [];
		const operations: FindOperations = {
			exists: (p) => p === "/remote/project",
			glob: (pattern, cwd, options) => {
				calls.push({ pattern, cwd, options });
				return ["/remote/project/a.ts", "lib/b.ts"];
			},
		};
		const tool = createFindTool("/remote/project", { operations });
		const result = await run<FindToolDetails>(tool, { pattern: "*.ts", limit: 2 });
		expect(textOf(result)).toBe("a.ts\nlib/b.ts\n\n[2 results limit reached]");
		expect(calls).toEqual([
			{
				pattern: "*.ts",
				cwd: "/remote/project",
				options: { ignore: ["**/node_modules/**", "**/.git/**"], limit: 2 },
			},
		]);
		expect(await errorOf(run(tool, { pattern: "*", path: "/elsewhere" }))).toBe("Path not found: /elsewhere");
	});
});
