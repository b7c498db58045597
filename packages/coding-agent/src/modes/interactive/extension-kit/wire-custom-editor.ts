// An extension's editor that subclasses `CustomEditor` gets the application's key handlers of the prompt
// editor it replaces (Escape interrupts, Ctrl+D quits on an empty editor, Ctrl+C clears, model cycling, …).
// Recognised by its `actionHandlers` map, as in the reference: `instanceof` fails when the extension's copy
// of the class is not ours. A handler the extension set itself is kept.
import type { EditorComponent } from "@agent/tui";
import { APP_ACTIONS, type AppAction } from "../keybindings.js";

interface CustomEditorShape {
	actionHandlers: Map<AppAction, () => void>;
	onEscape?: () => void;
	onCtrlD?: () => void;
	onPasteImage?: () => void;
	onExtensionShortcut?: (data: string) => boolean;
}

function isCustomEditor(editor: EditorComponent): editor is EditorComponent & CustomEditorShape {
	return (editor as Partial<CustomEditorShape>).actionHandlers instanceof Map;
}

export function wireCustomEditor(
	editor: EditorComponent,
	app: { handle(action: AppAction): boolean; handleShortcut(data: string): boolean },
): void {
	if (!isCustomEditor(editor)) return;
	editor.onEscape ??= () => app.handle("interrupt");
	editor.onCtrlD ??= () => app.handle("exit");
	editor.onPasteImage ??= () => app.handle("pasteImage");
	editor.onExtensionShortcut ??= (data) => app.handleShortcut(data);
	for (const action of APP_ACTIONS) {
		if (action === "interrupt" || action === "exit" || action === "pasteImage") continue;
		if (!editor.actionHandlers.has(action)) editor.actionHandlers.set(action, () => app.handle(action));
	}
}
