// The prompt editor of the interactive mode: @agent/tui's Editor with the application's keys checked first
// (extension shortcuts, then the key map), so Ctrl+P cycles models here while it toggles paths in a picker.
import { Editor, type EditorHost, type EditorOptions, type EditorTheme } from "@agent/tui";
import type { AppAction, AppKeybindings } from "./keybindings.js";

export class AppEditor extends Editor {
	/** Extension shortcuts; true when one handled the key. */
	onShortcut?: (data: string) => boolean;
	/** An application action; true when it was handled (false lets the editor have the key, e.g. Ctrl+D). */
	onAction?: (action: AppAction, data: string) => boolean;

	constructor(
		host: EditorHost,
		theme: EditorTheme,
		private keybindings: AppKeybindings,
		options: EditorOptions = {},
	) {
		super(host, theme, options);
	}

	setKeybindings(keybindings: AppKeybindings): void {
		this.keybindings = keybindings;
	}

	override handleInput(data: string): void {
		if (this.onShortcut?.(data)) return;
		const action = this.keybindings.actionFor(data);
		if (action && this.onAction?.(action, data)) return;
		if (this.isCompletingSlashCommand() && this.keybindings.editor.matches(data, "submit")) {
			// Enter on a slash command's suggestion (its name or an argument) completes it and runs the command;
			// the editor alone would only complete it and wait for a second Enter.
			super.handleInput(data);
			const text = this.getExpandedText().trim();
			this.setText("");
			if (text) this.onSubmit?.(text);
			return;
		}
		super.handleInput(data);
	}

	/** The completion list is open on a one-line slash command (not on an `@file` reference inside it). */
	private isCompletingSlashCommand(): boolean {
		if (!this.isShowingAutocomplete()) return false;
		const text = this.getText();
		return text.startsWith("/") && !text.includes("\n") && !/(^|\s)@\S*$/.test(text);
	}
}
