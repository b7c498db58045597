// Key hints in the style of the built-in dialogs: the key dim, the description muted.
import { type EditorAction, getEditorKeybindings } from "@agent/tui";
import type { AppAction, AppKeybindings } from "../keybindings.js";
import { getCurrentTheme } from "../theme/current-theme.js";

export type { AppAction };

/** The key map handed to `setEditorComponent` factories and `appKey` (the reference's name). */
export type KeybindingsManager = Pick<AppKeybindings, "getKeys" | "matches">;

/** What `appKey` needs of a key map: the keys of an action. */
export interface KeyLookup {
	getKeys(action: string): readonly string[];
}

function formatKeys(keys: readonly string[]): string {
	return keys.join("/");
}

/** The keys bound to an editor action, e.g. `"escape"` or `"ctrl+c/escape"`. */
export function editorKey(action: EditorAction): string {
	return formatKeys(getEditorKeybindings().getKeys(action));
}

/** The keys bound to an application action. */
export function appKey(keybindings: KeyLookup, action: AppAction): string {
	return formatKeys(keybindings.getKeys(action));
}

export function rawKeyHint(key: string, description: string): string {
	const theme = getCurrentTheme();
	return theme.fg("dim", key) + theme.fg("muted", ` ${description}`);
}

export function keyHint(action: EditorAction, description: string): string {
	return rawKeyHint(editorKey(action), description);
}

export function appKeyHint(keybindings: KeyLookup, action: AppAction, description: string): string {
	return rawKeyHint(appKey(keybindings, action), description);
}
