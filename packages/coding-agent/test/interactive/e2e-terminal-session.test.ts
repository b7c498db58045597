// The built `agent` binary in a real terminal (tmux), against a local fake model server: what a person does in a
// session, and the session file it leaves behind.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
	BUNDLE_PATH,
	CLI_PATH,
	type CliSandbox,
	createCliSandbox,
	FAKE_PROVIDER,
	fakeModelsJson,
} from "../helpers/cli-sandbox.js";
import { deferred } from "../helpers/deferred.js";
import { lastUserText, startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";
import { isTmuxAvailable, TmuxSession } from "../helpers/tmux-session.js";

const hasTmux = isTmuxAvailable();
const SKIP_REASON = "tmux is not installed (apt-get install tmux) — end-to-end terminal tests skipped";
if (!hasTmux) console.warn(SKIP_REASON);

const server = startFakeModelServerForFile();
let sandbox: CliSandbox | undefined;
let tmux: TmuxSession | undefined;

beforeAll(() => {
	if (!existsSync(BUNDLE_PATH)) throw new Error(`${BUNDLE_PATH} is missing: build first (pnpm build)`);
});
afterEach(async () => {
	await tmux?.kill();
	tmux = undefined;
	sandbox?.cleanup();
	sandbox = undefined;
});

/** A sandbox whose models.json offers two models of the fake provider. */
function start(): { sandbox: CliSandbox; tmux: TmuxSession } {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	const models = fakeModelsJson(server.baseUrl) as {
		providers: Record<string, { models: Record<string, unknown>[] }>;
	};
	const provider = models.providers[FAKE_PROVIDER];
	provider?.models.push({ ...provider.models[0], id: "fake-model-2", name: "Fake Model Two" });
	writeFileSync(join(sandbox.agentDir, "models.json"), JSON.stringify(models, null, 2));
	writeFileSync(join(sandbox.cwd, "notes.txt"), "alpha\nbeta\n");
	tmux = TmuxSession.start({ command: [process.execPath, CLI_PATH], cwd: sandbox.cwd, env: sandbox.env });
	return { sandbox, tmux };
}

function sessionFiles(agentDir: string): string[] {
	const root = join(agentDir, "sessions");
	const files: string[] = [];
	for (const dir of readdirSync(root)) {
		for (const name of readdirSync(join(root, dir))) if (name.endsWith(".jsonl")) files.push(join(root, dir, name));
	}
	return files;
}

type Entry = Record<string, unknown> & {
	type: string;
	message?: { role: string; content: unknown; stopReason?: string };
};

function readEntries(path: string): Entry[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => JSON.parse(line) as Entry);
}

function textOf(entry: Entry): string {
	const content = entry.message?.content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.map((block: { type: string; text?: string }) => (block.type === "text" ? block.text : "")).join("");
}

describe.skipIf(!hasTmux)("agent in a terminal", () => {
	it("answers with a tool call, takes steering mid-run, aborts on Esc, and records it all", async () => {
		const { sandbox, tmux } = start();
		await tmux.waitFor("fake-model");

		server.enqueue(
			toolCallReply([{ name: "read", arguments: { path: "notes.txt" } }]),
			textReply("The file holds alpha and beta."),
		);
		tmux.submit("what is in notes.txt?");
		await tmux.waitFor("The file holds alpha and beta.");
		const screen = tmux.capture({ history: true });
		expect(screen).toContain("read notes.txt");
		expect(screen).toMatch(/1 alpha/);

		// Steering: sent while the reply is held back, delivered before the next model call.
		const gate = deferred();
		server.enqueue(textReply("Working through it.", { gate: gate.promise }), textReply("Steered: using tabs."));
		tmux.submit("reformat the file");
		await tmux.waitFor("Working...");
		tmux.submit("use tabs");
		await tmux.waitFor("Steering: use tabs");
		gate.resolve();
		await tmux.waitFor("Steered: using tabs.");
		expect(lastUserText(server.requests[3] as never)).toBe("use tabs");

		// Esc aborts a reply that never finishes.
		server.enqueue(textReply("never sent", { gate: new Promise(() => {}) }));
		tmux.submit("take forever");
		await tmux.waitFor("Working...");
		tmux.press("Escape");
		await tmux.waitFor("Operation aborted");

		tmux.submit("/quit");
		expect(await tmux.waitForExit()).toBe(0);

		const [file] = sessionFiles(sandbox.agentDir);
		const entries = readEntries(file as string);
		expect(entries[0]).toMatchObject({ type: "session", version: 3, cwd: sandbox.cwd });
		const messages = entries.filter((entry) => entry.type === "message");
		expect(messages.map((entry) => entry.message?.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
			"user",
			"assistant",
			"user",
			"assistant",
			// The aborted reply produced nothing, so it is not recorded (as in the reference).
			"user",
		]);
		expect(textOf(messages[0] as Entry)).toBe("what is in notes.txt?");
		expect(textOf(messages[6] as Entry)).toBe("use tabs");
		expect(textOf(messages[8] as Entry)).toBe("take forever");
		// Every entry hangs off the previous one: one linear branch.
		const body = entries.slice(1) as unknown as { id: string; parentId: string | null }[];
		for (let i = 1; i < body.length; i++) expect(body[i]?.parentId).toBe(body[i - 1]?.id);
	});

	it("switches models, navigates the tree, resumes a session and quits", async () => {
		const { sandbox, tmux } = start();
		await tmux.waitFor("fake-model");
		server.enqueue(textReply("First answer."), textReply("Second answer."));
		tmux.submit("first question");
		await tmux.waitFor("First answer.");

		tmux.submit("/model");
		await tmux.waitFor("Select model");
		tmux.submit("model-2");
		await tmux.waitFor("Model: fake-model-2");
		tmux.submit("second question");
		await tmux.waitFor("Second answer.");
		expect(server.requests[1]?.body.model).toBe("fake-model-2");

		tmux.submit("/name e2e-main");
		await tmux.waitFor("Session name set: e2e-main");

		// Back to the first question: the leaf moves to before it and its text returns to the editor.
		tmux.submit("/tree");
		await tmux.waitFor("Session tree");
		tmux.submit("first question");
		await tmux.waitFor("Summarize branch?");
		tmux.press("Enter");
		await tmux.waitFor("Navigated to selected point");
		await tmux.waitFor(/│?\s*first question\s*$/m);
		tmux.press("C-c");

		tmux.submit("/new");
		await tmux.waitFor("New session started");
		tmux.submit("/resume");
		await tmux.waitFor("Resume session");
		await tmux.waitFor("e2e-main");
		tmux.submit("e2e-main");
		await tmux.waitFor("Resumed session");
		await tmux.waitFor("Second answer.");

		tmux.submit("/quit");
		expect(await tmux.waitForExit()).toBe(0);

		const files = sessionFiles(sandbox.agentDir).map(readEntries);
		const main = files.find((entries) => entries.some((entry) => entry.type === "session_info"));
		expect(main).toBeDefined();
		const entries = main as Entry[];
		expect(entries.find((entry) => entry.type === "session_info")).toMatchObject({ name: "e2e-main" });
		const modelChanges = entries.filter((entry) => entry.type === "model_change").map((entry) => entry.modelId);
		expect(modelChanges).toEqual(["fake-model", "fake-model-2"]);
		const texts = entries.filter((entry) => entry.type === "message").map(textOf);
		expect(texts).toEqual(["first question", "First answer.", "second question", "Second answer."]);
	});

	it("gives extensions the terminal UI: commands with dialogs, shortcuts, statuses, tool renderers", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		mkdirSync(join(sandbox.agentDir, "extensions"), { recursive: true });
		writeFileSync(
			join(sandbox.agentDir, "extensions", "demo.ts"),
			`import { Text } from "@agent/tui";
import { Type } from "@sinclair/typebox";
export default (agent: any) => {
	agent.registerCommand("greet", {
		description: "Say hello",
		async handler(_args: string, ctx: any) {
			const name = await ctx.ui.input("Your name?");
			ctx.ui.notify("Hello, " + name + "!", "info");
			ctx.ui.setStatus("demo", "demo: greeted");
		},
	});
	agent.registerShortcut("alt+g", { description: "Ping", handler: (ctx: any) => ctx.ui.notify("shortcut fired", "info") });
	agent.registerTool({
		name: "shout",
		label: "Shout",
		description: "Shouts the text",
		parameters: Type.Object({ text: Type.String() }),
		async execute(_id: string, params: { text: string }) {
			return { content: [{ type: "text", text: params.text.toUpperCase() }], details: {} };
		},
		renderCall: (args: { text: string }) => new Text("megaphone: " + args.text, 0, 0),
	});
};
`,
		);
		tmux = TmuxSession.start({ command: [process.execPath, CLI_PATH], cwd: sandbox.cwd, env: sandbox.env });
		await tmux.waitFor("fake-model");
		tmux.submit("/greet");
		await tmux.waitFor("Your name?");
		tmux.submit("Ada");
		await tmux.waitFor("Hello, Ada!");
		await tmux.waitFor("demo: greeted");
		tmux.press("M-g");
		await tmux.waitFor("shortcut fired");
		server.enqueue(toolCallReply([{ name: "shout", arguments: { text: "hi there" } }]), textReply("Shouted."));
		tmux.submit("shout hi there");
		await tmux.waitFor("Shouted.");
		expect(tmux.capture({ history: true })).toContain("megaphone: hi there");
		tmux.submit("/quit");
		expect(await tmux.waitForExit()).toBe(0);
	});

	it("shows a broken models.json as `models.json error: …`, and after /reload only a new or changed error", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const modelsPath = join(sandbox.agentDir, "models.json");
		const validModels = readFileSync(modelsPath, "utf8");
		const withoutModels = JSON.stringify({ providers: { [FAKE_PROVIDER]: { apiKey: "fake-key" } } });
		const errorCount = (screen: string) => screen.split("models.json error: ").length - 1;
		writeFileSync(modelsPath, '{"providers": {');
		tmux = TmuxSession.start({ command: [process.execPath, CLI_PATH], cwd: sandbox.cwd, env: sandbox.env });
		const session = tmux;

		const startup = await session.waitFor("models.json error: Failed to parse models.json: ");
		expect(startup).toContain(`File: ${modelsPath}`);
		expect(startup).not.toContain("Warning: Failed to parse");

		writeFileSync(modelsPath, withoutModels);
		session.submit("/reload");
		await session.waitFor(
			`models.json error: Failed to load models.json: Provider ${FAKE_PROVIDER}: must specify "baseUrl", "compat",`,
		);

		// The same error again: the second /reload (its status line comes after the marker) adds nothing.
		session.submit("!echo marker-$((40 + 2))");
		await session.waitFor("marker-42");
		session.submit("/reload");
		const unchanged = await session.waitFor(/marker-42[\s\S]*Reloaded extensions/);
		expect(errorCount(unchanged)).toBe(2);

		// Fixed: the file's models are back, and no error is shown for it.
		writeFileSync(modelsPath, validModels);
		session.submit("/reload");
		session.submit("/model");
		await session.waitFor("Select model");
		session.submit("fake-model");
		await session.waitFor("Model: fake-model");
		expect(errorCount(session.capture({ history: true }))).toBe(2);

		// Broken again the same way as before the fix: shown again.
		writeFileSync(modelsPath, withoutModels);
		session.submit("/reload");
		await session.waitFor((screen) => errorCount(screen) === 3);

		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("prints the models.json warning on stderr for --list-models run from a terminal", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(join(sandbox.agentDir, "models.json"), '{"providers": {');
		const stderrPath = join(sandbox.root, "stderr.txt");
		// stdin and stdout stay the terminal; only stderr goes to a file the test can read after the pane closes.
		const command = `"$0" "$1" --list-models 2> "$2"`;
		tmux = TmuxSession.start({
			command: ["sh", "-c", command, process.execPath, CLI_PATH, stderrPath],
			cwd: sandbox.cwd,
			env: sandbox.env,
		});
		expect(await tmux.waitForExit()).toBe(0);
		expect(readFileSync(stderrPath, "utf8")).toMatch(/^Warning: Failed to parse models\.json: /);
	});

	it("quits with Ctrl+C twice (exit 0) and leaves the terminal in cooked mode", async () => {
		const { tmux } = start();
		await tmux.waitFor("fake-model");
		tmux.type("some text");
		tmux.press("C-c");
		tmux.press("C-c");
		expect(await tmux.waitForExit()).toBe(0);
		// Raw mode is off again: line editing and echo are back.
		const modes = tmux.terminalModesAfterExit();
		expect(modes).toMatch(/(^|\s)icanon(\s|$)/m);
		expect(modes).toMatch(/(^|\s)echo(\s|$)/m);
	});
});
