// Permissions in print and JSON mode, from the built binary against the fake model server: denials reach the model
// as the tool's result, a call that would ask is refused with a line on stderr, rules come from flags and settings,
// and an untrusted project's rules are ignored.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, parseJsonLines, runCli } from "../helpers/cli-sandbox.js";
import {
	type RecordedModelRequest,
	startFakeModelServerForFile,
	textReply,
	toolCallReply,
} from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
afterEach(() => sandbox?.cleanup());

function newSandbox(settings: Record<string, unknown> = {}): CliSandbox {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl, settings });
	return sandbox;
}

/** The text of the tool results the model got back in a request. */
function toolResultsOf(request: RecordedModelRequest | undefined): string[] {
	return (request?.body.messages ?? [])
		.filter((message) => message.role === "tool")
		.map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)));
}

describe("print mode", () => {
	it("a --deny rule refuses the call; the model gets the reason as the tool result and the command never runs", async () => {
		newSandbox();
		writeFileSync(join(sandbox.cwd, "keep.txt"), "precious");
		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "echo cleaning; rm -f keep.txt" } }]),
			textReply("I could not delete it."),
		);
		const result = await runCli(sandbox, ["-p", "--deny", "Bash(rm:*)", "clean up"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("I could not delete it.\n");
		expect(existsSync(join(sandbox.cwd, "keep.txt"))).toBe(true);
		expect(toolResultsOf(server.requests[1])).toEqual([
			"Permission denied: rm -f keep.txt is refused by the deny rule Bash(rm:*) (command line). It was not run. Do not try to get around the rule; if it is needed, tell the user why.",
		]);
	});

	it("a call that would ask is refused, named on stderr with the flag that allows it, and told to the model", async () => {
		newSandbox();
		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "touch made.txt" } }]),
			textReply("Refused, as expected."),
		);
		const result = await runCli(sandbox, ["-p", "--permission-mode", "ask", "make a file"]);
		expect(result.code).toBe(0);
		expect(existsSync(join(sandbox.cwd, "made.txt"))).toBe(false);
		expect(result.stderr).toContain(
			"Permission needed for bash: touch made.txt (ask mode asks before commands no rule allows (\"touch made.txt\")): refused, as no one can answer here. Allow it with --allow 'Bash(touch made.txt)'.",
		);
		expect(toolResultsOf(server.requests[1])[0]).toContain("no one can answer here, so it was not run");
	});

	it("--allow lets the call run in ask mode; plan mode refuses a write", async () => {
		newSandbox();
		server.enqueue(toolCallReply([{ name: "bash", arguments: { command: "touch made.txt" } }]), textReply("made"));
		const allowed = await runCli(sandbox, ["-p", "--permission-mode", "ask", "--allow", "Bash(touch:*)", "go"]);
		expect(allowed.stderr).toBe("");
		expect(existsSync(join(sandbox.cwd, "made.txt"))).toBe(true);

		server.enqueue(
			toolCallReply([{ name: "write", arguments: { path: "plan.txt", content: "x" } }]),
			textReply("planned"),
		);
		const plan = await runCli(sandbox, ["-p", "--permission-mode", "plan", "write it"]);
		expect(plan.code).toBe(0);
		expect(existsSync(join(sandbox.cwd, "plan.txt"))).toBe(false);
		expect(toolResultsOf(server.requests[3])[0]).toContain("Permission denied: plan mode is read-only");
	});

	it("an unknown mode is a usage error before any model call", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["-p", "--permission-mode", "careful", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(
			'Error: Invalid permission mode "careful". Valid values: default, acceptEdits, plan, ask, yolo',
		);
		expect(server.requests).toHaveLength(0);
	});
});

describe("rules from settings", () => {
	it("the user's settings apply; an untrusted project's are ignored with a notice, and apply once trusted", async () => {
		newSandbox({ permissions: { deny: ["Edit(secrets/**)"] } });
		mkdirSync(join(sandbox.cwd, ".agent"), { recursive: true });
		writeFileSync(
			join(sandbox.cwd, ".agent", "settings.json"),
			JSON.stringify({ permissions: { deny: ["Bash(ls:*)"] } }),
		);
		server.enqueue(
			toolCallReply([
				{ name: "write", arguments: { path: "secrets/key", content: "x" } },
				{ name: "bash", arguments: { command: "ls" } },
			]),
			textReply("done"),
		);
		const untrusted = await runCli(sandbox, ["-p", "go"]);
		expect(untrusted.stderr).toContain(`Ignored because ${sandbox.cwd} is not a trusted project:`);
		expect(untrusted.stderr).toContain('project setting permissions = {"deny":["Bash(ls:*)"]}');
		const [write, ls] = toolResultsOf(server.requests[1]);
		expect(write).toContain("refused by the deny rule Edit(secrets/**) (user settings)");
		expect(ls).not.toContain("Permission denied");

		server.enqueue(toolCallReply([{ name: "bash", arguments: { command: "ls" } }]), textReply("done"));
		const trusted = await runCli(sandbox, ["-p", "--trust-project", "go"]);
		expect(trusted.code).toBe(0);
		expect(toolResultsOf(server.requests[3])[0]).toContain("refused by the deny rule Bash(ls:*) (project settings)");
	});

	it("a rule that does not parse is reported at start and ignored", async () => {
		newSandbox({ permissions: { deny: ["Bash(rm"] } });
		server.enqueue(textReply("hi"));
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.stderr).toContain(
			'Ignored permission rule in user settings (deny): "Bash(rm" is not Tool or Tool(pattern)',
		);
	});
});

describe("JSON mode", () => {
	it("refuses what would ask, writes the line to stderr, and keeps stdout JSON Lines", async () => {
		newSandbox();
		server.enqueue(
			toolCallReply([{ name: "edit", arguments: { path: "a.txt", oldText: "a", newText: "b" } }]),
			textReply("ok"),
		);
		writeFileSync(join(sandbox.cwd, "a.txt"), "a");
		const result = await runCli(sandbox, ["--mode", "json", "--permission-mode", "ask", "edit it"]);
		expect(result.code).toBe(0);
		expect(readFileSync(join(sandbox.cwd, "a.txt"), "utf8")).toBe("a");
		expect(result.stderr).toContain("Permission needed for edit a.txt (ask mode asks before files change)");
		const events = parseJsonLines(result.stdout);
		const end = events.find((event) => event.type === "tool_execution_end") as { isError?: boolean } | undefined;
		expect(end?.isError).toBe(true);
	});
});
