// What the interactive mode offers its parts (key actions, slash commands, selectors, the input controller,
// the extension UI), as small roles. They depend on these interfaces, not on the mode class, so each can be
// tested alone and no file imports the mode.
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

// Each part takes the roles it uses, no more: a function that only reports takes a NoticeHost. What takes
// the whole ModeHost (the slash command table, the input controller that runs it) can reach any command.

/** Notices in the transcript, and redraws. */
export interface NoticeHost {
	notify(level: NoticeLevel, text: string): void;
	/**
	 * A prompt that failed before the model was called: `Error: <the core's message>`, then what to do about it
	 * when the CLI knows (for a missing key: the environment variable to set).
	 */
	notifyPromptFailure(error: unknown): void;
	requestRender(): void;
}

/** The session the mode drives, and how the mode was started. */
export interface SessionHost {
	readonly session: AgentSession;
	readonly agentDir: string;
	readonly options: InteractiveModeOptions;
	/** Shows the model registry's models.json error (`models.json error: …`) unless it is the one last shown. */
	reportModelsJsonError(): void;
}

/** Selectors and dialogs, shown in the editor's place, and what they are drawn with. */
export interface DialogHost {
	readonly tui: TUI;
	readonly state: DisplayState;
	readonly keybindings: AppKeybindings;
	/** Puts `component` where the editor is and focuses it, until the handle closes it. */
	showSelector(component: Component): SelectorHandle;
	/** Whether a selector or dialog is open. */
	hasSelector(): boolean;
	requestRender(): void;
}

/** The prompt editor. */
export interface EditorHost {
	readonly editor: AppEditor;
	refreshEditorBorder(): void;
	refreshAutocomplete(): void;
	/** Sends `text` to the model as a prompt (idle) or steering/follow-up (while the agent works). */
	submitPrompt(text: string, delivery?: "steer" | "followUp"): void;
	/** Ctrl+G: edits the prompt in $VISUAL / $EDITOR. */
	openExternalEditor(): void;
}

/** The transcript, the status line under it and the queued messages. */
export interface TranscriptHost {
	readonly transcript: Transcript;
	readonly status: StatusArea;
	/** Rebuilds the transcript from the session's current branch. */
	rebuildTranscript(): void;
	refreshPending(): void;
	setToolsExpanded(expanded: boolean): void;
	setHideThinking(hidden: boolean): void;
	/** The full-screen mode's PageUp / PageDown; false in the inline mode (the editor gets the key). */
	scrollTranscript(direction: -1 | 1): boolean;
	/** The full-screen mode's search bar; false in the inline mode. */
	openTranscriptSearch(): boolean;
}

/** The footer and the terminal title. */
export interface FooterHost {
	/**
	 * The footer follows the session by itself (its events and `onStateChange`); this is for figures the mode
	 * owns: extension statuses, the permission mode, the git branch.
	 */
	refreshFooter(): void;
	updateTitle(): void;
}

/** Themes, key bindings, UI settings and the screen mode. */
export interface AppearanceHost {
	readonly themes: ThemeRegistry;
	/** Switches the theme (and saves it unless `preview`); false when the theme does not exist. */
	setTheme(name: string, options?: { preview?: boolean }): boolean;
	/** Applies settings that change the UI (padding, autocomplete rows, cursor, clear on shrink). */
	applyUiSettings(): void;
	/** Reads keybindings.json again. */
	reloadKeybindings(): void;
	/** Rebuilds the theme list from the resource loader (after /reload) and re-applies the current theme. */
	reloadThemes(): void;
	/** Keyboard shortcuts extensions registered (for /hotkeys). */
	extensionShortcuts(): { key: string; description: string }[];
	/** Switches between the inline and the full-screen mode (and saves it as `tuiMode`). */
	setTuiMode(mode: TuiMode): void;
}

/** Pausing and leaving the mode. */
export interface LifecycleHost {
	/** Ctrl+Z: hands the terminal back to the shell until SIGCONT. */
	suspend(): void;
	/** Leaves the mode: `session_shutdown`, terminal restored, `exitCode` returned by `runInteractiveMode`. */
	quit(exitCode?: number): Promise<void>;
}

/** Everything the mode offers its parts; a part that needs it all (the slash command table) takes this. */
export interface ModeHost
	extends NoticeHost,
		SessionHost,
		DialogHost,
		EditorHost,
		TranscriptHost,
		FooterHost,
		AppearanceHost,
		LifecycleHost {}
