// The themes a user can choose: the built-in dark and light, then the theme files the resource loader found
// (`<agentDir>/themes/`, `.agent/themes/`, settings `themes`, packages, `--theme`). A file that fails validation
// is left out and reported with its path and every problem found.
import { BUILTIN_THEMES } from "./builtin-themes.js";
import { type ColorMode, Theme } from "./theme.js";
import { validateThemeDefinition } from "./theme-schema.js";

/** A theme file as the resource loader hands it over. */
export interface ThemeFile {
	name: string;
	path: string;
	definition: unknown;
}

export interface ThemeIssue {
	severity: "error" | "warning";
	/** `<path>: <problem>` */
	message: string;
}

export const FALLBACK_THEME_NAME = "dark";

export class ThemeRegistry {
	private readonly themes = new Map<string, Theme>();
	readonly issues: ThemeIssue[] = [];

	constructor(
		files: readonly ThemeFile[],
		readonly mode: ColorMode,
	) {
		for (const definition of BUILTIN_THEMES) {
			const { colors } = validateThemeDefinition(definition);
			if (colors) this.themes.set(definition.name, new Theme(definition.name, colors, mode));
		}
		for (const file of files) this.addFile(file);
	}

	/** Names in display order: built-ins first, then custom themes by name. */
	names(): string[] {
		const builtins = BUILTIN_THEMES.map((theme) => theme.name);
		const custom = [...this.themes.keys()].filter((name) => !builtins.includes(name)).sort();
		return [...builtins, ...custom];
	}

	get(name: string): Theme | undefined {
		return this.themes.get(name);
	}

	/** The named theme, or dark with a reason when it does not exist. */
	resolve(name: string): { theme: Theme; warning?: string } {
		const theme = this.themes.get(name);
		if (theme) return { theme };
		return {
			theme: this.themes.get(FALLBACK_THEME_NAME) as Theme,
			warning: `Theme "${name}" not found; using ${FALLBACK_THEME_NAME}.`,
		};
	}

	list(): { name: string; path: string | undefined }[] {
		return this.names().map((name) => ({ name, path: this.themes.get(name)?.sourcePath }));
	}

	/** Registers a theme built at runtime (an extension's `setTheme(theme)`), replacing one of the same name. */
	add(theme: Theme): void {
		this.themes.set(theme.name, theme.withMode(this.mode));
	}

	private addFile(file: ThemeFile): void {
		const result = validateThemeDefinition(file.definition);
		for (const warning of result.warnings)
			this.issues.push({ severity: "warning", message: `${file.path}: ${warning}` });
		if (!result.colors) {
			for (const error of result.errors) this.issues.push({ severity: "error", message: `${file.path}: ${error}` });
			return;
		}
		if (BUILTIN_THEMES.some((builtin) => builtin.name === file.name)) {
			this.issues.push({
				severity: "warning",
				message: `${file.path}: theme "${file.name}" has the name of a built-in theme and is ignored`,
			});
			return;
		}
		if (this.themes.has(file.name)) return;
		this.themes.set(file.name, new Theme(file.name, result.colors, this.mode, file.path));
	}
}
