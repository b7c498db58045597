// The permission question and the mode in the terminal UI: the built binary under tmux, against the fake model
// server. Each answer of the dialog, the mode key and the footer, the decisions in /tree.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE_PATH, CLI_PATH, type CliSandbox, createCliSandbox } from "../helpers/cli-sandbox.js";
import {
	type RecordedModelRequest,
	startFakeModelServerForFile,
	textReply,
	toolCallReply,
} from "../helpers/fake-model-server.js";
import { isTmuxAvailable, TmuxSession } from "../helpers/tmux-session.js";

const hasTmux = isTmuxAvailable();
if (!hasTmux) console.warn("tmux is not installed (apt-get install tmux) — the terminal permission tests are skipped");

const server = startFakeModelServerForFile();
let sandbox: CliSandbox | undefined;
let tmux: TmuxSession | undefined;
// Loading the shell parser for the first bash call can take a while on a busy machine.
const SLOW = { timeoutMs: 30_000 };
const VISIBLE = { timeoutMs: 30_000, history: false };

beforeAll(() => {
	if (!existsSync(BUNDLE_PATH)) throw new Error(`${BUNDLE_PATH} is missing: build first (pnpm build)`);
});
afterEach(async () => {
	await tmux?.kill();
	tmux = undefined;
	sandbox?.cleanup();
	sandbox = undefined;
});

function start(args: string[]): { sandbox: CliSandbox; tmux: TmuxSession } {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	tmux = TmuxSession.start({ command: [process.execPath, CLI_PATH, ...args], cwd: sandbox.cwd, env: sandbox.env });
	return { sandbox, tmux };
}

/** The permission dialog is on screen, about this command. */
function asking(command: string): (screen: string) => boolean {
	return (screen) => screen.includes("Permission needed") && screen.includes(`$ ${command}`);
}

function toolResultsOf(request: RecordedModelRequest | undefined): string[] {
	return (request?.body.messages ?? [])
		.filter((message) => message.role === "tool")
		.map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)));
}

describe.skipIf(!hasTmux)("permissions in the terminal UI", () => {
	it("asks in place of the editor; each answer does what it says", async () => {
		const { sandbox, tmux } = start(["--permission-mode", "ask"]);
		await tmux.waitFor("permissions: ask");

		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "touch one.txt" } }]),
			textReply("first done"),
		);
		tmux.submit("make one");
		const dialog = await tmux.waitFor(asking("touch one.txt"), VISIBLE);
		expect(dialog).toContain('Why: ask mode asks before commands no rule allows ("touch one.txt")');
		for (const choice of [
			"1. Allow once",
			"2. Allow for this session: Bash(touch one.txt)",
			"3. Always allow: Bash(touch one.txt) (saved in user settings)",
			"4. Deny",
			"5. Deny with a reason…",
		]) {
			expect(dialog).toContain(choice);
		}
		tmux.press("1");
		await tmux.waitFor("first done", SLOW);
		expect(existsSync(join(sandbox.cwd, "one.txt"))).toBe(true);

		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "touch two.txt" } }]),
			textReply("second done"),
		);
		tmux.submit("make two");
		await tmux.waitFor(asking("touch two.txt"), VISIBLE);
		tmux.press("5");
		await tmux.waitFor("Why not? (sent to the model)", VISIBLE);
		tmux.submit("wrong file");
		await tmux.waitFor("second done", SLOW);
		expect(existsSync(join(sandbox.cwd, "two.txt"))).toBe(false);
		expect(toolResultsOf(server.requests[3]).at(-1)).toBe(
			"The user denied this call; it was not run. The user's reason: wrong file",
		);

		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "touch three.txt" } }]),
			toolCallReply([{ name: "bash", arguments: { command: "touch three.txt" } }]),
			textReply("third done"),
		);
		tmux.submit("make three twice");
		await tmux.waitFor(asking("touch three.txt"), VISIBLE);
		tmux.press("3");
		await tmux.waitFor("third done", SLOW);
		// The second call ran by the saved rule, without a question.
		expect(server.requests).toHaveLength(7);
		expect(toolResultsOf(server.requests[6]).slice(-2)).toEqual(["(no output)", "(no output)"]);

		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "touch four.txt" } }]),
			toolCallReply([{ name: "bash", arguments: { command: "touch four.txt" } }]),
			toolCallReply([{ name: "bash", arguments: { command: "touch five.txt" } }]),
			textReply("fifth done"),
		);
		tmux.submit("make four twice, then five");
		await tmux.waitFor(asking("touch four.txt"), VISIBLE);
		tmux.press("2");
		// The second `touch four.txt` runs by the session's rule; the question is about five.txt next.
		await tmux.waitFor(asking("touch five.txt"), VISIBLE);
		tmux.press("4");
		await tmux.waitFor("fifth done", SLOW);
		expect(server.requests).toHaveLength(11);
		expect(existsSync(join(sandbox.cwd, "four.txt"))).toBe(true);
		expect(existsSync(join(sandbox.cwd, "five.txt"))).toBe(false);
		expect(toolResultsOf(server.requests[10]).slice(-3)).toEqual([
			"(no output)",
			"(no output)",
			"The user denied this call; it was not run. Ask the user how to proceed if it is needed.",
		]);

		// The decisions are in the session tree: the refusal is shown.
		tmux.submit("/tree");
		await tmux.waitFor("[permission: deny bash: touch two.txt — user]", VISIBLE);
		tmux.press("Escape");
		// Typed at once after Esc, "/quit" would read as Alt+/ and the rest.
		await tmux.waitFor((screen) => !screen.includes("Session tree"), VISIBLE);
		tmux.submit("/quit");
		expect(await tmux.waitForExit(30_000)).toBe(0);
		// Saved in the background; quitting waits for the write. "For this session" is not saved.
		const settings = JSON.parse(readFileSync(join(sandbox.agentDir, "settings.json"), "utf8"));
		expect(settings.permissions).toEqual({ allow: ["Bash(touch three.txt)"] });
	});

	it("alt+p cycles the mode (footer and notice); each mode decides without asking what it should", async () => {
		const { sandbox, tmux } = start([]);
		await tmux.waitFor("permissions: default");
		const exists = (file: string) => existsSync(join(sandbox.cwd, file));

		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "touch default.txt" } }]),
			textReply("default done"),
		);
		tmux.submit("touch in default mode");
		await tmux.waitFor("default done", SLOW);
		expect(exists("default.txt")).toBe(true);

		tmux.press("M-p");
		await tmux.waitFor("permissions: acceptEdits");
		expect(tmux.capture()).toContain("Permission mode: Accept edits (acceptEdits)");
		server.enqueue(
			toolCallReply([{ name: "write", arguments: { path: "edits.md", content: "x" } }]),
			textReply("edited"),
		);
		tmux.submit("write in accept-edits mode");
		await tmux.waitFor("edited", SLOW);
		expect(exists("edits.md")).toBe(true);

		tmux.press("M-p");
		await tmux.waitFor("permissions: plan");
		server.enqueue(
			toolCallReply([{ name: "write", arguments: { path: "plan.md", content: "x" } }]),
			textReply("planned instead"),
		);
		tmux.submit("write the plan file");
		await tmux.waitFor("planned instead", SLOW);
		expect(exists("plan.md")).toBe(false);
		expect(toolResultsOf(server.requests.at(-1)).at(-1)).toContain("Permission denied: plan mode is read-only");
		// None of these asked: a question would have held the run, and its reply would never have shown.

		tmux.press("M-p");
		await tmux.waitFor("permissions: ask");
		tmux.press("M-p");
		await tmux.waitFor("permissions: default");
		tmux.submit("/quit");
		expect(await tmux.waitForExit(30_000)).toBe(0);
	});

	it("yolo, when the session starts in it, runs what a deny rule refuses", async () => {
		const { sandbox, tmux } = start(["--permission-mode", "yolo", "--deny", "Bash(touch:*)"]);
		await tmux.waitFor("permissions: yolo");
		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "touch yolo.txt" } }]),
			textReply("yolo done"),
		);
		tmux.submit("touch in yolo mode");
		await tmux.waitFor("yolo done", SLOW);
		expect(existsSync(join(sandbox.cwd, "yolo.txt"))).toBe(true);
		tmux.submit("/quit");
		expect(await tmux.waitForExit(30_000)).toBe(0);
	});
});
