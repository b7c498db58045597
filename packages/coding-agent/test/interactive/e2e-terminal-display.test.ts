// The built `agent` in a real terminal (tmux) against the local fake model server: what the transcript looks
// like, in the scrollback too, after Ctrl+O, a resize and /compact; the edit diff, /tree labels, spacing, key
// hints, missing-key and @file messages; and the full-screen mode. Every wait is for text on the screen.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE_PATH, CLI_PATH, type CliSandbox, createCliSandbox } from "../helpers/cli-sandbox.js";
import { deferred } from "../helpers/deferred.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";
import { isTmuxAvailable, TmuxSession } from "../helpers/tmux-session.js";

const hasTmux = isTmuxAvailable();
if (!hasTmux) console.warn("tmux is not installed (apt-get install tmux) — end-to-end terminal tests skipped");

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

interface StartOptions {
	args?: string[];
	columns?: number;
	rows?: number;
	files?: Record<string, string>;
	env?: NodeJS.ProcessEnv;
	/** What the footer shows once the UI is up (default the fake model's name). */
	ready?: string;
}

/** Starts `agent` in tmux and waits for its footer. */
async function start(options: StartOptions = {}): Promise<TmuxSession> {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	for (const [name, content] of Object.entries(options.files ?? {})) {
		mkdirSync(join(sandbox.cwd, name, ".."), { recursive: true });
		writeFileSync(join(sandbox.cwd, name), content);
	}
	tmux = TmuxSession.start({
		command: [process.execPath, CLI_PATH, ...(options.args ?? [])],
		cwd: sandbox.cwd,
		env: { ...sandbox.env, ...options.env },
		...(options.columns ? { columns: options.columns } : {}),
		...(options.rows ? { rows: options.rows } : {}),
	});
	await tmux.waitFor(options.ready ?? "fake-model");
	return tmux;
}

/** Rows of a capture, right-trimmed (backgrounds are drawn as spaces), trailing blank rows dropped. */
function rowsOf(capture: string): string[] {
	const rows = capture.split("\n").map((row) => row.trimEnd());
	while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
	return rows;
}

function count(haystack: string, needle: string | RegExp): number {
	return haystack.split(needle).length - 1;
}

/**
 * Whether a reprint of the whole history has finished: the footer (the model's name) is the last row again. A
 * capture can fall in the middle of a reprint, so a test waits for this together with what it checks.
 */
function isSettled(capture: string, footer = "fake-model"): boolean {
	return rowsOf(capture).at(-1)?.includes(footer) ?? false;
}

/** The rows after the last row matching `marker` (up to the editor's top border). */
function rowsAfter(capture: string, marker: string): string[] {
	const rows = rowsOf(capture);
	let at = -1;
	rows.forEach((row, index) => {
		if (row.includes(marker)) at = index;
	});
	const after = rows.slice(at + 1);
	const border = after.findIndex((row) => row.startsWith("────"));
	return border === -1 ? after : after.slice(0, border);
}

const SEQ_60 = Array.from({ length: 60 }, (_, i) => String(i + 1));

describe.skipIf(!hasTmux)("the transcript in a terminal", () => {
	it("Ctrl+O expands tool output that scrolled into the scrollback, there too, once; Ctrl+O again collapses it", async () => {
		const session = await start({ rows: 20 });
		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "seq 1 60" } }]),
			textReply("Counted."),
			textReply("Later answer."),
		);
		session.submit("count to sixty");
		await session.waitFor("Counted.");
		session.submit("and then?");
		await session.waitFor("Later answer.");
		const collapsed = session.capture({ history: true });
		expect(collapsed).toContain("... (55 earlier lines, Ctrl+O to expand)");
		expect(rowsOf(collapsed)).not.toContain(" 1");

		const hasAllSixty = (screen: string) => {
			const rows = rowsOf(screen);
			const first = rows.indexOf(" 1");
			return first !== -1 && rows.slice(first, first + 60).join("\n") === SEQ_60.map((n) => ` ${n}`).join("\n");
		};
		session.press("C-o");
		const expanded = await session.waitFor((screen) => hasAllSixty(screen) && isSettled(screen));
		const rows = rowsOf(expanded);
		const first = rows.indexOf(" 1");
		expect(rows.slice(first, first + 60)).toEqual(SEQ_60.map((n) => ` ${n}`));
		// The history was printed again, not appended to: everything is in it once.
		expect(count(expanded, "agent v")).toBe(1);
		expect(count(expanded, "count to sixty")).toBe(1);
		expect(count(expanded, "Later answer.")).toBe(1);
		expect(expanded).not.toContain("earlier lines");

		session.press("C-o");
		const again = await session.waitFor((screen) => screen.includes("55 earlier lines") && isSettled(screen));
		expect(rowsOf(again)).not.toContain(" 1");
		expect(count(again, "count to sixty")).toBe(1);
		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("a resize prints the history again at the new width: nothing of the old layout stays in the scrollback", async () => {
		const session = await start({ columns: 120, rows: 30 });
		const paragraph =
			"The renderer keeps a model of the screen and writes only the lines that changed since the previous frame, each after a relative cursor move.";
		server.enqueue(textReply(paragraph), textReply("Second answer."));
		session.submit("how does it draw?");
		await session.waitFor("relative cursor move.");
		session.submit("and then?");
		await session.waitFor("Second answer.");

		session.resize(60, 20);
		const narrow = await session.waitFor(
			(screen) => screen.includes(" The renderer keeps a model of the screen and writes") && isSettled(screen),
		);
		const rows = rowsOf(narrow);
		for (const row of rows) expect([...row].length, row).toBeLessThanOrEqual(60);
		// The answer wrapped at 60 columns, every row under the indent, once.
		const first = rows.findIndex((row) => row.startsWith(" The renderer"));
		const wrapped = rows.slice(first, first + 3);
		for (const row of wrapped) expect(row.startsWith(" ")).toBe(true);
		expect(wrapped.join(" ").replace(/\s+/g, " ").trim()).toContain("writes only the lines that changed");
		expect(count(narrow, "how does it draw?")).toBe(1);
		expect(count(narrow, "agent v")).toBe(1);

		session.resize(120, 30);
		const wide = await session.waitFor((screen) => screen.includes(paragraph.slice(0, 110)) && isSettled(screen));
		expect(count(wide, "how does it draw?")).toBe(1);
		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("/compact shows the compaction at the end of the transcript, as the reference does", async () => {
		const session = await start();
		server.enqueue(textReply("First answer."), textReply("Second answer."), textReply("## Goal\nThe summary."));
		session.submit("first question");
		await session.waitFor("First answer.");
		session.submit("second question");
		await session.waitFor("Second answer.");
		session.submit("/compact");
		const screen = await session.waitFor(
			(capture) => /Compacted from [\d,]+ tokens \(Ctrl\+O to expand\)/.test(capture) && isSettled(capture),
			{ history: false },
		);
		const rows = rowsOf(screen);
		const editorTop = rows.findLastIndex(
			(row, index) => row.startsWith("────") && rows[index + 2]?.startsWith("────"),
		);
		const above = rows.slice(0, editorTop).filter((row) => row.trim() !== "");
		expect(above.at(-2)?.trim()).toBe("[compaction]");
		expect(above.at(-1)).toMatch(/^ Compacted from [\d,]+ tokens \(Ctrl\+O to expand\)/);
		session.press("C-o");
		await session.waitFor("The summary.");
		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("the edit diff ends at the file's last line and its header names the line (edit calc.py:2)", async () => {
		const session = await start({
			files: { "calc.py": "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n" },
		});
		server.enqueue(
			toolCallReply([
				{ name: "edit", arguments: { path: "calc.py", oldText: "    return a - b", newText: "    return a + b" } },
			]),
			textReply("Fixed."),
		);
		session.submit("fix add");
		const screen = await session.waitFor("Fixed.");
		expect(screen).toContain(" edit calc.py:2");
		const diff = rowsAfter(screen, "edit calc.py:2").filter((row) => row.trim() !== "");
		expect(diff.slice(0, 7).map((row) => row.trimEnd())).toEqual([
			"  1 def add(a, b):",
			" -2     return a - b",
			" +2     return a + b",
			"  3",
			"  4",
			"  5 def mul(a, b):",
			"  6     return a * b",
		]);
		expect(diff[7]?.trim()).toBe("Fixed.");
		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("/tree names a tool result by its call, and the summarize question shows its keys", async () => {
		const session = await start();
		server.enqueue(toolCallReply([{ name: "bash", arguments: { command: "ls -la" } }]), textReply("Listed."));
		session.submit("list the files");
		await session.waitFor("Listed.");
		session.submit("/tree");
		const tree = await session.waitFor("[bash: ls -la]");
		expect(tree).not.toMatch(/\[bash\] total/);
		session.press("Up");
		session.press("Up");
		session.press("Enter");
		await session.waitFor("Summarize branch?");
		await session.waitFor("↑↓ to move · Enter to select · Esc to go back to the tree");
		// Each Esc waits for its effect: two ESC bytes read at once would be Alt+Esc.
		session.press("Escape");
		await session.waitFor("Session tree", { history: false });
		session.press("Escape");
		await session.waitFor((screen) => !screen.includes("Session tree"), { history: false });
		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("spacing: thinking and answer, 'Operation aborted', !cmd output and the /hotkeys title each stand apart", async () => {
		const session = await start();
		server.enqueue({ kind: "reply", reasoning: "Weighing the options.", text: "The answer." });
		session.submit("think first");
		const thought = await session.waitFor("The answer.");
		const rows = rowsOf(thought);
		const thinking = rows.findIndex((row) => row.includes("Weighing the options."));
		expect(rows.slice(thinking, thinking + 3)).toEqual([" Weighing the options.", "", " The answer."]);

		const gate = deferred();
		server.enqueue(textReply("A reply that never ends", { gate: gate.promise }));
		session.submit("take long");
		await session.waitFor("Working...");
		session.press("Escape");
		const aborted = rowsOf(await session.waitFor("Operation aborted"));
		const abortedAt = aborted.findIndex((row) => row.includes("Operation aborted"));
		expect(aborted[abortedAt - 1]).toBe("");
		gate.resolve();

		session.submit("!echo spaced-out");
		// The finished block: its output is on screen before the shell exits, "Running..." goes with the exit.
		const bash = rowsOf(
			await session.waitFor((screen) => /^ spaced-out$/m.test(screen) && !screen.includes("Running...")),
		);
		const command = bash.indexOf(" $ echo spaced-out");
		expect(bash.slice(command, command + 4)).toEqual([" $ echo spaced-out", "", " spaced-out", ""]);

		session.submit("/hotkeys");
		const hotkeys = rowsOf(await session.waitFor("Keyboard shortcuts"));
		const title = hotkeys.findIndex((row) => row.includes("Keyboard shortcuts"));
		expect(hotkeys[title - 1]).toBe("");
		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("the start-up hints name !!, Alt+Enter, Ctrl+L, Ctrl+T and Ctrl+G, every row under the indent", async () => {
		const session = await start({ columns: 60, rows: 20 });
		const screen = await session.waitFor("for the external editor");
		const rows = rowsOf(screen);
		const hints = rows.slice(
			1,
			rows.findIndex((row) => row.startsWith("────")),
		);
		const text = hints.join(" ");
		for (const key of ["!!", "Alt+Enter", "Ctrl+L", "Ctrl+T", "Ctrl+G"]) expect(text).toContain(key);
		for (const row of hints.filter((row) => row.trim() !== "")) expect(row.startsWith(" ")).toBe(true);
		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("/model says only configured models are listed; /settings can be searched", async () => {
		const session = await start();
		session.submit("/model");
		await session.waitFor("Only models with a configured API key are listed");
		session.press("Escape");
		await session.waitFor((screen) => !screen.includes("Select model"), { history: false });
		session.submit("/settings");
		await session.waitFor("Type to search");
		session.type("shrink");
		await session.waitFor((screen) => screen.includes("> shrink") && screen.includes("Clear on shrink"));
		const rows = rowsOf(session.capture());
		expect(rows.some((row) => row.includes("Auto-compact"))).toBe(false);
		// Esc clears the search, a second Esc closes the panel (each waits for its effect).
		session.press("Escape");
		await session.waitFor((screen) => !screen.includes("> shrink"), { history: false });
		session.press("Escape");
		await session.waitFor((screen) => !screen.includes("Type to search"), { history: false });
		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("a missing API key names the environment variable to set and the other ways to give a key", async () => {
		const session = await start({ args: ["--model", "anthropic/claude-sonnet-4-5"], ready: "claude-sonnet-4-5" });
		session.submit("hello");
		const screen = await session.waitFor("--api-key");
		expect(screen).toMatch(/- set .*ANTHROPIC_API_KEY/);
		expect(screen).toContain("Error: No API key found for anthropic.");
		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("@dir is reported in words, not as EISDIR, and exits 1", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		mkdirSync(join(sandbox.cwd, "src"));
		const stderrPath = join(sandbox.root, "stderr.txt");
		// stdin and stdout stay the terminal; stderr goes to a file the test reads after the pane closed.
		tmux = TmuxSession.start({
			command: ["sh", "-c", `"$0" "$1" @src hello 2> "$2"`, process.execPath, CLI_PATH, stderrPath],
			cwd: sandbox.cwd,
			env: sandbox.env,
		});
		expect(await tmux.waitForExit()).toBe(1);
		const stderr = readFileSync(stderrPath, "utf8");
		expect(stderr).toContain(`Error: Could not read file ${join(sandbox.cwd, "src")}: it is a directory.`);
		expect(stderr).not.toContain("EISDIR");
	});
});

describe.skipIf(!hasTmux)("the full-screen mode", () => {
	it("draws on the alternate screen, scrolls with PgUp and the wheel, searches, expands a block on a click", async () => {
		const session = await start({ args: ["--tui-mode", "fullscreen"], columns: 80, rows: 16 });
		expect(session.isAlternateScreen()).toBe(true);
		server.enqueue(
			textReply("needle in the first answer"),
			toolCallReply([{ name: "bash", arguments: { command: "seq 1 60" } }]),
			textReply("Counted."),
		);
		session.submit("first");
		await session.waitFor("needle in the first answer");
		session.submit("count");
		await session.waitFor("Counted.");
		// The first answer scrolled out of the view; the screen is the app's, there is no scrollback.
		await session.waitFor((screen) => !screen.includes("needle in the first answer"), { history: false });

		session.press("PageUp");
		await session.waitFor((screen) => !screen.includes("Counted."), { history: false });
		for (let page = 0; page < 4; page++) session.press("PageDown");
		await session.waitFor("Counted.", { history: false });

		// Ctrl+S: the search bar finds the answer and brings it into view.
		session.press("C-s");
		await session.waitFor("Find", { history: false });
		session.type("needle");
		await session.waitFor((screen) => screen.includes("1/1") && screen.includes("needle in the first answer"), {
			history: false,
		});
		session.press("Escape");
		await session.waitFor((screen) => !screen.includes("Find >"), { history: false });

		// The wheel (an SGR mouse report) scrolls back to the end, where the collapsed bash block is.
		for (let notch = 0; notch < 20; notch++) session.type("\x1b[<65;10;5M");
		const bottom = await session.waitFor("55 earlier lines", { history: false });
		const row = rowsOf(bottom).findIndex((line) => line.includes("$ seq 1 60"));
		session.type(`\x1b[<0;10;${row + 1}M`);
		// " 1", then the scrollbar in the last column.
		await session.waitFor(/^ 1 +[│┃]$/m, { history: false });

		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});

	it("/settings switches the mode live: back to the normal screen with the history printed", async () => {
		const session = await start({ args: ["--tui-mode", "fullscreen"] });
		server.enqueue(textReply("An answer before switching."));
		session.submit("question");
		await session.waitFor("An answer before switching.");
		session.submit("/settings");
		session.type("tuimode");
		await session.waitFor(/TUI mode\s+fullscreen/);
		session.press("Enter");
		await session.waitFor(/TUI mode\s+inline/);
		expect(session.isAlternateScreen()).toBe(false);
		session.press("Escape");
		await session.waitFor((screen) => !screen.includes("> tuimode"), { history: false });
		session.press("Escape");
		await session.waitFor((screen) => !screen.includes("Type to search"), { history: false });
		const history = await session.waitFor(
			(screen) => screen.includes("An answer before switching.") && isSettled(screen),
		);
		expect(count(history, "An answer before switching.")).toBe(1);
		session.submit("/quit");
		expect(await session.waitForExit()).toBe(0);
	});
});
