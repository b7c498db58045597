// What the interactive mode offers its parts (key actions, slash commands, selectors, the input controller,
// the extension UI). They depend on this interface, not on the mode class, so each can be tested alone and
// no file imports the mode.
import type { ImageContent } from "@agent/ai";
import type { Component, Terminal, TUI } from "@agent/tui";
import type { AgentSession } from "../../core/agent-session.js";
import type { TuiMode } from "../../core/config/settings-schema.js";
import type { ExtensionRunner } from "../../core/extensions/runner.js";
import type { AppEditor } from "./app-editor.js";
import type { StatusArea } from "./components/status-area.js";
import type { DisplayState } from "./display-state.js";
import type { AppKeybindings } from "./keybindings.js";
import type { ThemeRegistry } from "./theme/theme-registry.js";
import type { Transcript } from "./transcript.js";

export interface InteractiveModeOptions {
	/** The first message (with `@file` contents already prefixed), sent once the UI is up. */
	initialMessage?: string;
	/** Images of `@file` arguments, sent with the first message. */
	initialImages?: ImageContent[];
	/** More messages from the command line, each sent after the previous run finished. */
	messages?: string[];
	/** `--resume`: show the session picker first (cancel: `No session selected`, exit 0). */
	resume?: boolean;
	/** `--verbose`: show the startup header even with `quietStartup`. */
	verbose?: boolean;
	/** `--tui-mode`: the screen mode for this run, over the `tuiMode` setting. */
	tuiMode?: TuiMode;
	/**
	 * What to add under a prompt's failure (e.g. for `No API key found for <provider>.`: the variable to set); the
	 * failure itself is shown as the core words it.
	 */
	describeFailure?: (message: string) => string | undefined;
	/** Warnings from startup (settings, models, resources), shown above the editor. */
	warnings?: string[];
	/** Why the session's recorded model could not be restored. */
	modelFallbackMessage?: string;
	/** The extension runner: gets the interactive UI context, shortcuts and renderers are taken from it. */
	extensions?: ExtensionRunner;
	/**
	 * Writes the HTML export for `/export` and returns the path written. Default: the session's own export,
	 * which follows the in-memory leaf.
	 */
	exportHtml?: (sessionFile: string, outputPath: string | undefined) => Promise<string>;
	/** Default: `$AGENT_DIR` or `~/.agent`. */
	agentDir?: string;
	/** The terminal to draw on (tests pass a VirtualTerminal). Default: this process's stdin/stdout. */
	terminal?: Terminal;
	/** Default: `process.env`. */
	env?: Record<string, string | undefined>;
	/** Called when the editor is first shown (benchmarks, tests). */
	onReady?: () => void;
}

export type NoticeLevel = "status" | "info" | "warning" | "error";

/** A component shown in the editor's place (selectors, dialogs); Escape usually closes it. */
export interface SelectorHandle {
	close(): void;
}

export interface ModeHost {
	readonly session: AgentSession;
	readonly tui: TUI;
	readonly state: DisplayState;
	readonly editor: AppEditor;
	readonly transcript: Transcript;
	readonly status: StatusArea;
	readonly themes: ThemeRegistry;
	readonly keybindings: AppKeybindings;
	readonly agentDir: string;
	readonly options: InteractiveModeOptions;

	notify(level: NoticeLevel, text: string): void;
	/**
	 * A prompt that failed before the model was called: `Error: <the core's message>`, then what to do about it
	 * when the CLI knows (for a missing key: the environment variable to set).
	 */
	notifyPromptFailure(error: unknown): void;
	requestRender(): void;
	/** Shows the model registry's models.json error (`models.json error: …`) unless it is the one last shown. */
	reportModelsJsonError(): void;

	/** Puts `component` where the editor is and focuses it, until the handle closes it. */
	showSelector(component: Component): SelectorHandle;
	/** Whether a selector or dialog is open. */
	hasSelector(): boolean;

	/** Rebuilds the transcript from the session's current branch. */
	rebuildTranscript(): void;
	/**
	 * The footer follows the session by itself (its events and `onStateChange`); this is for figures the mode
	 * owns: extension statuses, the permission mode, the git branch.
	 */
	refreshFooter(): void;
	refreshPending(): void;
	refreshEditorBorder(): void;
	refreshAutocomplete(): void;
	updateTitle(): void;

	/** Switches the theme (and saves it unless `preview`); false when the theme does not exist. */
	setTheme(name: string, options?: { preview?: boolean }): boolean;
	setToolsExpanded(expanded: boolean): void;
	setHideThinking(hidden: boolean): void;
	/** Applies settings that change the UI (padding, autocomplete rows, cursor, clear on shrink). */
	applyUiSettings(): void;
	/** Reads keybindings.json again. */
	reloadKeybindings(): void;
	/** Rebuilds the theme list from the resource loader (after /reload) and re-applies the current theme. */
	reloadThemes(): void;

	/** Keyboard shortcuts extensions registered (for /hotkeys). */
	extensionShortcuts(): { key: string; description: string }[];
	/** Sends `text` to the model as a prompt (idle) or steering/follow-up (while the agent works). */
	submitPrompt(text: string, delivery?: "steer" | "followUp"): void;
	/** Ctrl+Z: hands the terminal back to the shell until SIGCONT. */
	suspend(): void;
	/** Ctrl+G: edits the prompt in $VISUAL / $EDITOR. */
	openExternalEditor(): void;
	/** The full-screen mode's PageUp / PageDown; false in the inline mode (the editor gets the key). */
	scrollTranscript(direction: -1 | 1): boolean;
	/** The full-screen mode's search bar; false in the inline mode. */
	openTranscriptSearch(): boolean;
	/** Switches between the inline and the full-screen mode (and saves it as `tuiMode`). */
	setTuiMode(mode: TuiMode): void;
	/** Leaves the mode: `session_shutdown`, terminal restored, `exitCode` returned by `runInteractiveMode`. */
	quit(exitCode?: number): Promise<void>;
}
