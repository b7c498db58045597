// A headless terminal for rendering interactive-mode components: @agent/tui's VirtualTerminal over
// @xterm/headless, plus helpers to render a component and read the screen.
import { type Component, TUI, VirtualTerminal } from "@agent/tui";
import xtermHeadless from "@xterm/headless";

const { Terminal: XtermTerminal } = xtermHeadless;

export type HeadlessTerminal = VirtualTerminal<InstanceType<typeof XtermTerminal>>;

export function createHeadlessTerminal(columns = 80, rows = 30, scrollback = 20_000): HeadlessTerminal {
	const emulator = new XtermTerminal({ cols: columns, rows, scrollback, allowProposedApi: true });
	return new VirtualTerminal(emulator);
}

/** Every row the terminal holds (scrollback and screen), right-trimmed, trailing empty rows dropped. */
export function screenText(terminal: HeadlessTerminal): string[] {
	const rows = terminal.getScrollBuffer();
	while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
	return rows;
}

/** Renders `components` (top to bottom) into a fresh headless terminal and returns its rows. */
export async function renderComponents(
	components: Component[],
	options: { columns?: number; rows?: number } = {},
): Promise<{ lines: string[]; terminal: HeadlessTerminal; tui: TUI; raw: string }> {
	const terminal = createHeadlessTerminal(options.columns ?? 80, options.rows ?? 40);
	const tui = new TUI(terminal, { env: {} });
	for (const component of components) tui.addChild(component);
	tui.start();
	tui.renderNow();
	await terminal.flush();
	const raw = terminal.takeWrites();
	const lines = screenText(terminal);
	tui.stop();
	return { lines, terminal, tui, raw };
}

/** Polls `condition` until it holds (rendering happens on process ticks); fails after `timeoutMs`. */
export async function waitFor(
	condition: () => boolean | Promise<boolean>,
	description: string | (() => string),
	timeoutMs = 5000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await condition()) return;
		if (Date.now() > deadline)
			throw new Error(`Timed out waiting for ${typeof description === "string" ? description : description()}`);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}
