// The session's permission check: asking through the mode's prompt, remembering answers, saving "always" rules,
// recording every decision, refusing when no one can answer, and refusing when anything fails.
import { afterEach, describe, expect, it, vi } from "vitest";
import { SettingsManager } from "../../src/core/config/settings-manager.js";
import type { Settings } from "../../src/core/config/settings-schema.js";
import { InMemorySettingsStorage } from "../../src/core/config/settings-storage.js";
import { DISMISSED_TEXT } from "../../src/core/permissions/messages.js";
import type { PermissionAnswer, PermissionRequest } from "../../src/core/permissions/prompt.js";
import { type CommandLinePermissions, SessionPermissions } from "../../src/core/permissions/session-permissions.js";
import { loadShellParser } from "../../src/core/permissions/shell-parser.js";
import type { PermissionDecision } from "../../src/core/session/entries.js";
import { createPermissionProject, type PermissionProject } from "../helpers/permission-fixtures.js";

// Counts loads of the shell parser: a session loads it only when some rule could object to a command.
vi.mock("../../src/core/permissions/shell-parser.js", async (importOriginal) => {
	const original = await importOriginal<typeof import("../../src/core/permissions/shell-parser.js")>();
	return { ...original, loadShellParser: vi.fn(original.loadShellParser) };
});

let project: PermissionProject | undefined;
afterEach(() => project?.cleanup());

interface Setup {
	user?: Settings;
	projectSettings?: Settings;
	trusted?: boolean;
	commandLine?: CommandLinePermissions;
}

function setup(options: Setup = {}) {
	project = createPermissionProject();
	const storage = new InMemorySettingsStorage({
		global: JSON.stringify(options.user ?? {}),
		...(options.projectSettings ? { project: JSON.stringify(options.projectSettings) } : {}),
	});
	const settingsManager = new SettingsManager(storage, { projectTrusted: options.trusted === true });
	const decisions: PermissionDecision[] = [];
	const permissions = new SessionPermissions({
		cwd: project.cwd,
		home: project.home,
		settingsManager,
		record: (decision) => decisions.push(decision),
		...(options.commandLine ? { commandLine: options.commandLine } : {}),
	});
	const asked: PermissionRequest[] = [];
	const answerWith = (...answers: (PermissionAnswer | undefined)[]) =>
		permissions.setPrompt(async (request) => {
			asked.push(request);
			return answers.shift();
		});
	let callCount = 0;
	const bash = (command: string) =>
		permissions.check({ toolCallId: `call-${++callCount}`, toolName: "bash", args: { command } });
	return { permissions, settingsManager, storage, decisions, asked, answerWith, bash };
}

describe("decisions", () => {
	it("are recorded for every call, with the rule and where it came from", async () => {
		const { bash, decisions } = setup({ user: { permissions: { deny: ["Bash(rm:*)"] } } });
		expect(await bash("ls")).toBeUndefined();
		const refusal = await bash("cd build && rm -rf dist");
		expect(refusal).toBe(
			"Permission denied: rm -rf dist is refused by the deny rule Bash(rm:*) (user settings). It was not run. Do not try to get around the rule; if it is needed, tell the user why.",
		);
		expect(decisions).toEqual([
			{
				toolCallId: "call-1",
				toolName: "bash",
				mode: "default",
				decision: "allow",
				decidedBy: "mode",
				subject: "bash: ls",
				reason: "no rule names it",
			},
			{
				toolCallId: "call-2",
				toolName: "bash",
				mode: "default",
				decision: "deny",
				decidedBy: "rule",
				rule: "Bash(rm:*)",
				ruleSource: "user settings",
				subject: "rm -rf dist",
			},
		]);
	});

	it("plan mode refuses with a message that tells the model to finish the plan", async () => {
		const { permissions, decisions } = setup({ commandLine: { mode: "plan" } });
		const refusal = await permissions.check({
			toolCallId: "c",
			toolName: "write",
			args: { path: "a.txt", content: "" },
		});
		expect(refusal).toContain("Permission denied: plan mode is read-only. It was not run. Finish the plan");
		expect(decisions[0]).toMatchObject({ decision: "deny", decidedBy: "mode", mode: "plan" });
	});
});

describe("reading commands", () => {
	it("default mode does not read a command when no deny or ask rule could object to it", async () => {
		vi.mocked(loadShellParser).mockClear();
		const { bash, decisions } = setup({
			user: { permissions: { allow: ["Bash(npm test:*)", "Edit(src/**)"], deny: ["Read(.env)"] } },
		});
		expect(await bash("echo 'unclosed")).toBeUndefined();
		expect(await bash("rm -rf build > out.txt")).toBeUndefined();
		expect(loadShellParser).not.toHaveBeenCalled();
		expect(decisions[1]).toMatchObject({
			decision: "allow",
			decidedBy: "mode",
			subject: "bash: rm -rf build > out.txt",
			reason: "no deny or ask rule is about commands or the files they write",
		});
	});

	it("default mode reads every command once any deny or ask rule is about commands or written files", async () => {
		const cases: [Settings, string, string][] = [
			[{ permissions: { deny: ["Bash(rm:*)"], allow: ["Bash"] } }, "ls && (cd x; rm -rf y)", "deny rule Bash(rm:*)"],
			[{ permissions: { deny: ["Write(.env)"] } }, "echo KEY=1 > .env", "deny rule Write(.env)"],
			[{ permissions: { deny: ["Edit(locked/**)"] } }, "cat a | tee >locked/b", "deny rule Edit(locked/**)"],
			[{ permissions: { ask: ["Bash(git push:*)"] } }, "git fetch; git push", "no one can answer here"],
			[{ permissions: { ask: ["Write(locked/**)"] } }, "echo x >> locked/c", "no one can answer here"],
			[{ permissions: { deny: ["Bash(curl:*)"] } }, "echo 'unclosed", "no one can answer here"],
		];
		for (const [user, command, refusal] of cases) {
			const { bash, decisions } = setup({ user });
			expect(await bash(command), command).toContain(refusal);
			expect(decisions[0]?.decision, command).toBe("deny");
			project?.cleanup();
		}
	});

	it("yolo runs every command without reading it, deny rules or not", async () => {
		vi.mocked(loadShellParser).mockClear();
		const { bash, decisions } = setup({
			user: { permissions: { deny: ["Bash(rm:*)", "Write(.env)"] } },
			commandLine: { mode: "yolo" },
		});
		expect(await bash("rm -rf build > .env")).toBeUndefined();
		expect(loadShellParser).not.toHaveBeenCalled();
		expect(decisions[0]).toMatchObject({ decision: "allow", decidedBy: "mode", reason: "yolo mode runs every call" });
	});
});

describe("asking", () => {
	it("without anyone to answer (print mode, an SDK without a prompt) refuses, says how to allow it, and tells the listener", async () => {
		const { bash, permissions, decisions } = setup({ user: { permissions: { ask: ["Bash(git push:*)"] } } });
		const lines: string[] = [];
		permissions.onUnanswered((line) => lines.push(line));
		const refusal = await bash("git push origin main");
		expect(refusal).toBe(
			"This call needs the user's permission (ask rule Bash(git push:*) (user settings)), and no one can answer here, so it was not run. The user can allow it with --allow 'Bash(git push:*)' or in the \"permissions\" settings.",
		);
		expect(lines).toEqual([
			"Permission needed for bash: git push origin main (ask rule Bash(git push:*) (user settings)): refused, as no one can answer here. Allow it with --allow 'Bash(git push:*)'.",
		]);
		expect(decisions[0]).toMatchObject({ decision: "deny", decidedBy: "unanswered", rule: "Bash(git push:*)" });
	});

	it("allow once runs the call and asks again next time", async () => {
		const { bash, answerWith, asked, decisions } = setup({ commandLine: { mode: "ask" } });
		answerWith({ decision: "allow", scope: "once" }, undefined);
		expect(await bash("npm test")).toBeUndefined();
		expect(asked[0]).toMatchObject({
			toolName: "bash",
			summary: "bash: npm test",
			reason: 'ask mode asks before commands no rule allows ("npm test")',
			suggestedRules: ["Bash(npm test:*)"],
			alwaysScope: "user",
		});
		expect(await bash("npm test")).toBe(DISMISSED_TEXT);
		expect(decisions.map((decision) => [decision.decision, decision.decidedBy, decision.scope])).toEqual([
			["allow", "user", "once"],
			["deny", "user", undefined],
		]);
	});

	it("allow for this session adds the suggested rules for the rest of the session only", async () => {
		const { bash, answerWith, asked, permissions, storage, decisions } = setup({ commandLine: { mode: "ask" } });
		answerWith({ decision: "allow", scope: "session" });
		expect(await bash("npm test -- --ci")).toBeUndefined();
		expect(await bash("npm test")).toBeUndefined();
		expect(asked).toHaveLength(1);
		expect(decisions[1]).toMatchObject({ decidedBy: "rule", rule: "Bash(npm test:*)", ruleSource: "this session" });
		expect(permissions.listRules()).toContainEqual({
			list: "allow",
			rule: "Bash(npm test:*)",
			source: "this session",
		});
		expect(storage.read("global")).toBe("{}");
	});

	it("always saves the rule in the project's settings when the project is trusted, else in the user's", async () => {
		const trusted = setup({ commandLine: { mode: "ask" }, trusted: true });
		trusted.answerWith({ decision: "allow", scope: "always" });
		expect(await trusted.bash("make build")).toBeUndefined();
		expect(trusted.asked[0]?.alwaysScope).toBe("project");
		await trusted.settingsManager.flush();
		expect(JSON.parse(trusted.storage.read("project") ?? "{}")).toEqual({
			permissions: { allow: ["Bash(make build:*)"] },
		});
		project?.cleanup();

		const untrusted = setup({ commandLine: { mode: "ask" } });
		untrusted.answerWith({ decision: "allow", scope: "always" });
		expect(await untrusted.bash("make build")).toBeUndefined();
		await untrusted.settingsManager.flush();
		expect(JSON.parse(untrusted.storage.read("global") ?? "{}")).toEqual({
			permissions: { allow: ["Bash(make build:*)"] },
		});
		expect(untrusted.storage.read("project")).toBeUndefined();
		expect(await untrusted.bash("make build")).toBeUndefined();
	});

	it("deny with a reason sends the reason to the model and records it", async () => {
		const { bash, answerWith, decisions } = setup({ commandLine: { mode: "ask" } });
		answerWith({ decision: "deny", reason: "  use the staging database  " });
		expect(await bash("psql prod")).toBe(
			"The user denied this call; it was not run. The user's reason: use the staging database",
		);
		expect(decisions[0]).toMatchObject({
			decision: "deny",
			decidedBy: "user",
			scope: "once",
			userReason: "use the staging database",
		});
	});

	it("deny always saves deny rules (ACP's reject_always)", async () => {
		const { bash, answerWith, storage, settingsManager } = setup({ commandLine: { mode: "ask" } });
		answerWith({ decision: "deny", scope: "always" });
		expect(await bash("git push")).toContain("The user denied this call");
		await settingsManager.flush();
		expect(JSON.parse(storage.read("global") ?? "{}")).toEqual({ permissions: { deny: ["Bash(git push:*)"] } });
		expect(await bash("git push origin")).toContain("refused by the deny rule Bash(git push:*)");
	});
});

describe("failing closed", () => {
	it("a prompt that throws refuses the call", async () => {
		const { bash, permissions, decisions } = setup({ commandLine: { mode: "ask" } });
		permissions.setPrompt(async () => {
			throw new Error("the editor went away");
		});
		expect(await bash("npm test")).toBe(
			"Permission denied: the permission check failed (the editor went away), so the call was not run.",
		);
		expect(decisions[0]).toMatchObject({ decision: "deny", decidedBy: "error", reason: "the editor went away" });
	});

	it("a deny or ask rule that cannot be read is reported and makes what would run ask (fail closed); a failing settings read refuses", async () => {
		const { permissions, settingsManager, bash } = setup({
			user: { permissions: { deny: ["Bash(", "Bash(rm:*)"] } },
		});
		expect(permissions.notices()).toEqual([
			'Ignored permission rule in user settings (deny): "Bash(" is not Tool or Tool(pattern)',
		]);
		expect(await bash("rm x")).toContain("refused by the deny rule Bash(rm:*)");
		expect(await bash("ls")).toContain("cannot be read");
		settingsManager.getPermissionSettings = () => {
			throw new Error("settings are gone");
		};
		expect(await bash("ls")).toBe(
			"Permission denied: the permission check failed (settings are gone), so the call was not run.",
		);
	});
});

describe("sources and modes", () => {
	it("an untrusted project's permissions are ignored, a trusted project's apply", async () => {
		const projectSettings: Settings = { permissions: { deny: ["Bash(ls:*)"], defaultMode: "yolo" } };
		const untrusted = setup({ projectSettings });
		expect(untrusted.permissions.mode).toBe("default");
		expect(await untrusted.bash("ls")).toBeUndefined();
		project?.cleanup();
		const trusted = setup({ projectSettings, trusted: true });
		expect(trusted.permissions.mode).toBe("yolo");
		trusted.permissions.setMode("default");
		expect(await trusted.bash("ls")).toContain("(project settings)");
	});

	it("command-line, user and project rules all apply (they are not merged away), and extensions may add their own", async () => {
		const { permissions, bash } = setup({
			user: { permissions: { deny: ["Bash(rm:*)"] } },
			projectSettings: { permissions: { deny: ["Bash(curl:*)"] } },
			trusted: true,
			commandLine: { deny: ["Bash(wget:*)"] },
		});
		expect(await bash("rm x")).toContain("(user settings)");
		expect(await bash("curl x")).toContain("(project settings)");
		expect(await bash("wget x")).toContain("(command line)");
		const remove = permissions.addRules({ deny: ["Bash(scp:*)"] }, "extension ./guard.ts");
		expect(await bash("scp a b")).toContain("(extension ./guard.ts)");
		remove();
		expect(await bash("scp a b")).toBeUndefined();
	});

	it("the mode starts from the command line, else settings; cycling skips yolo unless the session started in it", () => {
		const fromSettings = setup({ user: { permissions: { defaultMode: "acceptEdits" } } });
		expect(fromSettings.permissions.mode).toBe("acceptEdits");
		const seen: string[] = [];
		fromSettings.permissions.onModeChange((mode) => seen.push(mode));
		expect([1, 2, 3, 4].map(() => fromSettings.permissions.cycleMode())).toEqual([
			"plan",
			"ask",
			"default",
			"acceptEdits",
		]);
		expect(seen).toEqual(["plan", "ask", "default", "acceptEdits"]);
		project?.cleanup();
		const yolo = setup({ user: { permissions: { defaultMode: "acceptEdits" } }, commandLine: { mode: "yolo" } });
		expect([1, 2, 3, 4, 5].map(() => yolo.permissions.cycleMode())).toEqual([
			"default",
			"acceptEdits",
			"plan",
			"ask",
			"yolo",
		]);
	});
});
