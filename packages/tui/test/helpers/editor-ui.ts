import { defaultEditorTheme, Editor } from "@agent/tui";
import { createTestUI } from "./test-ui.js";

export const keys = {
	enter: "\r",
	shiftEnter: "\x1b[13;2u",
	altEnter: "\x1b\r",
	backspace: "\x7f",
	delete: "\x1b[3~",
	left: "\x1b[D",
	right: "\x1b[C",
	up: "\x1b[A",
	down: "\x1b[B",
	home: "\x1b[H",
	end: "\x1b[F",
	altLeft: "\x1b[1;3D",
	altRight: "\x1b[1;3C",
	ctrlLeft: "\x1b[1;5D",
	ctrlA: "\x01",
	ctrlE: "\x05",
	ctrlK: "\x0b",
	ctrlU: "\x15",
	ctrlW: "\x17",
	ctrlY: "\x19",
	altY: "\x1by",
	altD: "\x1bd",
	altBackspace: "\x1b\x7f",
	ctrlMinus: "\x1f",
	ctrlBracket: "\x1d",
	tab: "\t",
	escape: "\x1b",
	paste: (text: string) => `\x1b[200~${text}\x1b[201~`,
};

/** A focused editor on a headless terminal. */
export async function createEditorUI(columns = 40, rows = 20) {
	const ui = await createTestUI(columns, rows, { showHardwareCursor: true });
	const editor = new Editor(ui.tui, defaultEditorTheme({ color: false }));
	ui.tui.addChild(editor);
	ui.tui.setFocus(editor);
	const submitted: string[] = [];
	editor.onSubmit = (text) => submitted.push(text);
	await ui.update();
	return {
		...ui,
		editor,
		submitted,
		/** Sends each argument as one input chunk, then renders. */
		async press(...inputs: string[]) {
			for (const input of inputs) ui.terminal.sendInput(input);
			await ui.update();
		},
		/** Types text character by character. */
		async type(text: string) {
			for (const char of text) ui.terminal.sendInput(char);
			await ui.update();
		},
		/** The rows between the editor's borders (trailing spaces, like the drawn cursor cell, removed). */
		contentRows(): string[] {
			const viewport = ui.terminal.getViewport();
			const top = viewport.findIndex((row) => row.startsWith("─"));
			const bottom = viewport.findIndex((row, i) => i > top && row.startsWith("─"));
			return viewport.slice(top + 1, bottom).map((row) => row.trimEnd());
		},
	};
}
