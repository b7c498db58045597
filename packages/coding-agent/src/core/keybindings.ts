// Key bindings of the interactive mode (docs/keybindings.md): application actions with their defaults, the editor and
// list actions of @agent/tui, and a manager that answers "which action is this key?". Loading
// `<agentDir>/keybindings.json` lives in keybindings-file.ts.
import {
	DEFAULT_EDITOR_KEYBINDINGS,
	defaultEditorKeybindingsFor,
	type EditorAction,
	EditorKeybindingsManager,
	KeybindingsManager,
	type KeyId,
} from "@agent/tui";

/** Actions of the application (docs/keybindings.md "Application actions"); editor and list actions are @agent/tui's `EditorAction`. */
export type AppAction =
	| "interrupt"
	| "clear"
	| "exit"
	| "suspend"
	| "cycleThinkingLevel"
	| "cycleModelForward"
	| "cycleModelBackward"
	| "selectModel"
	| "expandTools"
	| "toggleThinking"
	| "toggleSessionNamedFilter"
	| "externalEditor"
	| "followUp"
	| "dequeue"
	| "pasteImage"
	| "newSession"
	| "tree"
	| "fork"
	| "resume"
	| "scrollUp"
	| "scrollDown"
	| "searchTranscript"
	| "cyclePermissionMode";

export type KeybindingAction = AppAction | EditorAction;

export const APP_ACTIONS: readonly AppAction[] = [
	"interrupt",
	"clear",
	"exit",
	"suspend",
	"cycleThinkingLevel",
	"cycleModelForward",
	"cycleModelBackward",
	"selectModel",
	"expandTools",
	"toggleThinking",
	"toggleSessionNamedFilter",
	"externalEditor",
	"followUp",
	"dequeue",
	"pasteImage",
	"newSession",
	"tree",
	"fork",
	"resume",
	"scrollUp",
	"scrollDown",
	"searchTranscript",
	"cyclePermissionMode",
];

/** The application defaults for a platform (Alt+V pastes images on Windows, where Ctrl+V is the terminal's). */
export function defaultAppKeybindingsFor(platform: NodeJS.Platform = process.platform): Record<AppAction, KeyId[]> {
	return {
		interrupt: ["escape"],
		clear: ["ctrl+c"],
		exit: ["ctrl+d"],
		suspend: ["ctrl+z"],
		cycleThinkingLevel: ["shift+tab"],
		cycleModelForward: ["ctrl+p"],
		cycleModelBackward: ["shift+ctrl+p"],
		selectModel: ["ctrl+l"],
		expandTools: ["ctrl+o"],
		toggleThinking: ["ctrl+t"],
		toggleSessionNamedFilter: ["ctrl+n"],
		externalEditor: ["ctrl+g"],
		followUp: ["alt+enter"],
		dequeue: ["alt+up"],
		pasteImage: [platform === "win32" ? "alt+v" : "ctrl+v"],
		newSession: [],
		tree: [],
		fork: [],
		resume: [],
		// Ours: the full-screen mode scrolls its own transcript (in the inline mode these keys reach the editor).
		scrollUp: ["pageUp"],
		scrollDown: ["pageDown"],
		searchTranscript: ["ctrl+s"],
		// Ours: permission modes (docs/permissions.md).
		cyclePermissionMode: ["alt+p"],
	};
}

export const DEFAULT_APP_KEYBINDINGS: Readonly<Record<AppAction, readonly KeyId[]>> = defaultAppKeybindingsFor();

/** Every action's default keys: the application's and the editor's (docs/keybindings.md). */
export const DEFAULT_KEYBINDINGS: Readonly<Record<KeybindingAction, readonly KeyId[]>> = {
	...DEFAULT_EDITOR_KEYBINDINGS,
	...DEFAULT_APP_KEYBINDINGS,
};

const APP_ACTION_SET: ReadonlySet<string> = new Set(APP_ACTIONS);
const EDITOR_ACTION_SET: ReadonlySet<string> = new Set(Object.keys(DEFAULT_EDITOR_KEYBINDINGS));

export function isAppAction(name: string): name is AppAction {
	return APP_ACTION_SET.has(name);
}

export function isEditorAction(name: string): name is EditorAction {
	return EDITOR_ACTION_SET.has(name);
}

/** Two application actions sharing a key: the first in `APP_ACTIONS` order wins in the main editor. */
export interface KeybindingConflict {
	key: KeyId;
	actions: AppAction[];
}

/** The application's and the editor's bindings with the user's overrides applied. */
export class AppKeybindings {
	readonly app: KeybindingsManager<AppAction>;
	readonly editor: EditorKeybindingsManager;

	constructor(
		config: Partial<Record<string, readonly KeyId[]>> = {},
		options: { platform?: NodeJS.Platform; env?: Record<string, string | undefined> } = {},
	) {
		const appConfig: Partial<Record<AppAction, readonly KeyId[]>> = {};
		const editorConfig: Partial<Record<EditorAction, readonly KeyId[]>> = {};
		for (const [action, keys] of Object.entries(config)) {
			if (keys === undefined) continue;
			if (isAppAction(action)) appConfig[action] = keys;
			else if (isEditorAction(action)) editorConfig[action] = keys;
		}
		this.app = new KeybindingsManager(defaultAppKeybindingsFor(options.platform), appConfig);
		this.editor = new EditorKeybindingsManager(editorConfig, options.env);
	}

	matches(data: string, action: AppAction): boolean {
		return this.app.matches(data, action);
	}

	/** The application action `data` triggers, if any (first in `APP_ACTIONS` order). */
	actionFor(data: string): AppAction | undefined {
		return this.app.findAction(data, APP_ACTIONS);
	}

	getKeys(action: KeybindingAction): readonly KeyId[] {
		return isAppAction(action) ? this.app.getKeys(action) : this.editor.getKeys(action);
	}

	/** How a key hint shows an action's keys, e.g. `ctrl+p` or `escape/ctrl+c`; "" when unbound. */
	describe(action: KeybindingAction): string {
		return this.getKeys(action).join("/");
	}

	/** Application actions bound to the same key. */
	findConflicts(): KeybindingConflict[] {
		const byKey = new Map<string, AppAction[]>();
		for (const action of APP_ACTIONS) {
			for (const key of this.app.getKeys(action)) {
				const normalized = normalizeKeyId(key);
				const list = byKey.get(normalized) ?? [];
				list.push(action);
				byKey.set(normalized, list);
			}
		}
		const conflicts: KeybindingConflict[] = [];
		for (const [key, actions] of byKey) if (actions.length > 1) conflicts.push({ key: key as KeyId, actions });
		return conflicts;
	}
}

/** `Shift+Ctrl+P` and `ctrl+shift+p` name the same key: lower-case, modifiers sorted, aliases resolved. */
export function normalizeKeyId(key: string): string {
	const parts = key.toLowerCase().split("+");
	// A trailing empty part means the key itself is "+" ("ctrl++").
	const base = parts[parts.length - 1] === "" ? "+" : (parts.pop() as string);
	if (base === "+") parts.splice(parts.length - 2);
	const aliases: Record<string, string> = { esc: "escape", return: "enter" };
	const modifiers = parts.filter((part) => part.length > 0).sort();
	return [...modifiers, aliases[base] ?? base].join("+");
}

export { defaultEditorKeybindingsFor };
