// The terminal UI building blocks the package exports for extensions (the reference exports the same names).
export { BorderedLoader } from "./bordered-loader.js";
export { CustomEditor } from "./custom-editor.js";
export { DynamicBorder } from "./dynamic-border.js";
export {
	type AppAction,
	appKey,
	appKeyHint,
	editorKey,
	type KeybindingsManager,
	type KeyLookup,
	keyHint,
	rawKeyHint,
} from "./keybinding-hints.js";
export {
	copyToClipboard,
	getLanguageFromPath,
	getShellConfig,
	highlightCode,
	truncateToVisualLines,
	type VisualTruncateResult,
} from "./utilities.js";
