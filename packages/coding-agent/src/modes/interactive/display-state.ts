// What every transcript component reads when it renders: the theme, whether tool output and thinking are
// expanded, key names for hints, and the working directory for shorter paths. The mode owns one instance and
// invalidates the transcript when a field changes, so components re-render with the new value once.
import type { AppKeybindings } from "../../core/keybindings.js";
import type { Theme } from "./theme/theme.js";

export interface DisplayState {
	theme: Theme;
	/** Ctrl+O: tool output shown in full. */
	toolsExpanded: boolean;
	/** Ctrl+T / `hideThinkingBlock`: thinking blocks collapsed to a label. */
	hideThinking: boolean;
	keybindings: AppKeybindings;
	cwd: string;
	/** `markdown.codeBlockIndent` */
	codeBlockIndent: string;
	/** `terminal.showImages` */
	showImages: boolean;
}

/** "ctrl+o" for hints; falls back to the action name when it is unbound. */
export function keyHint(state: DisplayState, action: Parameters<AppKeybindings["describe"]>[0]): string {
	return state.keybindings.describe(action) || action;
}
