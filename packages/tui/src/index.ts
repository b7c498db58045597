// Public API of @agent/tui. Nothing inside the package imports this file.

export { CombinedAutocompleteProvider } from "./autocomplete/combined-provider.js";
export { type FileEntry, FileIndex, type FileIndexOptions } from "./autocomplete/file-search.js";
export { type FuzzyMatch, fuzzyFilter, fuzzyMatch } from "./autocomplete/fuzzy.js";
export { isIgnored, parseGitignore } from "./autocomplete/gitignore.js";
export { completePath } from "./autocomplete/path-completion.js";
export type {
	AutocompleteItem,
	AutocompleteProvider,
	AutocompleteSuggestions,
	CompletionResult,
	SlashCommand,
} from "./autocomplete/types.js";
export {
	CachedComponent,
	ChangeNotifier,
	type ChangeTracking,
	type Component,
	CURSOR_MARKER,
	type Focusable,
	type IncrementalRender,
	isChangeTracking,
	isFocusable,
	isIncrementalRender,
	type RenderUpdate,
} from "./component.js";
export { Box } from "./components/box.js";
export { Image, type ImageOptions } from "./components/image/image.js";
export {
	getGifDimensions,
	getImageDimensions,
	getJpegDimensions,
	getPngDimensions,
	getWebpDimensions,
	type ImageDimensions,
	readImageDimensions,
} from "./components/image/image-dimensions.js";
export {
	allocateImageId,
	deleteAllKittyImages,
	deleteKittyImage,
	encodeITerm2,
	encodeKitty,
} from "./components/image/image-sequences.js";
export {
	calculateImageRows,
	type ImageRenderOptions,
	imageFallback,
	renderImage,
} from "./components/image/render-image.js";
export { Input } from "./components/input.js";
export { CancellableLoader, Loader, type RenderRequester, SPINNER_FRAMES } from "./components/loader.js";
export { ScrollLayout, type ScrollLayoutOptions, type ScrollLayoutTheme } from "./components/scroll-layout.js";
export {
	type SelectItem,
	SelectList,
	type SelectListLayoutOptions,
	type SelectListTruncatePrimaryContext,
} from "./components/select-list.js";
export { type SettingItem, SettingsList, type SettingsListOptions } from "./components/settings-list.js";
export { Spacer } from "./components/spacer.js";
export { Text } from "./components/text.js";
export { TruncatedText } from "./components/truncated-text.js";
export { Container } from "./container.js";
export { Editor, type EditorComponent, type EditorHost, type EditorOptions } from "./editor/editor.js";
export { normalizePastedText } from "./editor/paste-store.js";
export { type DecodedKey, decodeKey, type KeyEventType } from "./keys/key-decoder.js";
export { type BaseKey, formatKeyId, isKeyId, Key, type KeyId, type KeyPress, parseKeyId } from "./keys/key-id.js";
export { decodeKittyPrintable, isKeyRelease, isKeyRepeat, matchesKey, parseKey } from "./keys/key-matching.js";
export {
	DEFAULT_EDITOR_KEYBINDINGS,
	defaultEditorKeybindingsFor,
	type EditorAction,
	type EditorKeybindingsConfig,
	EditorKeybindingsManager,
	getEditorKeybindings,
	type KeybindingsConfig,
	KeybindingsManager,
	parseKeybindingsConfig,
	setEditorKeybindings,
} from "./keys/keybindings.js";
export { isKittyProtocolActive, setKittyProtocolActive } from "./keys/kitty-state.js";
export { isMouseEvent, type MouseEvent, parseMouseEvent } from "./keys/mouse.js";
export { prepareMarkdown } from "./markdown/incremental-lexer.js";
export { Markdown } from "./markdown/markdown.js";
export { createSyntaxHighlighter, highlightCode, type SyntaxTheme } from "./markdown/syntax-highlight.js";
export type {
	OverlayAnchor,
	OverlayHandle,
	OverlayMargin,
	OverlayOptions,
	SizeValue,
} from "./rendering/overlay-layout.js";
export {
	type CellDimensions,
	detectCapabilities,
	detectImageProtocol,
	getCapabilities,
	getCellDimensions,
	type ImageProtocol,
	resetCapabilitiesCache,
	setCellDimensions,
	type TerminalCapabilities,
} from "./terminal/capabilities.js";
export { ProcessTerminal } from "./terminal/process-terminal.js";
export {
	PASTE_END,
	PASTE_START,
	StdinBuffer,
	type StdinBufferEventMap,
	type StdinBufferOptions,
} from "./terminal/stdin-buffer.js";
export { type Terminal, TerminalSequences } from "./terminal/terminal.js";
export {
	type EmulatorBuffer,
	type EmulatorLine,
	type TerminalEmulator,
	VirtualTerminal,
} from "./terminal/virtual-terminal.js";
export { escapeSequenceLength, StyleState, stripAnsi } from "./text/ansi.js";
export { applyBackground } from "./text/background.js";
export { padToWidth, sliceByColumn, truncateToWidth } from "./text/truncate.js";
export { graphemeWidth, splitGraphemes, visibleWidth } from "./text/width.js";
export { wrapTextWithAnsi } from "./text/wrap.js";
export {
	ansi16Code,
	type ColorMode,
	detectColorMode,
	paletteToRgb,
	rgbTo16,
	rgbTo256,
} from "./theme/color-depth.js";
export {
	type DefaultThemeOptions,
	defaultEditorTheme,
	defaultImageTheme,
	defaultMarkdownTheme,
	defaultSelectListTheme,
	defaultSettingsListTheme,
	defaultSyntaxTheme,
} from "./theme/default-themes.js";
export { type Color, createStyles, isColorEnabled, plain, type StyleFn, type Styles } from "./theme/style.js";
export type {
	DefaultTextStyle,
	EditorTheme,
	ImageTheme,
	MarkdownTheme,
	SelectListTheme,
	SettingsListTheme,
} from "./theme/themes.js";
export { type InputListener, type ScreenMode, TUI, type TUIOptions } from "./tui.js";
