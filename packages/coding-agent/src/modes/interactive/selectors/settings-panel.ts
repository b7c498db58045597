// The settings panel (docs/settings.md): what each setting is, its values, and the callback a change goes to. It
// knows no session: `/settings` fills the values in from the session and applies the changes, and so can a
// program (the reference's `SettingsSelectorComponent(config, callbacks)`).
import { QUEUE_MODES, type QueueMode, type ThinkingLevel } from "@agent/agent-core";
import type { Transport } from "@agent/ai";
import { type Component, type SettingItem, SettingsList } from "@agent/tui";
import { DEFAULT_QUEUE_MODE } from "../../../core/config/settings-manager.js";
import {
	type DoubleEscapeAction,
	type TreeFilterMode,
	TUI_MODES,
	type TuiMode,
} from "../../../core/config/settings-schema.js";
import { type DisplayState, keyHint } from "../display-state.js";
import { FramedPanel } from "./framed-panel.js";
import { themePanel } from "./theme-panel.js";
import { TREE_FILTER_MODES } from "./tree-model.js";

/** The values the panel starts from. */
export interface SettingsConfig {
	autoCompact: boolean;
	showImages: boolean;
	autoResizeImages: boolean;
	blockImages: boolean;
	enableSkillCommands: boolean;
	steeringMode: QueueMode;
	followUpMode: QueueMode;
	transport: Transport;
	thinkingLevel: ThinkingLevel;
	availableThinkingLevels: ThinkingLevel[];
	currentTheme: string;
	availableThemes: string[];
	hideThinkingBlock: boolean;
	collapseChangelog: boolean;
	doubleEscapeAction: DoubleEscapeAction;
	treeFilterMode: TreeFilterMode;
	showHardwareCursor: boolean;
	editorPaddingX: number;
	autocompleteMaxVisible: number;
	quietStartup: boolean;
	clearOnShrink: boolean;
	/** Ours: the TUI mode; listed when `onTuiModeChange` is given too. */
	tuiMode?: TuiMode;
	/** Ours: where each theme file is, shown beside its name. */
	themePaths?: ReadonlyMap<string, string>;
}

/** Where each change goes. */
export interface SettingsCallbacks {
	onAutoCompactChange: (enabled: boolean) => void;
	onShowImagesChange: (enabled: boolean) => void;
	onAutoResizeImagesChange: (enabled: boolean) => void;
	onBlockImagesChange: (blocked: boolean) => void;
	onEnableSkillCommandsChange: (enabled: boolean) => void;
	onSteeringModeChange: (mode: QueueMode) => void;
	onFollowUpModeChange: (mode: QueueMode) => void;
	onTransportChange: (transport: Transport) => void;
	onThinkingLevelChange: (level: ThinkingLevel) => void;
	onThemeChange: (theme: string) => void;
	/** Each theme the selection moves over, and the original one again on cancel. */
	onThemePreview?: (theme: string) => void;
	onHideThinkingBlockChange: (hidden: boolean) => void;
	onCollapseChangelogChange: (collapsed: boolean) => void;
	onDoubleEscapeActionChange: (action: DoubleEscapeAction) => void;
	onTreeFilterModeChange: (mode: TreeFilterMode) => void;
	onShowHardwareCursorChange: (enabled: boolean) => void;
	onEditorPaddingXChange: (padding: number) => void;
	onAutocompleteMaxVisibleChange: (maxVisible: number) => void;
	onQuietStartupChange: (enabled: boolean) => void;
	onClearOnShrinkChange: (enabled: boolean) => void;
	/** Ours: the TUI mode changed. */
	onTuiModeChange?: (mode: TuiMode) => void;
	onCancel: () => void;
}

const BOOLEAN_VALUES = ["true", "false"];
// The default first, as the panel has always listed them.
// The default first, as the panel has always listed them.
const QUEUE_MODE_CHOICES: readonly QueueMode[] = [
	DEFAULT_QUEUE_MODE,
	...QUEUE_MODES.filter((mode) => mode !== DEFAULT_QUEUE_MODE),
];
const TRANSPORTS: readonly Transport[] = ["sse", "websocket", "auto"];
const DOUBLE_ESCAPE_ACTIONS: readonly DoubleEscapeAction[] = ["tree", "fork", "none"];

interface SettingDefinition {
	item: SettingItem;
	apply(value: string): void;
}

/** The value of `values` that `text` names (the list offered only these). */
function pick<T extends string>(values: readonly T[], text: string): T | undefined {
	return values.find((value) => value === text);
}

function toggle(
	id: string,
	label: string,
	description: string,
	current: boolean,
	apply: (value: boolean) => void,
): SettingDefinition {
	return {
		item: { id, label, currentValue: String(current), values: BOOLEAN_VALUES, description },
		apply: (value) => apply(value === "true"),
	};
}

function choice<T extends string>(
	id: string,
	label: string,
	description: string,
	current: T,
	values: readonly T[],
	apply: (value: T) => void,
): SettingDefinition {
	return {
		item: { id, label, currentValue: current, values: [...values], description },
		apply: (value) => {
			const chosen = pick(values, value);
			if (chosen !== undefined) apply(chosen);
		},
	};
}

function count(
	id: string,
	label: string,
	description: string,
	current: number,
	values: readonly number[],
	apply: (value: number) => void,
): SettingDefinition {
	return {
		item: { id, label, currentValue: String(current), values: values.map(String), description },
		apply: (value) => apply(Number(value)),
	};
}

function themeSetting(state: DisplayState, config: SettingsConfig, on: SettingsCallbacks): SettingDefinition {
	return {
		item: {
			id: "theme",
			label: "Theme",
			currentValue: config.currentTheme,
			description: "Colours of the interface (previewed as you move)",
			submenu: (current, done) => {
				const themes = config.availableThemes.map((name) => ({ name, path: config.themePaths?.get(name) }));
				return themePanel(state, themes, current, {
					onPreview: (name) => on.onThemePreview?.(name),
					onSelect: (name) => done(name),
					onCancel: () => {
						on.onThemePreview?.(current);
						done(undefined);
					},
				}) as Component;
			},
		},
		apply: (value) => on.onThemeChange(value),
	};
}

export function settingDefinitions(
	state: DisplayState,
	config: SettingsConfig,
	on: SettingsCallbacks,
): SettingDefinition[] {
	const definitions: SettingDefinition[] = [
		toggle(
			"autocompact",
			"Auto-compact",
			"Compact the context automatically when it nears the window",
			config.autoCompact,
			on.onAutoCompactChange,
		),
		choice(
			"steering-mode",
			"Steering mode",
			"Deliver queued steering messages one at a time or all at once",
			config.steeringMode,
			QUEUE_MODE_CHOICES,
			on.onSteeringModeChange,
		),
		choice(
			"follow-up-mode",
			"Follow-up mode",
			"Deliver queued follow-up messages one at a time or all at once",
			config.followUpMode,
			QUEUE_MODE_CHOICES,
			on.onFollowUpModeChange,
		),
		choice(
			"transport",
			"Transport",
			"Preferred transport for providers that offer several",
			config.transport,
			TRANSPORTS,
			on.onTransportChange,
		),
		toggle(
			"hide-thinking",
			"Hide thinking",
			"Collapse thinking blocks to a label",
			config.hideThinkingBlock,
			on.onHideThinkingBlockChange,
		),
		toggle(
			"collapse-changelog",
			"Collapse changelog",
			"One line instead of the full changelog after an update",
			config.collapseChangelog,
			on.onCollapseChangelogChange,
		),
		toggle("quiet-startup", "Quiet startup", "Hide the startup header", config.quietStartup, on.onQuietStartupChange),
		choice(
			"double-escape-action",
			"Double-escape action",
			"What Esc Esc on an empty editor opens",
			config.doubleEscapeAction,
			DOUBLE_ESCAPE_ACTIONS,
			on.onDoubleEscapeActionChange,
		),
		choice(
			"tree-filter-mode",
			"Tree filter mode",
			"Initial filter of /tree",
			config.treeFilterMode,
			TREE_FILTER_MODES,
			on.onTreeFilterModeChange,
		),
		choice(
			"thinking",
			"Thinking level",
			"Reasoning effort for models that think",
			config.thinkingLevel,
			config.availableThinkingLevels,
			on.onThinkingLevelChange,
		),
		themeSetting(state, config, on),
		toggle(
			"show-images",
			"Show images",
			"Render images inline when the terminal supports it",
			config.showImages,
			on.onShowImagesChange,
		),
		toggle(
			"auto-resize-images",
			"Auto-resize images",
			"Downscale images to 2000x2000 before sending",
			config.autoResizeImages,
			on.onAutoResizeImagesChange,
		),
		toggle(
			"block-images",
			"Block images",
			"Never send images to the model",
			config.blockImages,
			on.onBlockImagesChange,
		),
		toggle(
			"skill-commands",
			"Skill commands",
			"Offer skills as /skill:<name> in the autocomplete",
			config.enableSkillCommands,
			on.onEnableSkillCommandsChange,
		),
		toggle(
			"hardware-cursor",
			"Show hardware cursor",
			"Show the terminal's cursor in the editor (for input methods)",
			config.showHardwareCursor,
			on.onShowHardwareCursorChange,
		),
		count(
			"editor-padding",
			"Editor padding",
			"Horizontal padding inside the editor",
			config.editorPaddingX,
			[0, 1, 2, 3],
			on.onEditorPaddingXChange,
		),
		count(
			"autocomplete-max-visible",
			"Autocomplete max items",
			"Rows of the autocomplete list",
			config.autocompleteMaxVisible,
			[3, 5, 7, 10, 15, 20],
			on.onAutocompleteMaxVisibleChange,
		),
	];
	const { tuiMode } = config;
	const onTuiModeChange = on.onTuiModeChange;
	if (tuiMode !== undefined && onTuiModeChange) {
		definitions.push(
			choice(
				"tui-mode",
				"TUI mode",
				`inline: the transcript goes to the terminal's scrollback. fullscreen: the alternate screen, with its own scrolling (${keyHint(state, "scrollUp")}/${keyHint(state, "scrollDown")}, mouse wheel), search (${keyHint(state, "searchTranscript")}) and a click to expand a block`,
				tuiMode,
				TUI_MODES,
				onTuiModeChange,
			),
		);
	}
	definitions.push(
		toggle(
			"clear-on-shrink",
			"Clear on shrink",
			"Clear leftover rows when the interface gets shorter",
			config.clearOnShrink,
			on.onClearOnShrinkChange,
		),
	);
	return definitions;
}

/**
 * The settings list under a "Settings" title: each change goes to its callback, then `onChange`. It shows as many
 * rows as the terminal leaves room for (`terminalRows`), else ten.
 */
export class SettingsPanel extends FramedPanel {
	readonly list: SettingsList;

	constructor(
		state: DisplayState,
		config: SettingsConfig,
		callbacks: SettingsCallbacks,
		options: { terminalRows?: number; onChange?: () => void } = {},
	) {
		const definitions = settingDefinitions(state, config, callbacks);
		const byId = new Map(definitions.map((definition) => [definition.item.id, definition]));
		const list = new SettingsList(
			definitions.map((definition) => definition.item),
			options.terminalRows === undefined
				? Math.min(definitions.length, 10)
				: Math.max(5, Math.min(definitions.length, options.terminalRows - 12)),
			state.theme.getSettingsListTheme(),
			(id, value) => {
				byId.get(id)?.apply(value);
				options.onChange?.();
			},
			() => callbacks.onCancel(),
			{ enableSearch: true },
		);
		super(state, "Settings", list);
		this.list = list;
	}
}
