// `/settings`: the settings panel (docs/settings.md) filled in from the session. Every change applies at once and
// is saved to the user's settings.json; the theme list previews each theme as you move through it.
import type { ThinkingLevel } from "@agent/agent-core";
import type { AppearanceHost, DialogHost, EditorHost, SessionHost, TranscriptHost } from "../mode-host.js";

type SettingsHost = SessionHost & DialogHost & EditorHost & TranscriptHost & AppearanceHost;

import { type SettingsCallbacks, type SettingsConfig, SettingsPanel } from "../selectors/settings-panel.js";

function settingsConfig(host: SettingsHost): SettingsConfig {
	const { session } = host;
	const settings = session.settingsManager;
	const themes = host.themes.list();
	const levels: ThinkingLevel[] = session.supportsThinking() ? session.getAvailableThinkingLevels() : ["off"];
	return {
		autoCompact: session.autoCompactionEnabled,
		showImages: settings.getShowImages(),
		autoResizeImages: settings.getImageAutoResize(),
		blockImages: settings.getBlockImages(),
		enableSkillCommands: settings.getEnableSkillCommands(),
		steeringMode: session.steeringMode,
		followUpMode: session.followUpMode,
		transport: settings.getTransport(),
		thinkingLevel: session.thinkingLevel,
		availableThinkingLevels: levels,
		currentTheme: host.state.theme.name,
		availableThemes: themes.map((theme) => theme.name),
		themePaths: new Map(themes.flatMap((theme) => (theme.path ? [[theme.name, theme.path] as const] : []))),
		hideThinkingBlock: host.state.hideThinking,
		collapseChangelog: settings.getCollapseChangelog(),
		doubleEscapeAction: settings.getDoubleEscapeAction(),
		treeFilterMode: settings.getTreeFilterMode(),
		showHardwareCursor: settings.getShowHardwareCursor(),
		editorPaddingX: settings.getEditorPaddingX(),
		autocompleteMaxVisible: settings.getAutocompleteMaxVisible(),
		quietStartup: settings.getQuietStartup(),
		clearOnShrink: settings.getClearOnShrink(),
		tuiMode: host.tui.screenMode,
	};
}

function settingsCallbacks(host: SettingsHost, close: () => void): SettingsCallbacks {
	const { session } = host;
	const settings = session.settingsManager;
	const withUi =
		<T>(apply: (value: T) => void) =>
		(value: T) => {
			apply(value);
			host.applyUiSettings();
		};
	return {
		onAutoCompactChange: (enabled) => session.setAutoCompactionEnabled(enabled),
		onShowImagesChange: (enabled) => {
			settings.setShowImages(enabled);
			host.state.showImages = enabled;
		},
		onAutoResizeImagesChange: (enabled) => settings.setImageAutoResize(enabled),
		onBlockImagesChange: (blocked) => settings.setBlockImages(blocked),
		onEnableSkillCommandsChange: (enabled) => {
			settings.setEnableSkillCommands(enabled);
			host.refreshAutocomplete();
		},
		onSteeringModeChange: (mode) => session.setSteeringMode(mode),
		onFollowUpModeChange: (mode) => session.setFollowUpMode(mode),
		onTransportChange: (transport) => settings.setTransport(transport),
		onThinkingLevelChange: (level) => {
			session.setThinkingLevel(level);
			host.refreshEditorBorder();
		},
		onThemeChange: (theme) => host.setTheme(theme),
		onThemePreview: (theme) => host.setTheme(theme, { preview: true }),
		onHideThinkingBlockChange: (hidden) => host.setHideThinking(hidden),
		onCollapseChangelogChange: (collapsed) => settings.setCollapseChangelog(collapsed),
		onDoubleEscapeActionChange: (action) => settings.setDoubleEscapeAction(action),
		onTreeFilterModeChange: (mode) => settings.setTreeFilterMode(mode),
		onShowHardwareCursorChange: withUi((enabled: boolean) => settings.setShowHardwareCursor(enabled)),
		onEditorPaddingXChange: withUi((padding: number) => settings.setEditorPaddingX(padding)),
		onAutocompleteMaxVisibleChange: withUi((rows: number) => settings.setAutocompleteMaxVisible(rows)),
		onQuietStartupChange: (enabled) => settings.setQuietStartup(enabled),
		onClearOnShrinkChange: withUi((enabled: boolean) => settings.setClearOnShrink(enabled)),
		onTuiModeChange: (mode) => host.setTuiMode(mode),
		onCancel: close,
	};
}

export function openSettings(host: SettingsHost): void {
	const panel = new SettingsPanel(
		host.state,
		settingsConfig(host),
		settingsCallbacks(host, () => handle.close()),
		{ terminalRows: host.tui.terminal.rows, onChange: () => host.requestRender() },
	);
	const handle = host.showSelector(panel);
}
