import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileCommandPattern } from "../../src/core/permissions/command-pattern.js";
import { compilePathPattern, resolveCallPath } from "../../src/core/permissions/path-pattern.js";
import { parseRule } from "../../src/core/permissions/rule-syntax.js";

describe("rule syntax", () => {
	it("reads Tool and Tool(pattern) in the other agents' spelling, case-insensitively for built-ins", () => {
		expect(parseRule("Bash(npm run test:*)")).toEqual({
			ok: true,
			rule: { text: "Bash(npm run test:*)", target: { kind: "bash" }, pattern: "npm run test:*" },
		});
		expect(parseRule("  bash  ")).toEqual({ ok: true, rule: { text: "bash", target: { kind: "bash" } } });
		expect(parseRule("Bash(*)")).toEqual({ ok: true, rule: { text: "Bash(*)", target: { kind: "bash" } } });
		const edit = parseRule("Edit(**/*.ts)");
		expect(edit.ok && edit.rule.target).toEqual({ kind: "path", tools: ["edit", "write"], family: "Edit" });
		const read = parseRule("Read(./src/**)");
		expect(read.ok && read.rule.target).toEqual({
			kind: "path",
			tools: ["read", "grep", "find", "ls"],
			family: "Read",
		});
		const write = parseRule("Write(docs/*.md)");
		expect(write.ok && write.rule.target).toEqual({ kind: "path", tools: ["write"], family: "Write" });
		const glob = parseRule("Glob(src/**)");
		expect(glob.ok && glob.rule.target).toEqual({ kind: "path", tools: ["find"], family: "Find" });
	});

	it("names MCP servers, MCP tools and other tools by exact name", () => {
		expect(parseRule("mcp__github")).toMatchObject({
			ok: true,
			rule: { target: { kind: "mcpServer", prefix: "mcp__github__" } },
		});
		expect(parseRule("mcp__github__*")).toMatchObject({
			ok: true,
			rule: { target: { kind: "mcpServer", prefix: "mcp__github__" } },
		});
		expect(parseRule("mcp__github__create_issue")).toMatchObject({
			ok: true,
			rule: { target: { kind: "tool", name: "mcp__github__create_issue" } },
		});
		expect(parseRule("deploy")).toMatchObject({ ok: true, rule: { target: { kind: "tool", name: "deploy" } } });
	});

	it("refuses rules it cannot read, saying why", () => {
		expect(parseRule("")).toEqual({ ok: false, error: "an empty rule" });
		expect(parseRule("Bash()")).toMatchObject({ ok: false, error: expect.stringContaining("empty pattern") });
		expect(parseRule("Bash(ls")).toMatchObject({
			ok: false,
			error: expect.stringContaining("is not Tool or Tool(pattern)"),
		});
		expect(parseRule("deploy(prod)")).toMatchObject({
			ok: false,
			error: expect.stringContaining("patterns are understood"),
		});
	});
});

describe("command patterns", () => {
	it("`:*` is a prefix that ends at a word boundary", () => {
		const pattern = compileCommandPattern("npm run test:*");
		expect(pattern.matches("npm run test")).toBe(true);
		expect(pattern.matches("npm run test -- --watch=false")).toBe(true);
		expect(pattern.matches("npm run testing")).toBe(false);
		expect(pattern.matches("npm run")).toBe(false);
		expect(pattern.firstWord).toBe("npm");
	});

	it("a pattern without wildcards is exact; `*` stands for any text anywhere", () => {
		expect(compileCommandPattern("npm  test").matches("npm test")).toBe(true);
		expect(compileCommandPattern("npm test").matches("npm test x")).toBe(false);
		const force = compileCommandPattern("git * --force");
		expect(force.matches("git push origin --force")).toBe(true);
		expect(force.matches("git push")).toBe(false);
		expect(force.firstWord).toBe("git");
		expect(compileCommandPattern("*.sh").firstWord).toBeUndefined();
		expect(compileCommandPattern("a.b(c)").matches("a.b(c)")).toBe(true);
	});

	it("tells whether a command known only up to a prefix could match", () => {
		const pattern = compileCommandPattern("rm -rf /:*");
		expect(pattern.couldMatchCommandStartingWith("rm -rf ")).toBe(true);
		expect(pattern.couldMatchCommandStartingWith("")).toBe(true);
		expect(pattern.couldMatchCommandStartingWith("ls ")).toBe(false);
		expect(compileCommandPattern("git push").couldMatchCommandStartingWith("git ")).toBe(true);
		expect(compileCommandPattern("git push").couldMatchCommandStartingWith("git pull ")).toBe(false);
	});
});

describe("path patterns", () => {
	const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-permission-paths-")));
	const project = join(root, "project");
	const home = join(root, "home");
	mkdirSync(join(project, "src", "deep"), { recursive: true });
	mkdirSync(join(root, "outside"), { recursive: true });
	mkdirSync(home, { recursive: true });
	symlinkSync(join(root, "outside"), join(project, "src", "link"));
	afterAll(() => rmSync(root, { recursive: true, force: true }));
	const anchors = { projectRoot: project, home };
	const at = (path: string) => resolveCallPath(path, project, home);
	const matches = (pattern: string, path: string, form: "real" | "lexical" = "real") =>
		compilePathPattern(pattern, anchors).matches(at(path)[form]);

	it("resolves ./, / and bare relative patterns against the project", () => {
		expect(matches("./src/**", "src/deep/a.ts")).toBe(true);
		expect(matches("src/**", "src/a.ts")).toBe(true);
		expect(matches("/src/**", "src/a.ts")).toBe(true);
		expect(matches("./a.ts", "a.ts")).toBe(true);
		expect(matches("./a.ts", "src/a.ts")).toBe(false);
		expect(matches("./src/**", "lib/a.ts")).toBe(false);
	});

	it("a bare name matches at any depth; `**/*.ts` anywhere in the project", () => {
		expect(matches(".env", "src/deep/.env")).toBe(true);
		expect(matches("*.env", "prod.env")).toBe(true);
		expect(matches("**/*.ts", "src/deep/a.ts")).toBe(true);
		expect(matches("**/*.ts", "src/deep/a.js")).toBe(false);
	});

	it("a pattern without wildcards covers what is inside it", () => {
		expect(matches("src/deep", "src/deep/x/y.md")).toBe(true);
		expect(matches("src/deep", "src/deeper")).toBe(false);
	});

	it("//absolute and ~/home patterns", () => {
		expect(matches("//etc/**", "/etc/passwd")).toBe(true);
		expect(matches("~/.ssh/**", "~/.ssh/id_rsa")).toBe(true);
		expect(matches("~/.ssh/**", "/etc/ssh/x")).toBe(false);
	});

	it("a project pattern never matches outside the project: `..` and links are resolved", () => {
		expect(matches("**", "../outside/x")).toBe(false);
		expect(matches("src/**", "src/../../outside/x")).toBe(false);
		// Through a link that leads out: the file really reached is outside.
		expect(matches("src/**", "src/link/x", "real")).toBe(false);
		expect(matches("src/**", "src/link/x", "lexical")).toBe(true);
		expect(matches("**", "/")).toBe(false);
	});
});
