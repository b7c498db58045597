import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import { PERMISSION_MODES, type PermissionMode } from "../../src/core/permissions/modes.js";
import {
	bashCommandMatters,
	compilePolicy,
	evaluatePermission,
	type PermissionPolicy,
	type PermissionRuleSet,
	unreadBashVerdict,
} from "../../src/core/permissions/policy.js";
import { suggestRules } from "../../src/core/permissions/suggestions.js";
import {
	bashBehavior,
	createPermissionProject,
	policyOf,
	subjectOf,
	verdictFor,
} from "../helpers/permission-fixtures.js";

const project = createPermissionProject();
mkdirSync(join(project.cwd, "src"), { recursive: true });
mkdirSync(join(project.root, "elsewhere"), { recursive: true });
symlinkSync(join(project.root, "elsewhere"), join(project.cwd, "src", "out"));
afterAll(() => project.cleanup());
const context = project;

const behavior = async (toolName: string, args: Record<string, unknown>, mode: PermissionMode, rules = {}) =>
	(await verdictFor(toolName, args, { rules, mode, context })).behavior;

describe("precedence", () => {
	it("deny wins over ask, ask over allow, across sources", async () => {
		const policy = compilePolicy(
			[
				{ name: "user settings", rules: { allow: ["Bash(git:*)"] } },
				{ name: "project settings", rules: { ask: ["Bash(git push:*)"], deny: ["Bash(git push --force:*)"] } },
			],
			context,
		);
		const { evaluatePermission } = await import("../../src/core/permissions/policy.js");
		const verdict = async (command: string) =>
			evaluatePermission(await subjectOf("bash", { command }, context), policy, "default");
		expect((await verdict("git status")).behavior).toBe("allow");
		expect((await verdict("git push origin main")).behavior).toBe("ask");
		const forced = await verdict("git push --force origin");
		expect(forced).toMatchObject({ behavior: "deny", reason: { kind: "rule", subject: "git push --force origin" } });
		expect(forced.reason.kind === "rule" && forced.reason.rule.source).toBe("project settings");
	});

	it("every command of a compound command must pass", async () => {
		const rules = { allow: ["Bash(git status)", "Bash(npm test:*)"], deny: ["Bash(rm:*)"] };
		expect(await bashBehavior("git status && npm test -- --ci", { rules, mode: "ask", context })).toBe("allow");
		expect(await bashBehavior("git status && curl x", { rules, mode: "ask", context })).toBe("ask");
		expect(await bashBehavior("git status; rm -rf build", { rules, mode: "ask", context })).toBe("deny");
		expect(await bashBehavior("git status && curl x", { rules, mode: "default", context })).toBe("allow");
	});

	it("a command the rules cannot fully read asks when some rule could object, and runs in default mode when none could", async () => {
		const deny = { deny: ["Bash(rm -rf /:*)"] };
		expect(await bashBehavior("rm -rf $TARGET", { rules: deny, context })).toBe("ask");
		expect(await bashBehavior("$CMD x", { rules: deny, context })).toBe("ask");
		expect(await bashBehavior("echo 'open", { rules: deny, context })).toBe("ask");
		expect(await bashBehavior("ls $DIR", { rules: deny, context })).toBe("allow");
		expect(await bashBehavior("$CMD x", { context })).toBe("allow");
		expect(await bashBehavior("echo 'open", { mode: "acceptEdits", context })).toBe("ask");
		// `Bash` allows everything that no deny or ask rule objects to.
		expect(await bashBehavior("$CMD x", { rules: { allow: ["Bash"] }, mode: "ask", context })).toBe("allow");
	});

	it("output redirections are file writes: Edit and Write rules apply to them", async () => {
		const rules = { deny: ["Edit(.env)"], allow: ["Bash(echo:*)"] };
		expect(await bashBehavior("echo KEY=1 > .env", { rules, context })).toBe("deny");
		expect(await bashBehavior("echo x > notes.txt", { rules, mode: "ask", context })).toBe("ask");
		expect(await bashBehavior("echo x > notes.txt", { rules, mode: "acceptEdits", context })).toBe("allow");
		expect(await bashBehavior("echo x > /tmp/elsewhere.txt", { rules, mode: "acceptEdits", context })).toBe("ask");
	});
});

describe("modes", () => {
	const cases: [string, Record<string, unknown>, Record<PermissionMode, "allow" | "ask" | "deny">][] = [
		[
			"read",
			{ path: "src/a.ts" },
			{ default: "allow", ask: "allow", acceptEdits: "allow", plan: "allow", yolo: "allow" },
		],
		[
			"grep",
			{ pattern: "x" },
			{ default: "allow", ask: "allow", acceptEdits: "allow", plan: "allow", yolo: "allow" },
		],
		[
			"edit",
			{ path: "src/a.ts" },
			{ default: "allow", ask: "ask", acceptEdits: "allow", plan: "deny", yolo: "allow" },
		],
		[
			"write",
			{ path: "/tmp/x.txt" },
			{ default: "allow", ask: "ask", acceptEdits: "ask", plan: "deny", yolo: "allow" },
		],
		[
			"bash",
			{ command: "ls -la" },
			{ default: "allow", ask: "ask", acceptEdits: "ask", plan: "allow", yolo: "allow" },
		],
		[
			"bash",
			{ command: "npm install" },
			{ default: "allow", ask: "ask", acceptEdits: "ask", plan: "deny", yolo: "allow" },
		],
		[
			"mcp__github__create_issue",
			{},
			{ default: "allow", ask: "ask", acceptEdits: "ask", plan: "ask", yolo: "allow" },
		],
		[
			"mcp",
			{ query: "issues" },
			{ default: "allow", ask: "allow", acceptEdits: "allow", plan: "allow", yolo: "allow" },
		],
	];
	for (const [tool, args, expected] of cases) {
		it(`${tool} ${JSON.stringify(args)} with no rules: ${JSON.stringify(expected)}`, async () => {
			for (const mode of Object.keys(expected) as PermissionMode[]) {
				expect(await behavior(tool, args, mode), mode).toBe(expected[mode]);
			}
		});
	}

	it("plan mode refuses changes even when a rule allows them; yolo ignores every rule", async () => {
		const rules = { allow: ["Edit", "Bash(npm install)"], deny: ["Read(.env)", "Bash(ls:*)"] };
		expect(await behavior("edit", { path: "a.ts" }, "plan", rules)).toBe("deny");
		expect(await behavior("bash", { command: "npm install" }, "plan", rules)).toBe("deny");
		expect(await behavior("bash", { command: "ls" }, "plan", rules)).toBe("deny");
		expect(await behavior("read", { path: ".env" }, "yolo", rules)).toBe("allow");
		expect(await behavior("bash", { command: "ls" }, "yolo", rules)).toBe("allow");
	});
});

describe("when a bash command need not be read", () => {
	/** Rule sets no bash command can be refused or asked about by, in default mode. */
	const NOTHING_OBJECTS: PermissionRuleSet[] = [
		{},
		{ allow: ["Bash(npm test:*)", "Bash(git status)", "Edit(src/**)", "Write(out/**)"] },
		{ allow: ["Bash"] },
		{ deny: ["Read(.env)", "Grep(secrets/**)", "mcp__github", "WebFetch"], ask: ["LS", "Find(**)", "my_tool"] },
	];
	/** Each has one deny or ask rule a bash command could meet. */
	const SOMETHING_OBJECTS: PermissionRuleSet[] = [
		{ deny: ["Bash(rm:*)"], allow: ["Bash"] },
		{ ask: ["Bash(git push:*)"] },
		{ deny: ["Bash"] },
		{ ask: ["Bash(*)"] },
		{ deny: ["Write(.env)"], allow: ["Bash"] },
		{ deny: ["Edit(//etc/**)"] },
		{ ask: ["Edit"] },
		{ ask: ["Write(locked/**)"], allow: ["Bash", "Write"] },
	];

	it("only yolo, and default mode with no deny or ask rule about commands or written files, skip reading", () => {
		for (const rules of NOTHING_OBJECTS) {
			const policy = policyOf(rules, context);
			expect(policy.hasBashObjections, JSON.stringify(rules)).toBe(false);
			for (const mode of PERMISSION_MODES) {
				expect(bashCommandMatters(policy, mode), `${mode} ${JSON.stringify(rules)}`).toBe(
					mode !== "default" && mode !== "yolo",
				);
			}
		}
		for (const rules of SOMETHING_OBJECTS) {
			const policy = policyOf(rules, context);
			expect(policy.hasBashObjections, JSON.stringify(rules)).toBe(true);
			for (const mode of PERMISSION_MODES) {
				expect(bashCommandMatters(policy, mode), `${mode} ${JSON.stringify(rules)}`).toBe(mode !== "yolo");
			}
		}
	});

	it("skipping is sound: wherever it is allowed, reading the command would have allowed it too", async () => {
		const policies = [...NOTHING_OBJECTS, ...SOMETHING_OBJECTS].map((rules) => policyOf(rules, context));
		const soundFor = async (command: string, policy: PermissionPolicy, mode: PermissionMode) => {
			if (bashCommandMatters(policy, mode)) {
				expect(() => unreadBashVerdict(command, policy, mode)).toThrow();
				return;
			}
			const read = evaluatePermission(await subjectOf("bash", { command }, context), policy, mode);
			expect(read.behavior, `${mode}: ${command}`).toBe("allow");
			expect(unreadBashVerdict(command, policy, mode).behavior).toBe("allow");
		};
		// Every rule set above objects to at least one of these when its command is read.
		const commands = [
			"rm -rf /",
			"git push --force",
			"echo KEY=1 > .env",
			"echo x >> locked/a",
			"cat < in > /etc/passwd",
			"bash -c 'rm x'",
			"$CMD x",
			"echo 'open",
			"",
		];
		for (const policy of policies) {
			for (const mode of PERMISSION_MODES) {
				for (const command of commands) await soundFor(command, policy, mode);
			}
		}
		await fc.assert(
			fc.asyncProperty(
				fc.string({ maxLength: 60 }),
				fc.constantFrom(...policies),
				fc.constantFrom(...PERMISSION_MODES),
				soundFor,
			),
			{ numRuns: 200 },
		);
	});

	it("an unread command is recorded as what allowed it", () => {
		const bashAllowed = unreadBashVerdict("rm -rf build", policyOf({ allow: ["Bash"] }, context), "default");
		expect(bashAllowed).toMatchObject({ behavior: "allow", reason: { kind: "rule", subject: "rm -rf build" } });
		expect(unreadBashVerdict("ls", policyOf({}, context), "default").reason).toEqual({
			kind: "mode",
			mode: "default",
			detail: "no deny or ask rule is about commands or the files they write",
		});
		expect(unreadBashVerdict("rm x", policyOf({ deny: ["Bash(rm:*)"] }, context), "yolo").reason).toMatchObject({
			kind: "mode",
			mode: "yolo",
		});
	});
});

describe("paths", () => {
	it("allow rules reach only files the call really reaches: links out of the project do not match", async () => {
		const rules = { allow: ["Edit(src/**)"] };
		expect(await behavior("edit", { path: "src/a.ts" }, "ask", rules)).toBe("allow");
		expect(await behavior("edit", { path: "src/out/a.ts" }, "ask", rules)).toBe("ask");
		expect(await behavior("edit", { path: "src/../../elsewhere/a.ts" }, "ask", rules)).toBe("ask");
		// In accept-edits mode a link out of the project is outside too.
		expect(await behavior("edit", { path: "src/out/a.ts" }, "acceptEdits")).toBe("ask");
	});

	it("deny rules match the path as written and as reached", async () => {
		const rules = { deny: ["Read(src/out/**)", "Edit(//etc/**)", "Read(~/.ssh/**)"] };
		expect(await behavior("read", { path: "src/out/secret" }, "default", rules)).toBe("deny");
		expect(await behavior("write", { path: "/etc/hosts" }, "default", rules)).toBe("deny");
		expect(await behavior("read", { path: "~/.ssh/id_rsa" }, "default", rules)).toBe("deny");
		expect(await behavior("grep", { pattern: "x", path: "~/.ssh" }, "default", rules)).toBe("deny");
	});

	it("a path is read as the tools read it: @, Unicode spaces and ~ expanded", async () => {
		const rules = { deny: ["Read(my notes.txt)", "Read(~/secret)"] };
		expect(await behavior("read", { path: "my\u00a0notes.txt" }, "default", rules)).toBe("deny");
		expect(await behavior("read", { path: "@my notes.txt" }, "default", rules)).toBe("deny");
		expect(await behavior("read", { path: "~/secret" }, "default", rules)).toBe("deny");
	});

	it("Read rules cover grep, find and ls; Edit rules cover write", async () => {
		const rules = { deny: ["Read(secrets/**)", "Edit(locked/**)"] };
		expect(await behavior("ls", { path: "secrets" }, "default", rules)).toBe("deny");
		expect(await behavior("find", { pattern: "*", path: "secrets/x" }, "default", rules)).toBe("deny");
		expect(await behavior("write", { path: "locked/a" }, "default", rules)).toBe("deny");
		expect(await behavior("write", { path: "free/a" }, "default", { deny: ["Write(locked/**)"] })).toBe("allow");
	});
});

describe("MCP and other tools", () => {
	it("the mcp tool's calls are judged by the inner tool's name, and a rule on `mcp` objects to all of them", async () => {
		const call = { tool: "mcp__github__delete_repo", arguments: { name: "x" } };
		expect(await behavior("mcp", call, "default", { deny: ["mcp__github__delete_repo"] })).toBe("deny");
		expect(await behavior("mcp", call, "default", { deny: ["mcp__github"] })).toBe("deny");
		expect(await behavior("mcp", call, "default", { ask: ["mcp"] })).toBe("ask");
		expect(await behavior("mcp", call, "ask", { allow: ["mcp__github__*"] })).toBe("allow");
		// Allowing `mcp` allows searching, not every tool behind it.
		expect(await behavior("mcp", call, "ask", { allow: ["mcp"] })).toBe("ask");
		expect(await behavior("mcp__github__delete_repo", {}, "default", { deny: ["mcp__github"] })).toBe("deny");
	});
});

describe("suggested rules", () => {
	it("are as narrow as the call, leaving out what is already allowed", async () => {
		const policy = policyOf({ allow: ["Bash(git status)"] }, context);
		const suggest = async (tool: string, args: Record<string, unknown>) =>
			suggestRules(await subjectOf(tool, args, context), policy);
		expect(await suggest("bash", { command: "git status && git push origin main && rm -rf build" })).toEqual([
			"Bash(git push:*)",
			"Bash(rm -rf build)",
		]);
		expect(await suggest("bash", { command: "rm -rf $DIR" })).toEqual(["Bash(rm -rf:*)"]);
		expect(await suggest("bash", { command: "$CMD x" })).toEqual([]);
		expect(await suggest("bash", { command: "echo x > out/a.txt" })).toEqual(["Bash(echo x)", "Write(./out/a.txt)"]);
		expect(await suggest("edit", { path: "src/a.ts" })).toEqual(["Edit(./src/a.ts)"]);
		expect(await suggest("write", { path: "/tmp/x" })).toEqual([expect.stringMatching(/^Write\(\/\/.*tmp\/x\)$/)]);
		expect(await suggest("mcp", { tool: "mcp__github__create_issue" })).toEqual(["mcp__github__create_issue"]);
	});
});
