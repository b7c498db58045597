// The editor class extensions subclass for `ctx.ui.setEditorComponent` (the reference's `CustomEditor`): the
// prompt editor of @agent/tui with the application's keys checked first. The interactive mode fills in the
// handlers when it installs such an editor (it recognises one by its `actionHandlers` map, as the reference
// does: `instanceof` fails when an extension's copy of a class differs from ours).
import { Editor, type EditorHost, type EditorOptions, type EditorTheme } from "@agent/tui";
import type { ExtensionKeybindings } from "../../../core/extensions/ui-context.js";
import type { AppAction } from "../keybindings.js";

export class CustomEditor extends Editor {
	/** Handlers of application actions (clear, suspend, model switching, …), filled in by the interactive mode. */
	actionHandlers = new Map<AppAction, () => void>();
	onEscape?: () => void;
	onCtrlD?: () => void;
	onPasteImage?: () => void;
	/** Extension shortcuts; true when one handled the key. */
	onExtensionShortcut?: (data: string) => boolean;

	constructor(
		tui: EditorHost,
		theme: EditorTheme,
		protected readonly keybindings: ExtensionKeybindings,
		options?: EditorOptions,
	) {
		super(tui, theme, options);
	}

	/**
	 * A copy of the lines each time: subclasses (the reference's examples) decorate the lines `super.render`
	 * returns, some by writing into that array. Our editor hands back its cached array while unchanged, and the
	 * container skips a child that returns the same array, so the decoration (a mode label) would never show.
	 */
	override render(width: number): string[] {
		return [...super.render(width)];
	}

	onAction(action: AppAction, handler: () => void): void {
		this.actionHandlers.set(action, handler);
	}

	override handleInput(data: string): void {
		if (this.onExtensionShortcut?.(data)) return;
		if (this.keybindings.matches(data, "pasteImage")) {
			this.onPasteImage?.();
			return;
		}
		if (this.keybindings.matches(data, "interrupt")) {
			// Escape closes an open completion list before it interrupts anything.
			const handler = this.isShowingAutocomplete()
				? undefined
				: (this.onEscape ?? this.actionHandlers.get("interrupt"));
			if (handler) handler();
			else super.handleInput(data);
			return;
		}
		if (this.keybindings.matches(data, "exit") && this.getText().length === 0) {
			(this.onCtrlD ?? this.actionHandlers.get("exit"))?.();
			return;
		}
		for (const [action, handler] of this.actionHandlers) {
			if (action !== "interrupt" && action !== "exit" && this.keybindings.matches(data, action)) {
				handler();
				return;
			}
		}
		super.handleInput(data);
	}
}
