import { type Component, TUI, type TUIOptions } from "@agent/tui";
import { createHeadlessTerminal, type HeadlessTerminal, renderAndSettle } from "./headless-terminal.js";

export interface TestUI {
	terminal: HeadlessTerminal;
	tui: TUI;
	/** Renders pending changes, waits for the emulator, and returns the bytes written for them. */
	update(): Promise<string>;
}

/** A started TUI on a headless terminal, with overlong lines treated as errors. */
export async function createTestUI(columns: number, rows: number, options: TUIOptions = {}): Promise<TestUI> {
	const terminal = createHeadlessTerminal(columns, rows);
	const tui = new TUI(terminal, { strictLineWidth: true, env: {}, ...options });
	const ui: TestUI = {
		terminal,
		tui,
		async update() {
			await renderAndSettle(tui, terminal);
			return terminal.takeWrites();
		},
	};
	tui.start();
	await ui.update();
	return ui;
}

/** A component that counts how often it is rendered and whose lines can be replaced. */
export class CountingComponent implements Component {
	renderCount = 0;
	constructor(public lines: string[]) {}
	render(): string[] {
		this.renderCount++;
		return this.lines;
	}
	invalidate(): void {}
}

/** Counts occurrences of `needle` in `haystack`. */
export function countOccurrences(haystack: string, needle: string): number {
	return haystack.split(needle).length - 1;
}
