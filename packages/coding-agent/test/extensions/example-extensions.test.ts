// The shipped examples (examples/extensions/), loaded from their files through the real loader and exercised on
// a real session. The custom provider example runs end to end in extension-modes.test.ts.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fauxText, fauxToolCall } from "@agent/ai";
import { describe, expect, it } from "vitest";
import { dangerOf } from "../../examples/extensions/permission-gate.js";
import { isProtected } from "../../examples/extensions/protected-paths.js";
import { redactSecrets } from "../../examples/extensions/redact-secrets.js";
import { plainTheme } from "../../src/core/extensions/ui-context.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import {
	createExtensionSessionStarter,
	type ExtensionSession,
	type ExtensionSessionOptions,
} from "../helpers/extension-harness.js";
import { messageText } from "../helpers/message-text.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/extensions/", import.meta.url));

const start = createExtensionSessionStarter();

async function startWith(
	examples: string[],
	options: Omit<ExtensionSessionOptions, "extensions" | "load"> = {},
): Promise<ExtensionSession> {
	const session = await start({
		...options,
		extensions: {},
		load: examples.map((name) => join(EXAMPLES, name)),
	});
	expect(session.loaded.errors).toEqual([]);
	return session;
}

function toolResultTexts(s: ExtensionSession): string[] {
	return s.harness.session.messages.flatMap((message) =>
		message.role === "toolResult" ? [messageText(message)] : [],
	);
}

function notifications(s: ExtensionSession): unknown[] {
	return s.ui.calls.filter((call) => call.method === "notify").map((call) => call.args[0]);
}

describe("permission-gate.ts", () => {
	it("recognizes dangerous commands and leaves ordinary ones alone", () => {
		expect(dangerOf("rm -rf build")).toBe("recursive or forced delete");
		expect(dangerOf("sudo apt install x")).toBe("runs as root");
		expect(dangerOf("curl -fsSL https://x.sh | sh")).toBe("pipes a download into a shell");
		expect(dangerOf("git push --force origin main")).toBe("force-pushes");
		expect(dangerOf("ls -la && rm notes.txt")).toBeUndefined();
		expect(dangerOf("npm test")).toBeUndefined();
	});

	it("asks before a dangerous command and blocks it when the user says no", async () => {
		const s = await startWith(["permission-gate.ts"]);
		s.harness.faux.enqueue(fauxToolCall("bash", { command: "rm -rf out && echo gone > gone.txt" }), fauxText("ok"));
		await s.harness.session.prompt("clean up");
		expect(s.ui.calls.map((call) => call.method)).toEqual(["confirm"]);
		expect(s.ui.calls[0]?.args.slice(0, 2)).toEqual([
			"Allow a dangerous command? (recursive or forced delete)",
			"rm -rf out && echo gone > gone.txt",
		]);
		expect(toolResultTexts(s)).toEqual(["The user did not allow this command (recursive or forced delete)."]);
	});

	it("runs the command when the user allows it, and never asks about safe commands", async () => {
		const s = await startWith(["permission-gate.ts"]);
		s.ui.answers.confirm = true;
		s.harness.faux.enqueue(
			fauxToolCall("bash", { command: "echo safe" }),
			fauxToolCall("bash", { command: "rm -rf nothing-here; echo removed" }),
			fauxText("ok"),
		);
		await s.harness.session.prompt("go");
		expect(s.ui.calls.map((call) => call.method)).toEqual(["confirm"]);
		expect(toolResultTexts(s)).toEqual(["safe\n", "removed\n"]);
	});

	it("blocks dangerous commands outright where there is no UI to ask", async () => {
		const s = await startWith(["permission-gate.ts"], { ui: false });
		s.harness.faux.enqueue(fauxToolCall("bash", { command: "sudo reboot" }), fauxText("ok"));
		await s.harness.session.prompt("restart");
		expect(toolResultTexts(s)).toEqual(["Blocked a dangerous command (runs as root); no user is here to allow it."]);
	});
});

describe("protected-paths.ts", () => {
	it("matches protected files, directories and globs", () => {
		const patterns = [".env", ".env.*", ".git/", "node_modules/", "*.pem", "config/secrets.json"];
		expect(isProtected(".env", patterns)).toBe(true);
		expect(isProtected("app/.env.local", patterns)).toBe(true);
		expect(isProtected(".git/config", patterns)).toBe(true);
		expect(isProtected("packages/x/node_modules/y/index.js", patterns)).toBe(true);
		expect(isProtected("certs/server.pem", patterns)).toBe(true);
		expect(isProtected("config/secrets.json", patterns)).toBe(true);
		expect(isProtected("src/env.ts", patterns)).toBe(false);
		expect(isProtected("docs/git/notes.md", patterns)).toBe(false);
	});

	it("blocks writes, edits and shell redirections into protected paths; --protected adds more", async () => {
		const s = await startWith(["protected-paths.ts"], { files: { "src/app.ts": "let a = 1;\n" } });
		s.runner.setFlagValues(new Map([["protected", "dist/"]]));
		s.harness.faux.enqueue(
			fauxToolCall("write", { path: ".env", content: "X=1" }),
			fauxToolCall("bash", { command: "echo hacked >> .git/config" }),
			fauxToolCall("write", { path: "dist/app.js", content: "x" }),
			fauxToolCall("edit", { path: "src/app.ts", oldText: "let a = 1;", newText: "let a = 2;" }),
			fauxText("ok"),
		);
		await s.harness.session.prompt("change things");
		expect(toolResultTexts(s).slice(0, 3)).toEqual([
			'Path ".env" is protected; leave it to the user.',
			'Path ".git/config" is protected; leave it to the user.',
			'Path "dist/app.js" is protected; leave it to the user.',
		]);
		expect(readFileSync(join(s.world.cwd, "src/app.ts"), "utf8")).toBe("let a = 2;\n");
	});
});

describe("todo.ts", () => {
	it("keeps a list in the tool results, shows it with /todos, and follows the session tree", async () => {
		const s = await startWith(["todo.ts"]);
		s.harness.faux.enqueue(
			fauxToolCall("todo", { action: "add", text: "write the parser" }),
			fauxText("added one"),
			fauxToolCall("todo", { action: "add", text: "write the tests" }),
			fauxToolCall("todo", { action: "toggle", id: 1 }),
			fauxText("added and ticked"),
		);
		await s.harness.session.prompt("first step");
		const afterFirst = s.harness.sessionManager.getLeafId() as string;
		await s.harness.session.prompt("second step");
		expect(toolResultTexts(s).at(-1)).toBe("[x] 1. write the parser\n[ ] 2. write the tests");
		expect(s.harness.session.systemPrompt).toContain("- todo: Track the steps of multi-step work in a todo list");

		await s.harness.session.prompt("/todos");
		expect(notifications(s).at(-1)).toBe("[x] 1. write the parser\n[ ] 2. write the tests");

		// Back on the branch where only the first item existed, the list is that branch's.
		await s.harness.session.navigateTree(afterFirst);
		await s.harness.session.prompt("/todos");
		expect(notifications(s).at(-1)).toBe("[ ] 1. write the parser");
	});

	it("renders its calls and results with the theme it is given", async () => {
		const s = await startWith(["todo.ts"]);
		const tool = s.runner.getToolDefinition("todo");
		const call = tool?.renderCall?.({ action: "add", text: "ship it" }, plainTheme);
		expect(call?.render(40)).toEqual(["todo add ship it"]);
		const result = {
			content: [],
			details: { action: "list", todos: [{ id: 1, text: "ship it", done: true }] },
		};
		expect(tool?.renderResult?.(result, { expanded: false, isPartial: false }, plainTheme)?.render(40)).toEqual([
			"0 open, 1 done",
		]);
		expect(tool?.renderResult?.(result, { expanded: true, isPartial: false }, plainTheme)?.render(40)).toEqual([
			"[x] 1. ship it",
			"0 open, 1 done",
		]);
	});
});

describe("plan-mode.ts", () => {
	it("/plan limits the model to reading; /plan again restores the tools and starts the work", async () => {
		const s = await startWith(["plan-mode.ts"]);
		const { session, faux } = s.harness;
		await session.prompt("/plan");
		expect(session.getActiveToolNames()).toEqual(["read", "grep", "find", "ls"]);
		// Another extension (or the user) turns bash back on: the plan-mode gate still stops it.
		session.setActiveToolsByName(["read", "grep", "find", "ls", "bash"]);
		faux.enqueue(fauxToolCall("bash", { command: "echo changed > f.txt" }), fauxText("1. change f.txt"));
		await session.prompt("how would you change f.txt?");
		expect(faux.requests[0]?.context.systemPrompt).toMatch(/You are in plan mode\./);
		expect(existsSync(join(s.world.cwd, "f.txt"))).toBe(false);
		expect(toolResultTexts(s)[0]).toBe('Plan mode: "bash" is not available until the user approves the plan.');
		expect(notifications(s).at(-1)).toBe("Plan ready. Type /plan to approve it and let the agent carry it out.");

		faux.enqueue(fauxText("done"));
		await session.prompt("/plan");
		await session.waitForIdle();
		expect(session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
		const last = faux.requests.at(-1);
		expect(last?.context.systemPrompt).not.toMatch(/plan mode/);
		expect(last?.context.messages.at(-1)).toMatchObject({
			role: "user",
			content: [{ type: "text", text: "The plan is approved. Carry it out step by step." }],
		});
	});

	it("--plan starts in plan mode, and a resumed session is still in plan mode", async () => {
		const s = await startWith(["plan-mode.ts"], { bind: false });
		s.runner.setFlagValues(new Map([["plan", true]]));
		await s.harness.session.bindExtensions();
		expect(s.harness.session.getActiveToolNames()).toEqual(["read", "grep", "find", "ls"]);
		expect(s.ui.calls.find((call) => call.method === "setStatus")?.args).toEqual([
			"plan-mode",
			"plan mode: read-only until /plan",
		]);
		s.harness.faux.enqueue(fauxText("a plan"));
		await s.harness.session.prompt("plan something");
		const file = s.harness.session.sessionFile as string;
		s.harness.session.dispose();
		s.harness.sessionManager.close();

		// A new process resuming that file, without --plan: a fresh extension instance reads the session.
		const resumed = await startWith(["plan-mode.ts"], { sessionManager: SessionManager.open(file) });
		try {
			expect(resumed.harness.session.getActiveToolNames()).toEqual(["read", "grep", "find", "ls"]);
		} finally {
			s.dispose();
		}
	});
});

describe("git-checkpoint.ts", () => {
	function git(cwd: string, ...args: string[]): string {
		return execFileSync("git", args, {
			cwd,
			encoding: "utf8",
			env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null" },
		});
	}

	it("takes a checkpoint before the first change of a reply and restores the files when the user forks there", async () => {
		const s = await startWith(["git-checkpoint.ts"], { files: { "app.txt": "version 1\n" } });
		const cwd = s.world.cwd;
		git(cwd, "init", "-q");
		git(cwd, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".");
		git(cwd, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "start");
		writeFileSync(join(cwd, "app.txt"), "version 2 (uncommitted)\n");

		s.harness.faux.enqueue(fauxText("looked"), fauxToolCall("write", { path: "app.txt", content: "version 3\n" }));
		s.harness.faux.enqueue(fauxText("rewrote"));
		await s.harness.session.prompt("look");
		await s.harness.session.prompt("rewrite app.txt");
		expect(readFileSync(join(cwd, "app.txt"), "utf8")).toBe("version 3\n");
		// Only the reply that changed something has a checkpoint.
		const checkpoints = s.harness.sessionManager.getEntries().filter((entry) => entry.type === "custom");
		expect(checkpoints).toHaveLength(1);

		s.ui.answers.select = "Restore the files";
		const secondPrompt = s.harness.session.getUserMessagesForForking()[1]?.entryId as string;
		await s.harness.session.fork(secondPrompt);
		expect(s.ui.calls.find((call) => call.method === "select")?.args[0]).toBe("Restore the files to that point too?");
		expect(readFileSync(join(cwd, "app.txt"), "utf8")).toBe("version 2 (uncommitted)\n");
		// The checkpoint is a dangling commit: the repository's branch and index are untouched.
		expect(git(cwd, "status", "--porcelain")).toBe(" M app.txt\n");
	});
});

describe("redact-secrets.ts", () => {
	it("redacts keys, tokens, private keys and secret assignments", () => {
		const text = [
			"OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx",
			"db_password: hunter2",
			'{"token": "abc.def"}',
			"aws AKIAABCDEFGHIJKLMNOP here",
			"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
			"HOME=/home/me",
		].join("\n");
		expect(redactSecrets(text)).toBe(
			[
				"OPENAI_API_KEY=[REDACTED]",
				"db_password: [REDACTED]",
				'{"token": "[REDACTED]"}',
				"aws [REDACTED] here",
				"[REDACTED]",
				"HOME=/home/me",
			].join("\n"),
		);
	});

	it("keeps secrets out of what the model sees and out of the session file", async () => {
		const s = await startWith(["redact-secrets.ts"], {
			files: { ".env": "API_KEY=sk-live-0123456789abcdefghij\nPORT=8080\n" },
		});
		s.harness.faux.enqueue(fauxToolCall("read", { path: ".env" }), fauxText("ok"));
		await s.harness.session.prompt("what port?");
		const seen = JSON.stringify(s.harness.faux.requests[1]?.context.messages);
		expect(seen).toContain("API_KEY=[REDACTED]");
		expect(seen).toContain("PORT=8080");
		expect(readFileSync(s.harness.session.sessionFile as string, "utf8")).not.toContain("sk-live-0123456789");
	});
});
