import { isKeyId, type KeyId } from "./key-id.js";
import { matchesKey } from "./key-matching.js";

/**
 * Editor and list actions, configurable per action (keybindings.json uses these names). Application
 * actions (interrupt, expandTools, cycleModelForward, ...) belong to the application, which can match
 * them with its own `KeybindingsManager`; the reference also lists expandTools here, which made the
 * same action configurable in two places.
 */
export type EditorAction =
	| "cursorUp"
	| "cursorDown"
	| "cursorLeft"
	| "cursorRight"
	| "cursorWordLeft"
	| "cursorWordRight"
	| "cursorLineStart"
	| "cursorLineEnd"
	| "jumpForward"
	| "jumpBackward"
	| "pageUp"
	| "pageDown"
	| "deleteCharBackward"
	| "deleteCharForward"
	| "deleteWordBackward"
	| "deleteWordForward"
	| "deleteToLineStart"
	| "deleteToLineEnd"
	| "newLine"
	| "submit"
	| "tab"
	| "yank"
	| "yankPop"
	| "undo"
	| "copy"
	| "selectUp"
	| "selectDown"
	| "selectPageUp"
	| "selectPageDown"
	| "selectConfirm"
	| "selectCancel"
	| "treeFoldOrUp"
	| "treeUnfoldOrDown"
	| "toggleSessionPath"
	| "toggleSessionSort"
	| "renameSession"
	| "deleteSession"
	| "deleteSessionNoninvasive";

/** Key ids bound to each action: the user's entries replace the defaults of that action. */
export type KeybindingsConfig<A extends string> = Partial<Record<A, KeyId | readonly KeyId[]>>;

/** The editor's key bindings as a user configures them: key ids per editor action. */
export type EditorKeybindingsConfig = KeybindingsConfig<EditorAction>;

export const DEFAULT_EDITOR_KEYBINDINGS: Readonly<Record<EditorAction, readonly KeyId[]>> = {
	cursorUp: ["up"],
	cursorDown: ["down"],
	cursorLeft: ["left", "ctrl+b"],
	cursorRight: ["right", "ctrl+f"],
	cursorWordLeft: ["alt+left", "ctrl+left", "alt+b"],
	cursorWordRight: ["alt+right", "ctrl+right", "alt+f"],
	cursorLineStart: ["home", "ctrl+a"],
	cursorLineEnd: ["end", "ctrl+e"],
	jumpForward: ["ctrl+]"],
	jumpBackward: ["ctrl+alt+]"],
	pageUp: ["pageUp"],
	pageDown: ["pageDown"],
	deleteCharBackward: ["backspace"],
	deleteCharForward: ["delete", "ctrl+d"],
	deleteWordBackward: ["ctrl+w", "alt+backspace"],
	deleteWordForward: ["alt+d", "alt+delete"],
	deleteToLineStart: ["ctrl+u"],
	deleteToLineEnd: ["ctrl+k"],
	newLine: ["shift+enter"],
	submit: ["enter"],
	tab: ["tab"],
	yank: ["ctrl+y"],
	yankPop: ["alt+y"],
	undo: ["ctrl+-"],
	copy: ["ctrl+c"],
	selectUp: ["up"],
	selectDown: ["down"],
	selectPageUp: ["pageUp"],
	selectPageDown: ["pageDown"],
	selectConfirm: ["enter"],
	selectCancel: ["escape", "ctrl+c"],
	treeFoldOrUp: ["ctrl+left", "alt+left"],
	treeUnfoldOrDown: ["ctrl+right", "alt+right"],
	toggleSessionPath: ["ctrl+p"],
	toggleSessionSort: ["ctrl+s"],
	renameSession: ["ctrl+r"],
	deleteSession: ["ctrl+d"],
	deleteSessionNoninvasive: ["ctrl+backspace"],
};

/** The editor defaults for a platform: Windows Terminal cannot send Shift+Enter, so Ctrl+Enter is added. */
export function defaultEditorKeybindingsFor(
	env: Record<string, string | undefined> = process.env,
): Record<EditorAction, readonly KeyId[]> {
	const defaults = { ...DEFAULT_EDITOR_KEYBINDINGS };
	if (env.WT_SESSION) defaults.newLine = ["shift+enter", "ctrl+enter"];
	return defaults;
}

/**
 * Matches input against actions: each action has a list of key ids (defaults, replaced per action by
 * the user's configuration; an empty list unbinds it).
 */
export class KeybindingsManager<A extends string> {
	private bindings: Record<A, readonly KeyId[]>;

	constructor(
		private readonly defaults: Readonly<Record<A, readonly KeyId[]>>,
		config: KeybindingsConfig<A> = {},
	) {
		this.bindings = { ...defaults };
		this.setConfig(config);
	}

	/** Replaces the user configuration (actions not mentioned get their defaults back). */
	setConfig(config: KeybindingsConfig<A>): void {
		const bindings = { ...this.defaults } as Record<A, readonly KeyId[]>;
		for (const action of Object.keys(config) as A[]) {
			const keys = config[action];
			if (keys === undefined) continue;
			bindings[action] = typeof keys === "string" ? [keys] : [...(keys as readonly KeyId[])];
		}
		this.bindings = bindings;
	}

	matches(data: string, action: A): boolean {
		const keys = this.bindings[action];
		if (!keys) return false;
		for (const key of keys) if (matchesKey(data, key)) return true;
		return false;
	}

	getKeys(action: A): readonly KeyId[] {
		return this.bindings[action] ?? [];
	}

	/** The first of `actions` that `data` triggers. */
	findAction<T extends A>(data: string, actions: readonly T[]): T | undefined {
		return actions.find((action) => this.matches(data, action));
	}
}

export class EditorKeybindingsManager extends KeybindingsManager<EditorAction> {
	constructor(config: EditorKeybindingsConfig = {}, env: Record<string, string | undefined> = process.env) {
		super(defaultEditorKeybindingsFor(env), config);
	}
}

let editorKeybindings: EditorKeybindingsManager | undefined;

export function getEditorKeybindings(): EditorKeybindingsManager {
	editorKeybindings ??= new EditorKeybindingsManager();
	return editorKeybindings;
}

export function setEditorKeybindings(manager: EditorKeybindingsManager): void {
	editorKeybindings = manager;
}

/**
 * Validates the parsed content of a keybindings file: an object mapping action names to a key id or an
 * array of key ids. Entries with invalid key ids are dropped and reported; unknown action names are
 * kept (the application decides which actions exist).
 */
export function parseKeybindingsConfig(value: unknown): {
	config: Record<string, KeyId[]>;
	errors: string[];
} {
	const config: Record<string, KeyId[]> = {};
	const errors: string[] = [];
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return { config, errors: ["keybindings must be a JSON object mapping action names to key ids"] };
	}
	for (const [action, raw] of Object.entries(value)) {
		const list = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw : undefined;
		if (!list?.every((key): key is string => typeof key === "string")) {
			errors.push(`${action}: expected a key id or an array of key ids`);
			continue;
		}
		const invalid = list.filter((key) => !isKeyId(key));
		if (invalid.length > 0)
			errors.push(`${action}: unknown key id ${invalid.map((k) => JSON.stringify(k)).join(", ")}`);
		config[action] = list.filter(isKeyId);
	}
	return { config, errors };
}
