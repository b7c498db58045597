// The interactive mode's dialogs under the reference's names and constructors, for programs written for it. Each
// is one of our panels (select-panel.ts and the panels built on it, tree-selector.ts, session-picker.ts) given the
// reference's parameters and callbacks; the theme is the one on screen (getCurrentTheme).
import type { ThinkingLevel } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import { type Component, Input, type SelectList, type SettingsList, type TUI } from "@agent/tui";
import type { AuthStorage } from "../../../core/config/auth-storage.js";
import type { ModelRegistry } from "../../../core/config/model-registry.js";
import type { SettingsManager } from "../../../core/config/settings-manager.js";
import type { TreeFilterMode } from "../../../core/config/settings-schema.js";
import type { SessionEntry, SessionInfo, SessionTreeNode } from "../../../core/session/entries.js";
import { LOGIN_PICKER_TITLE, oauthProviderLabel } from "../commands/login-command.js";
import { deleteSession } from "../commands/session-commands.js";
import { AppKeybindings } from "../keybindings.js";
import { forkPanel } from "../selectors/fork-panel.js";
import {
	CONFIGURED_MODELS_ONLY_TEXT,
	modelItems,
	modelKey,
	SCOPED_MODELS_ONLY_TEXT,
} from "../selectors/model-selector.js";
import { SelectPanel } from "../selectors/select-panel.js";
import { SessionPicker } from "../selectors/session-picker.js";
import { type SettingsCallbacks, type SettingsConfig, SettingsPanel } from "../selectors/settings-panel.js";
import { themePanel } from "../selectors/theme-panel.js";
import { TreeSelector } from "../selectors/tree-selector.js";
import { getCurrentTheme } from "../theme/current-theme.js";
import { detectColorMode } from "../theme/theme.js";
import { ThemeRegistry } from "../theme/theme-registry.js";
import { ownDisplayState } from "./reference-components.js";

/** A select panel shown as a component of its own (the reference's dialogs are containers around a list). */
export class PanelComponent implements Component {
	constructor(protected readonly panel: SelectPanel) {}

	render(width: number): string[] {
		return this.panel.render(width);
	}

	handleInput(data: string): void {
		this.panel.handleInput(data);
	}

	invalidate(): void {
		this.panel.invalidate();
	}

	getSelectList(): SelectList {
		return this.panel.getSelectList();
	}
}

/** A panel's search text as the reference's `Input`: reading, setting or typing into it reads or sets the search. */
class PanelSearchInput extends Input {
	constructor(private readonly panel: SelectPanel) {
		super();
	}

	override getValue(): string {
		return this.panel.getFilter();
	}

	override setValue(value: string): void {
		super.setValue(value);
		this.panel.setFilter(super.getValue());
	}

	override handleInput(data: string): void {
		super.setValue(this.panel.getFilter());
		super.handleInput(data);
		this.panel.setFilter(super.getValue());
	}
}

/** `new ThinkingSelectorComponent(currentLevel, availableLevels, onSelect, onCancel)`. */
export class ThinkingSelectorComponent extends PanelComponent {
	constructor(
		currentLevel: ThinkingLevel,
		availableLevels: ThinkingLevel[],
		onSelect: (level: ThinkingLevel) => void,
		onCancel: () => void,
	) {
		super(
			new SelectPanel(ownDisplayState(), {
				title: "Thinking level",
				items: availableLevels.map((level) => ({ value: level, label: level })),
				selectedValue: currentLevel,
				filterable: false,
				onSelect: (item) => {
					const level = availableLevels.find((candidate) => candidate === item.value);
					if (level) onSelect(level);
				},
				onCancel,
			}),
		);
	}
}

/** `new ShowImagesSelectorComponent(currentValue, onSelect, onCancel)`: show images inline, yes or no. */
export class ShowImagesSelectorComponent extends PanelComponent {
	constructor(currentValue: boolean, onSelect: (show: boolean) => void, onCancel: () => void) {
		super(
			new SelectPanel(ownDisplayState(), {
				title: "Show images",
				items: [
					{ value: "true", label: "Yes", description: "Render images inline when the terminal supports it" },
					{ value: "false", label: "No", description: "Show a placeholder instead" },
				],
				selectedValue: String(currentValue),
				filterable: false,
				onSelect: (item) => onSelect(item.value === "true"),
				onCancel,
			}),
		);
	}
}

/**
 * `new ThemeSelectorComponent(currentTheme, onSelect, onCancel, onPreview)`: the built-in themes (and the one on
 * screen), previewed as the selection moves. Theme files belong to the interactive mode, which lists them itself.
 */
export class ThemeSelectorComponent extends PanelComponent {
	constructor(
		currentTheme: string,
		onSelect: (themeName: string) => void,
		onCancel: () => void,
		onPreview: (themeName: string) => void,
	) {
		const themes = new ThemeRegistry([], detectColorMode()).list();
		const onScreen = getCurrentTheme();
		if (!themes.some((theme) => theme.name === onScreen.name))
			themes.push({ name: onScreen.name, path: onScreen.sourcePath });
		super(
			themePanel(ownDisplayState(), themes, currentTheme, {
				onPreview,
				onSelect,
				onCancel,
			}),
		);
	}
}

interface ScopedModelItem {
	model: Model;
	thinkingLevel?: string;
}

/**
 * `new ModelSelectorComponent(tui, currentModel, settingsManager, modelRegistry, scopedModels, onSelect, onCancel,
 * initialSearchInput?)`: the scoped models when there are any, else every model with credentials; the choice is
 * saved as the default model, as `/model` does.
 */
export class ModelSelectorComponent extends PanelComponent {
	constructor(
		_tui: TUI,
		currentModel: Model | undefined,
		settingsManager: Pick<SettingsManager, "setDefaultModelAndProvider">,
		modelRegistry: Pick<ModelRegistry, "refresh" | "getAvailable">,
		scopedModels: ReadonlyArray<ScopedModelItem>,
		onSelect: (model: Model) => void,
		onCancel: () => void,
		initialSearchInput = "",
	) {
		const scoped = scopedModels.length > 0;
		if (!scoped) modelRegistry.refresh();
		const models = scoped ? scopedModels.map((item) => item.model) : modelRegistry.getAvailable();
		const byKey = new Map(models.map((model) => [modelKey(model), model]));
		super(
			new SelectPanel(ownDisplayState(), {
				title: scoped ? "Select model (scoped)" : "Select model",
				subtitle: scoped ? SCOPED_MODELS_ONLY_TEXT : CONFIGURED_MODELS_ONLY_TEXT,
				items: modelItems(models, currentModel),
				initialFilter: initialSearchInput,
				...(currentModel ? { selectedValue: modelKey(currentModel) } : {}),
				hint: "Type to search · Enter to select · Esc to cancel",
				onSelect: (item) => {
					const model = byKey.get(item.value);
					if (!model) return;
					settingsManager.setDefaultModelAndProvider(model.provider, model.id);
					onSelect(model);
				},
				onCancel,
			}),
		);
	}

	private searchInput: Input | undefined;

	/** The search field: its value is the search, and setting it filters the list. */
	getSearchInput(): Input {
		this.searchInput ??= new PanelSearchInput(this.panel);
		return this.searchInput;
	}
}

interface UserMessageItem {
	id: string;
	text: string;
	timestamp?: string;
}

/** `new UserMessageSelectorComponent(messages, onSelect, onCancel)`: the /fork list. */
export class UserMessageSelectorComponent extends PanelComponent {
	constructor(messages: UserMessageItem[], onSelect: (entryId: string) => void, onCancel: () => void) {
		super(
			forkPanel(
				ownDisplayState(),
				messages.map((message) => ({ entryId: message.id, text: message.text })),
				{ onSelect, onCancel },
			),
		);
	}

	/** The list of messages (typing into it searches, Enter forks, Esc cancels). */
	getMessageList(): Component & { handleInput(data: string): void } {
		return this.panel;
	}
}

/**
 * `new OAuthSelectorComponent(mode, authStorage, onSelect, onCancel)`: the subscription providers to sign in to,
 * or (logout) those signed in.
 */
export class OAuthSelectorComponent extends PanelComponent {
	constructor(
		mode: "login" | "logout",
		authStorage: Pick<AuthStorage, "getOAuthProviders" | "get">,
		onSelect: (providerId: string) => void,
		onCancel: () => void,
	) {
		const isSignedIn = (id: string) => authStorage.get(id)?.type === "oauth";
		const providers = authStorage
			.getOAuthProviders()
			.filter((provider) => mode === "login" || isSignedIn(provider.id));
		super(
			new SelectPanel(ownDisplayState(), {
				title: mode === "login" ? LOGIN_PICKER_TITLE : "Log out of",
				items: providers.map((provider) => ({
					value: provider.id,
					label: oauthProviderLabel(provider, mode === "login" && isSignedIn(provider.id)),
				})),
				filterable: false,
				noMatchText: "No OAuth providers logged in. Use /login first.",
				onSelect: (item) => onSelect(item.value),
				onCancel,
			}),
		);
	}
}

/** The entries from a root of `tree` down to `leafId`. */
function pathTo(tree: readonly SessionTreeNode[], leafId: string | null): SessionEntry[] {
	if (leafId === null) return [];
	const walk = (nodes: readonly SessionTreeNode[], path: SessionEntry[]): SessionEntry[] | undefined => {
		for (const node of nodes) {
			const here = [...path, node.entry];
			if (node.entry.id === leafId) return here;
			const found = walk(node.children, here);
			if (found) return found;
		}
		return undefined;
	};
	return walk(tree, []) ?? [];
}

function findNode(tree: readonly SessionTreeNode[], id: string): SessionTreeNode | undefined {
	for (const node of tree) {
		if (node.entry.id === id) return node;
		const found = findNode(node.children, id);
		if (found) return found;
	}
	return undefined;
}

function setNodeLabel(tree: readonly SessionTreeNode[], entryId: string, label: string | undefined): void {
	const node = findNode(tree, entryId);
	if (!node) return;
	if (label === undefined) delete node.label;
	else node.label = label;
}

/** What the reference's `TreeSelectorComponent.getTreeList()` answers. */
interface TreeList extends Component {
	handleInput(data: string): void;
	getSearchQuery(): string;
	getSelectedNode(): SessionTreeNode | undefined;
	/** Sets (or with undefined removes) an entry's label in the tree shown, without reporting it. */
	updateNodeLabel(entryId: string, label: string | undefined): void;
}

/**
 * The /tree navigator over a tree the caller holds:
 * `new TreeSelectorComponent(tree, currentLeafId, terminalHeight, onSelect, onCancel, onLabelChange?,
 * initialSelectedId?, initialFilterMode?)`. A label edited in it is set on the node and reported through
 * `onLabelChange`.
 */
export class TreeSelectorComponent extends TreeSelector {
	constructor(
		tree: SessionTreeNode[],
		currentLeafId: string | null,
		terminalHeight: number,
		onSelect: (entryId: string) => void,
		onCancel: () => void,
		onLabelChange?: (entryId: string, label: string | undefined) => void,
		initialSelectedId?: string,
		initialFilterMode: TreeFilterMode = "default",
	) {
		super({
			state: ownDisplayState(),
			getTree: () => tree,
			getBranch: () => pathTo(tree, currentLeafId),
			getLeafId: () => currentLeafId,
			initialFilter: initialFilterMode,
			...(initialSelectedId !== undefined ? { initialSelectedId } : {}),
			terminalRows: () => terminalHeight,
			onSelect: (entry) => onSelect(entry.id),
			onCancel,
			setLabel: (entryId, label) => {
				setNodeLabel(tree, entryId, label);
				onLabelChange?.(entryId, label);
			},
		});
	}

	getTreeList(): TreeList {
		return {
			render: (width) => this.render(width),
			handleInput: (data) => this.handleInput(data),
			invalidate: () => this.invalidate(),
			getSearchQuery: () => this.getQuery(),
			getSelectedNode: () => {
				const entry = this.getSelectedEntry();
				return entry ? findNode(this.options.getTree(), entry.id) : undefined;
			},
			updateNodeLabel: (entryId, label) => {
				setNodeLabel(this.options.getTree(), entryId, label);
				this.refresh();
			},
		};
	}
}

/** What the reference's `SessionSelectorComponent.getSessionList()` answers. */
interface SessionList extends Component {
	handleInput(data: string): void;
	getSelectedSessionPath(): string | undefined;
	/** "relevance" is our best-match order. */
	setSortMode(sortMode: "threaded" | "recent" | "relevance"): void;
	setNameFilter(nameFilter: "all" | "named"): void;
}

type SessionsLoader = (onProgress?: (loaded: number, total: number) => void) => Promise<SessionInfo[]>;

export interface SessionSelectorOptions {
	/** Renames a session (Ctrl+R); without it renaming reports that it is not available. */
	renameSession?: (sessionPath: string, name: string) => Promise<void>;
	/** Accepted for the reference's signature: our picker always lists its keys. */
	showRenameHint?: boolean;
}

/**
 * The /resume picker: `new SessionSelectorComponent(currentSessionsLoader, allSessionsLoader, onSelect, onCancel,
 * onExit, requestRender, options?, currentSessionFilePath?)`. Tab switches between the two loaders' sessions;
 * Ctrl+D deletes a session file (to the trash when `trash` is installed). Esc and Ctrl+C both cancel; `onExit`
 * is accepted for the reference's signature.
 */
export class SessionSelectorComponent extends SessionPicker {
	constructor(
		currentSessionsLoader: SessionsLoader,
		allSessionsLoader: SessionsLoader,
		onSelect: (sessionPath: string) => void,
		onCancel: () => void,
		_onExit: () => void,
		requestRender: () => void,
		options: SessionSelectorOptions = {},
		currentSessionFilePath?: string,
	) {
		super({
			state: ownDisplayState(),
			keybindings: new AppKeybindings(),
			loadSessions: (scope) => (scope === "all" ? allSessionsLoader() : currentSessionsLoader()),
			...(currentSessionFilePath !== undefined ? { currentSessionPath: currentSessionFilePath } : {}),
			onSelect: (session) => onSelect(session.path),
			onCancel,
			rename: async (session, name) => {
				if (!options.renameSession) throw new Error("Renaming sessions is not available here");
				await options.renameSession(session.path, name);
			},
			remove: (session) => deleteSession(session),
			requestRender,
		});
	}

	getSessionList(): SessionList {
		return {
			render: (width) => this.render(width),
			handleInput: (data) => this.handleInput(data),
			invalidate: () => this.invalidate(),
			getSelectedSessionPath: () => this.getSelectedSession()?.path,
			setSortMode: (sortMode) => this.setSort(sortMode === "relevance" ? "fuzzy" : sortMode),
			setNameFilter: (nameFilter) => this.setNamedOnly(nameFilter === "named"),
		};
	}
}

/** The settings panel: `new SettingsSelectorComponent(config, callbacks)`; each change goes to its callback. */
export class SettingsSelectorComponent extends SettingsPanel {
	constructor(config: SettingsConfig, callbacks: SettingsCallbacks) {
		super(ownDisplayState(), config, callbacks);
	}

	getSettingsList(): SettingsList {
		return this.list;
	}
}
