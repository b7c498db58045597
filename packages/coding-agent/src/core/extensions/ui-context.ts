// What an extension can do with the user interface (`ctx.ui`, docs/extensions.md "UI"). Each mode supplies one
// implementation: the interactive mode draws with the TUI, RPC mode turns calls into `extension_ui_request`
// records (./rpc-ui-context.ts), and print/JSON mode uses the no-op context below (`hasUI === false`).
//
// Only types and the no-op implementation live here, so modes can implement the interface without importing
// the extension runner.
import type { Component, EditorComponent, EditorTheme, KeyId, OverlayHandle, OverlayOptions, TUI } from "@agent/tui";

// ---------------------------------------------------------------------------------------------------------
// Theme, as extensions see it
// ---------------------------------------------------------------------------------------------------------

/** Foreground colour tokens of a theme (the reference's names, so ported renderers keep working). */
export type ThemeColor =
	| "accent"
	| "border"
	| "borderAccent"
	| "borderMuted"
	| "success"
	| "error"
	| "warning"
	| "muted"
	| "dim"
	| "text"
	| "thinkingText"
	| "userMessageText"
	| "customMessageText"
	| "customMessageLabel"
	| "toolTitle"
	| "toolOutput"
	| "mdHeading"
	| "mdLink"
	| "mdLinkUrl"
	| "mdCode"
	| "mdCodeBlock"
	| "mdCodeBlockBorder"
	| "mdQuote"
	| "mdQuoteBorder"
	| "mdHr"
	| "mdListBullet"
	| "toolDiffAdded"
	| "toolDiffRemoved"
	| "toolDiffContext"
	| "syntaxComment"
	| "syntaxKeyword"
	| "syntaxFunction"
	| "syntaxVariable"
	| "syntaxString"
	| "syntaxNumber"
	| "syntaxType"
	| "syntaxOperator"
	| "syntaxPunctuation"
	| "thinkingOff"
	| "thinkingMinimal"
	| "thinkingLow"
	| "thinkingMedium"
	| "thinkingHigh"
	| "thinkingXhigh"
	| "bashMode";

/** Background colour tokens of a theme. */
export type ThemeBackground =
	| "selectedBg"
	| "userMessageBg"
	| "customMessageBg"
	| "toolPendingBg"
	| "toolSuccessBg"
	| "toolErrorBg";

/**
 * The styling functions renderers and UI components get. The interactive mode's theme implements this; an
 * unknown token renders the text unstyled rather than throwing.
 */
export interface Theme {
	/** The theme's name (`dark`, `light`, or a theme file's name); undefined for the plain theme. */
	readonly name?: string;
	fg(color: ThemeColor, text: string): string;
	bg(color: ThemeBackground, text: string): string;
	bold(text: string): string;
	italic(text: string): string;
	underline(text: string): string;
	inverse(text: string): string;
	strikethrough(text: string): string;
}

/** A theme that styles nothing: what renderers get where there is no terminal (print, JSON, RPC). */
export const plainTheme: Theme = {
	fg: (_color, text) => text,
	bg: (_color, text) => text,
	bold: (text) => text,
	italic: (text) => text,
	underline: (text) => text,
	inverse: (text) => text,
	strikethrough: (text) => text,
};

// ---------------------------------------------------------------------------------------------------------
// Arguments of UI methods
// ---------------------------------------------------------------------------------------------------------

/** Options of `select`, `confirm` and `input`. */
export interface DialogOptions {
	/** Dismisses the dialog from code; it then resolves with its default (undefined / false). */
	signal?: AbortSignal;
	/** Milliseconds until the dialog dismisses itself (with a live countdown where the mode can show one). */
	timeout?: number;
}

export type NotifyType = "info" | "warning" | "error";

export type WidgetPlacement = "aboveEditor" | "belowEditor";

export interface WidgetOptions {
	/** Default `aboveEditor`. */
	placement?: WidgetPlacement;
}

/** A component an extension hands to the UI; `dispose` is called when the UI drops it. */
export type DisposableComponent = Component & { dispose?(): void };

/** The application's key bindings, as `custom()` components see them (action names of docs/keybindings.md). */
export interface ExtensionKeybindings {
	/** True when `data` is one of the keys bound to `action`. */
	matches(data: string, action: string): boolean;
	getKeys(action: string): readonly KeyId[];
}

/** What a custom footer can show besides its own content. */
export interface FooterData {
	/** The checked-out git branch of the cwd, or null outside a repository / on a detached HEAD. */
	getGitBranch(): string | null;
	/** `setStatus` entries of all extensions, by key, in insertion order. */
	getExtensionStatuses(): ReadonlyMap<string, string>;
	/** Providers that have credentials. */
	getAvailableProviderCount(): number;
	/** Called when the branch changes; returns the unsubscribe function. */
	onBranchChange(listener: () => void): () => void;
}

export type WidgetFactory = (tui: TUI, theme: Theme) => DisposableComponent;
export type FooterFactory = (tui: TUI, theme: Theme, footerData: FooterData) => DisposableComponent;
export type HeaderFactory = (tui: TUI, theme: Theme) => DisposableComponent;
export type EditorFactory = (tui: TUI, editorTheme: EditorTheme, keybindings: ExtensionKeybindings) => EditorComponent;

/** `custom()`: builds the component; calling `done(result)` closes it and resolves the call with `result`. */
export type CustomUIFactory<T> = (
	tui: TUI,
	theme: Theme,
	keybindings: ExtensionKeybindings,
	done: (result: T) => void,
) => Component | Promise<Component>;

export interface CustomUIOptions {
	/** Show as an overlay above the chat instead of in place of the editor. */
	overlay?: boolean;
	overlayOptions?: OverlayOptions | (() => OverlayOptions);
	/** Receives the overlay's handle once shown (hide, focus, …). */
	onHandle?: (handle: OverlayHandle) => void;
}

/** What a terminal-input listener returns: `consume` stops the key here; `data` replaces it for later listeners. */
export type TerminalInputResult = { consume?: boolean; data?: string } | undefined;
export type TerminalInputHandler = (data: string) => TerminalInputResult;

export interface ThemeInfo {
	name: string;
	/** The theme file; undefined for built-in themes. */
	path: string | undefined;
}

// ---------------------------------------------------------------------------------------------------------
// The interface
// ---------------------------------------------------------------------------------------------------------

/**
 * `ctx.ui`. Dialogs resolve with a default when dismissed (cancelled, timed out, aborted, or no UI):
 * `select`/`input`/`editor` → undefined, `confirm` → false, `custom` → undefined.
 */
export interface ExtensionUIContext {
	select(title: string, options: string[], opts?: DialogOptions): Promise<string | undefined>;
	confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean>;
	input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined>;
	notify(message: string, type?: NotifyType): void;
	/** Sees raw terminal input before the editor; returns the unsubscribe function. */
	onTerminalInput(handler: TerminalInputHandler): () => void;
	/** A footer status entry; undefined text removes it. */
	setStatus(key: string, text: string | undefined): void;
	/** The loader's text while streaming; no argument restores the default. */
	setWorkingMessage(message?: string): void;
	/** Lines or a component above (default) or below the editor; undefined removes the widget. */
	setWidget(key: string, content: string[] | WidgetFactory | undefined, options?: WidgetOptions): void;
	/** Replaces the footer; undefined restores the built-in one. */
	setFooter(factory: FooterFactory | undefined): void;
	/** Replaces the startup header; undefined restores the built-in one. */
	setHeader(factory: HeaderFactory | undefined): void;
	setTitle(title: string): void;
	custom<T>(factory: CustomUIFactory<T>, options?: CustomUIOptions): Promise<T | undefined>;
	pasteToEditor(text: string): void;
	setEditorText(text: string): void;
	getEditorText(): string;
	/** A multi-line editor dialog; undefined when cancelled. */
	editor(title: string, prefill?: string): Promise<string | undefined>;
	/** Replaces the prompt editor; undefined restores the built-in one. */
	setEditorComponent(factory: EditorFactory | undefined): void;
	readonly theme: Theme;
	getAllThemes(): ThemeInfo[];
	getTheme(name: string): Theme | undefined;
	setTheme(theme: string | Theme): { success: boolean; error?: string };
	getToolsExpanded(): boolean;
	setToolsExpanded(expanded: boolean): void;
}

// ---------------------------------------------------------------------------------------------------------
// No UI (print and JSON modes, and any mode before it binds its own)
// ---------------------------------------------------------------------------------------------------------

export const UI_NOT_AVAILABLE_TEXT = "UI not available";

/**
 * The UI of modes without one. Dialogs resolve at once with their defaults, `getEditorText` is `""`,
 * `setTheme` reports `UI not available`, everything else does nothing. Extensions check `ctx.hasUI` (false
 * with this context) to tell "no UI" apart from "the user cancelled".
 */
export function createNoopUIContext(): ExtensionUIContext {
	return {
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
		notify: () => {},
		onTerminalInput: () => () => {},
		setStatus: () => {},
		setWorkingMessage: () => {},
		setWidget: () => {},
		setFooter: () => {},
		setHeader: () => {},
		setTitle: () => {},
		custom: async () => undefined,
		pasteToEditor: () => {},
		setEditorText: () => {},
		getEditorText: () => "",
		editor: async () => undefined,
		setEditorComponent: () => {},
		theme: plainTheme,
		getAllThemes: () => [],
		getTheme: () => undefined,
		setTheme: () => ({ success: false, error: UI_NOT_AVAILABLE_TEXT }),
		getToolsExpanded: () => false,
		setToolsExpanded: () => {},
	};
}
