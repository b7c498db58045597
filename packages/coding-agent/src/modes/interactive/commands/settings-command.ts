// `/settings`: the settings panel (docs/settings.md). Every change applies at once and is saved to the user's
// settings.json; the theme list previews each theme as you move through it.
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
import { keyHint } from "../display-state.js";
import type { AppearanceHost, DialogHost, EditorHost, SessionHost, TranscriptHost } from "../mode-host.js";
import { FramedPanel } from "../selectors/framed-panel.js";
import { SelectPanel } from "../selectors/select-panel.js";
import { TREE_FILTER_MODES } from "../selectors/tree-model.js";

const BOOLEAN_VALUES = ["true", "false"];
// The default first, as the panel has always listed them.
const QUEUE_MODE_CHOICES: readonly QueueMode[] = [
	DEFAULT_QUEUE_MODE,
	...QUEUE_MODES.filter((mode) => mode !== DEFAULT_QUEUE_MODE),
];

type Apply = (value: string) => void;

interface SettingDefinition {
	item: SettingItem;
	apply: Apply;
}

function bool(value: string): boolean {
	return value === "true";
}

function themeSubmenu(host: DialogHost & AppearanceHost): SettingItem["submenu"] {
	return (current, done) => {
		const original = current;
		const panel = new SelectPanel(host.state, {
			title: "Theme",
			items: host.themes.list().map((theme) => ({
				value: theme.name,
				label: theme.name,
				...(theme.path ? { description: theme.path } : {}),
			})),
			selectedValue: current,
			filterable: false,
			onSelectionChange: (item) => host.setTheme(item.value, { preview: true }),
			onSelect: (item) => done(item.value),
			onCancel: () => {
				host.setTheme(original, { preview: true });
				done(undefined);
			},
		});
		return panel as Component;
	};
}

export function settingDefinitions(
	host: SessionHost & DialogHost & EditorHost & TranscriptHost & AppearanceHost,
): SettingDefinition[] {
	const { session } = host;
	const settings = session.settingsManager;
	const levels = session.supportsThinking() ? session.getAvailableThinkingLevels() : ["off"];
	const definitions: SettingDefinition[] = [
		{
			item: {
				id: "autocompact",
				label: "Auto-compact",
				currentValue: String(session.autoCompactionEnabled),
				values: BOOLEAN_VALUES,
				description: "Compact the context automatically when it nears the window",
			},
			apply: (value) => session.setAutoCompactionEnabled(bool(value)),
		},
		{
			item: {
				id: "steering-mode",
				label: "Steering mode",
				currentValue: session.steeringMode,
				values: [...QUEUE_MODE_CHOICES],
				description: "Deliver queued steering messages one at a time or all at once",
			},
			apply: (value) => session.setSteeringMode(value as QueueMode),
		},
		{
			item: {
				id: "follow-up-mode",
				label: "Follow-up mode",
				currentValue: session.followUpMode,
				values: [...QUEUE_MODE_CHOICES],
				description: "Deliver queued follow-up messages one at a time or all at once",
			},
			apply: (value) => session.setFollowUpMode(value as QueueMode),
		},
		{
			item: {
				id: "transport",
				label: "Transport",
				currentValue: settings.getTransport(),
				values: ["sse", "websocket", "auto"],
				description: "Preferred transport for providers that offer several",
			},
			apply: (value) => settings.setTransport(value as Transport),
		},
		{
			item: {
				id: "hide-thinking",
				label: "Hide thinking",
				currentValue: String(host.state.hideThinking),
				values: BOOLEAN_VALUES,
				description: "Collapse thinking blocks to a label",
			},
			apply: (value) => host.setHideThinking(bool(value)),
		},
		{
			item: {
				id: "collapse-changelog",
				label: "Collapse changelog",
				currentValue: String(settings.getCollapseChangelog()),
				values: BOOLEAN_VALUES,
				description: "One line instead of the full changelog after an update",
			},
			apply: (value) => settings.setCollapseChangelog(bool(value)),
		},
		{
			item: {
				id: "quiet-startup",
				label: "Quiet startup",
				currentValue: String(settings.getQuietStartup()),
				values: BOOLEAN_VALUES,
				description: "Hide the startup header",
			},
			apply: (value) => settings.setQuietStartup(bool(value)),
		},
		{
			item: {
				id: "double-escape-action",
				label: "Double-escape action",
				currentValue: settings.getDoubleEscapeAction(),
				values: ["tree", "fork", "none"],
				description: "What Esc Esc on an empty editor opens",
			},
			apply: (value) => settings.setDoubleEscapeAction(value as DoubleEscapeAction),
		},
		{
			item: {
				id: "tree-filter-mode",
				label: "Tree filter mode",
				currentValue: settings.getTreeFilterMode(),
				values: [...TREE_FILTER_MODES],
				description: "Initial filter of /tree",
			},
			apply: (value) => settings.setTreeFilterMode(value as TreeFilterMode),
		},
		{
			item: {
				id: "thinking",
				label: "Thinking level",
				currentValue: session.thinkingLevel,
				values: levels,
				description: "Reasoning effort for models that think",
			},
			apply: (value) => {
				session.setThinkingLevel(value as ThinkingLevel);
				host.refreshEditorBorder();
			},
		},
		{
			item: {
				id: "theme",
				label: "Theme",
				currentValue: host.state.theme.name,
				submenu: themeSubmenu(host),
				description: "Colours of the interface (previewed as you move)",
			},
			apply: (value) => host.setTheme(value),
		},
		{
			item: {
				id: "show-images",
				label: "Show images",
				currentValue: String(settings.getShowImages()),
				values: BOOLEAN_VALUES,
				description: "Render images inline when the terminal supports it",
			},
			apply: (value) => {
				settings.setShowImages(bool(value));
				host.state.showImages = bool(value);
			},
		},
		{
			item: {
				id: "auto-resize-images",
				label: "Auto-resize images",
				currentValue: String(settings.getImageAutoResize()),
				values: BOOLEAN_VALUES,
				description: "Downscale images to 2000x2000 before sending",
			},
			apply: (value) => settings.setImageAutoResize(bool(value)),
		},
		{
			item: {
				id: "block-images",
				label: "Block images",
				currentValue: String(settings.getBlockImages()),
				values: BOOLEAN_VALUES,
				description: "Never send images to the model",
			},
			apply: (value) => settings.setBlockImages(bool(value)),
		},
		{
			item: {
				id: "skill-commands",
				label: "Skill commands",
				currentValue: String(settings.getEnableSkillCommands()),
				values: BOOLEAN_VALUES,
				description: "Offer skills as /skill:<name> in the autocomplete",
			},
			apply: (value) => {
				settings.setEnableSkillCommands(bool(value));
				host.refreshAutocomplete();
			},
		},
		{
			item: {
				id: "hardware-cursor",
				label: "Show hardware cursor",
				currentValue: String(settings.getShowHardwareCursor()),
				values: BOOLEAN_VALUES,
				description: "Show the terminal's cursor in the editor (for input methods)",
			},
			apply: (value) => {
				settings.setShowHardwareCursor(bool(value));
				host.applyUiSettings();
			},
		},
		{
			item: {
				id: "editor-padding",
				label: "Editor padding",
				currentValue: String(settings.getEditorPaddingX()),
				values: ["0", "1", "2", "3"],
				description: "Horizontal padding inside the editor",
			},
			apply: (value) => {
				settings.setEditorPaddingX(Number(value));
				host.applyUiSettings();
			},
		},
		{
			item: {
				id: "autocomplete-max-visible",
				label: "Autocomplete max items",
				currentValue: String(settings.getAutocompleteMaxVisible()),
				values: ["3", "5", "7", "10", "15", "20"],
				description: "Rows of the autocomplete list",
			},
			apply: (value) => {
				settings.setAutocompleteMaxVisible(Number(value));
				host.applyUiSettings();
			},
		},
		{
			item: {
				id: "tui-mode",
				label: "TUI mode",
				currentValue: host.tui.screenMode,
				values: [...TUI_MODES],
				description: `inline: the transcript goes to the terminal's scrollback. fullscreen: the alternate screen, with its own scrolling (${keyHint(host.state, "scrollUp")}/${keyHint(host.state, "scrollDown")}, mouse wheel), search (${keyHint(host.state, "searchTranscript")}) and a click to expand a block`,
			},
			apply: (value) => host.setTuiMode(value as TuiMode),
		},
		{
			item: {
				id: "clear-on-shrink",
				label: "Clear on shrink",
				currentValue: String(settings.getClearOnShrink()),
				values: BOOLEAN_VALUES,
				description: "Clear leftover rows when the interface gets shorter",
			},
			apply: (value) => {
				settings.setClearOnShrink(bool(value));
				host.applyUiSettings();
			},
		},
	];
	return definitions;
}

export function openSettings(host: SessionHost & DialogHost & EditorHost & TranscriptHost & AppearanceHost): void {
	const definitions = settingDefinitions(host);
	const byId = new Map(definitions.map((definition) => [definition.item.id, definition]));
	const list = new SettingsList(
		definitions.map((definition) => definition.item),
		Math.max(5, Math.min(definitions.length, host.tui.terminal.rows - 12)),
		host.state.theme.getSettingsListTheme(),
		(id, value) => {
			byId.get(id)?.apply(value);
			host.requestRender();
		},
		() => handle.close(),
		{ enableSearch: true },
	);
	const handle = host.showSelector(new FramedPanel(host.state, "Settings", list));
}
