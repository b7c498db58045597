// What interactive-mode components are rendered with in tests: a DisplayState (a theme, dark by default or no
// colour, default key bindings, a fixed working directory) and assistant messages to show.
import type { AssistantMessage } from "@agent/ai";
import type { DisplayState } from "../../src/modes/interactive/display-state.js";
import { AppKeybindings } from "../../src/modes/interactive/keybindings.js";
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

/** An assistant message of the faux provider with `content`, no usage and timestamp 0; `extra` overrides fields. */
export function assistantMessage(
	content: AssistantMessage["content"],
	extra: Partial<AssistantMessage> = {},
): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: "faux",
		provider: "faux",
		model: "faux-1",
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop",
		timestamp: 0,
		...extra,
	};
}
