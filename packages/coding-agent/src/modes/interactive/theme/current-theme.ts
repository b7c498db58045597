// The theme the interactive mode is showing, for the building blocks extensions import from the package
// (`getMarkdownTheme()`, `DynamicBorder`, `keyHint`, …: the reference hands them a global theme). The
// interactive mode sets it on start and on every theme change; anywhere else it is the built-in dark theme in
// the colour depth of the terminal, so a component built outside the interactive mode (print mode, a test)
// still renders.
import type { EditorTheme, MarkdownTheme, SelectListTheme, SettingsListTheme } from "@agent/tui";
import { DARK_THEME, LIGHT_THEME } from "./builtin-themes.js";
import { detectColorMode, Theme } from "./theme.js";
import { validateThemeDefinition } from "./theme-schema.js";

let current: Theme | undefined;

function builtinTheme(name: string): Theme | undefined {
	const definition = [DARK_THEME, LIGHT_THEME].find((theme) => theme.name === name);
	const colors = definition ? validateThemeDefinition(definition).colors : undefined;
	return definition && colors ? new Theme(definition.name, colors, detectColorMode()) : undefined;
}

/** The theme on screen (or the built-in dark theme when no interactive mode runs). */
export function getCurrentTheme(): Theme {
	current ??= builtinTheme("dark") as Theme;
	return current;
}

/** Called by the interactive mode whenever the theme on screen changes. */
export function setCurrentTheme(theme: Theme): void {
	current = theme;
}

/**
 * The reference's `initTheme(name?)`: makes a built-in theme current (an unknown name keeps the dark theme).
 * Theme files are the interactive mode's business; it sets the current theme itself. The second parameter (the
 * reference's file watcher) is accepted and ignored.
 */
export function initTheme(themeName?: string, _enableWatcher?: boolean): void {
	current = (themeName ? builtinTheme(themeName) : undefined) ?? builtinTheme("dark");
}

export function getMarkdownTheme(): MarkdownTheme {
	return getCurrentTheme().getMarkdownTheme();
}

export function getSelectListTheme(): SelectListTheme {
	return getCurrentTheme().getSelectListTheme();
}

export function getEditorTheme(): EditorTheme {
	return getCurrentTheme().getEditorTheme();
}

export function getSettingsListTheme(): SettingsListTheme {
	return getCurrentTheme().getSettingsListTheme();
}
