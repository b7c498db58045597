// The interactive mode running in-process on a headless terminal, over an AgentSession on a scripted
// FauxProvider (runtime-harness): type keys, wait for text on the screen, inspect the session.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { InteractiveMode } from "../../src/modes/interactive/interactive-mode.js";
import type { InteractiveModeOptions } from "../../src/modes/interactive/mode-host.js";
import { createHeadlessTerminal, type HeadlessTerminal, screenText, waitFor } from "./interactive-terminal.js";
import { createRuntimeHarness, type RuntimeHarness, type RuntimeHarnessOptions } from "./runtime-harness.js";

export const KEYS = {
	enter: "\r",
	escape: "\x1b",
	altEnter: "\x1b\r",
	altUp: "\x1b[1;3A",
	up: "\x1b[A",
	down: "\x1b[B",
	left: "\x1b[D",
	right: "\x1b[C",
	tab: "\t",
	shiftTab: "\x1b[Z",
	backspace: "\x7f",
	ctrl: (letter: string) => String.fromCharCode(letter.toLowerCase().charCodeAt(0) - 96),
} as const;

export interface InteractiveHarness {
	runtime: RuntimeHarness;
	terminal: HeadlessTerminal;
	mode: InteractiveMode;
	/** Resolves with the exit code once the mode quits. */
	exit: Promise<number>;
	type(text: string): Promise<void>;
	press(keys: string): Promise<void>;
	/** Types `text` and presses Enter. */
	submit(text: string): Promise<void>;
	/** Screen and scrollback rows. */
	screen(): string[];
	/** The visible rows only. */
	viewport(): string[];
	waitForText(text: string | RegExp, timeoutMs?: number): Promise<void>;
	dispose(): Promise<void>;
}

export interface InteractiveHarnessOptions extends RuntimeHarnessOptions {
	columns?: number;
	rows?: number;
	mode?: Omit<InteractiveModeOptions, "terminal">;
	/** Written to `<agentDir>/keybindings.json` before the mode starts. */
	keybindings?: Record<string, unknown>;
}

export async function createInteractiveHarness(options: InteractiveHarnessOptions = {}): Promise<InteractiveHarness> {
	const runtime = await createRuntimeHarness(options);
	if (options.keybindings) {
		writeFileSync(join(runtime.agentDir, "keybindings.json"), JSON.stringify(options.keybindings));
	}
	const terminal = createHeadlessTerminal(options.columns ?? 100, options.rows ?? 40);
	const mode = new InteractiveMode(runtime.session, {
		agentDir: runtime.agentDir,
		env: { HOME: runtime.root, TERM: "xterm-256color", COLORTERM: "truecolor" },
		...options.mode,
		terminal,
	});
	const exit = mode.run();
	const settle = async () => {
		await new Promise((resolve) => setImmediate(resolve));
		mode.tui.renderNow();
		await terminal.flush();
	};
	await settle();
	const screen = () => screenText(terminal);
	const matches = (text: string | RegExp) => {
		const all = screen().join("\n");
		return typeof text === "string" ? all.includes(text) : text.test(all);
	};
	const type = async (text: string) => {
		for (const char of text) terminal.sendInput(char);
		await settle();
	};
	const press = async (keys: string) => {
		terminal.sendInput(keys);
		await settle();
	};
	let disposed = false;
	return {
		runtime,
		terminal,
		mode,
		exit,
		type,
		press,
		submit: async (text) => {
			await type(text);
			await press(KEYS.enter);
		},
		screen,
		viewport: () => terminal.getViewport(),
		waitForText: (text, timeoutMs = 5000) =>
			waitFor(
				async () => {
					await settle();
					return matches(text);
				},
				() => `"${String(text)}" on screen:\n${screen().join("\n")}`,
				timeoutMs,
			),
		dispose: async () => {
			if (disposed) return;
			disposed = true;
			await mode.quit(0);
			await exit;
			runtime.dispose();
		},
	};
}
