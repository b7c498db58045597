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

/**
 * Actions of the application (docs/keybindings.md "Application actions"), in the order that decides which wins when two share a key; editor
 * and list actions are @agent/tui's `EditorAction`. `reserved`: an extension shortcut may not take its keys.
 */
const APP_ACTION_TRAITS = {
	interrupt: { reserved: true },
	clear: { reserved: true },
	exit: { reserved: true },
	suspend: { reserved: true },
	cycleThinkingLevel: { reserved: true },
	cycleModelForward: { reserved: true },
	cycleModelBackward: { reserved: true },
	selectModel: { reserved: true },
	expandTools: { reserved: true },
	toggleThinking: { reserved: true },
	toggleSessionNamedFilter: { reserved: false },
	externalEditor: { reserved: true },
	followUp: { reserved: true },
	dequeue: { reserved: false },
	pasteImage: { reserved: false },
	newSession: { reserved: false },
	tree: { reserved: false },
	fork: { reserved: false },
	resume: { reserved: false },
	scrollUp: { reserved: false },
	scrollDown: { reserved: false },
	searchTranscript: { reserved: false },
	cyclePermissionMode: { reserved: false },
} as const satisfies Record<string, { reserved: boolean }>;

export type AppAction = keyof typeof APP_ACTION_TRAITS;

export type KeybindingAction = AppAction | EditorAction;

export const APP_ACTIONS = Object.keys(APP_ACTION_TRAITS) as readonly AppAction[];

/** Built-in actions whose keys an extension shortcut may not take: some of the application's, some editor ones. */
export const RESERVED_SHORTCUT_ACTIONS: readonly KeybindingAction[] = [
	...APP_ACTIONS.filter((action) => APP_ACTION_TRAITS[action].reserved),
	...(["submit", "selectConfirm", "selectCancel", "copy", "deleteToLineEnd"] satisfies EditorAction[]),
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
				const normalized = conflictKeyOf(key);
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

/**
 * What `findConflicts` groups bindings by, and prints: `Shift+Ctrl+P` and `ctrl+shift+p` are the same key
 * (lower-case, modifiers sorted alphabetically and all kept, aliases resolved). Not core's `normalizeKeyId`,
 * which orders modifiers as the TUI matches them and drops unknown ones: conflict warnings would read differently.
 */
export function conflictKeyOf(key: string): string {
	const parts = key.toLowerCase().split("+");
	// A trailing empty part means the key itself is "+" ("ctrl++").
	const base = parts[parts.length - 1] === "" ? "+" : (parts.pop() as string);
	if (base === "+") parts.splice(parts.length - 2);
	const aliases: Record<string, string> = { esc: "escape", return: "enter" };
	const modifiers = parts.filter((part) => part.length > 0).sort();
	return [...modifiers, aliases[base] ?? base].join("+");
}

export { defaultEditorKeybindingsFor };
