// A DisplayState for rendering interactive-mode components in tests: a theme (dark by default, or no colour),
// default key bindings, a fixed working directory.
import { AppKeybindings } from "../../src/core/keybindings.js";
import type { DisplayState } from "../../src/modes/interactive/display-state.js";
import type { ColorMode } from "../../src/modes/interactive/theme/theme.js";
import { ThemeRegistry } from "../../src/modes/interactive/theme/theme-registry.js";

export function createDisplayState(
	options: { mode?: ColorMode; theme?: string; cwd?: string; toolsExpanded?: boolean; hideThinking?: boolean } = {},
): DisplayState {
	const registry = new ThemeRegistry([], options.mode ?? "truecolor");
	return {
		theme: registry.resolve(options.theme ?? "dark").theme,
		toolsExpanded: options.toolsExpanded ?? false,
		hideThinking: options.hideThinking ?? false,
		keybindings: new AppKeybindings({}, { platform: "linux", env: {} }),
		cwd: options.cwd ?? "/work/project",
		codeBlockIndent: "  ",
		showImages: false,
	};
}
