// The theme file format (docs/themes.md): `{ name, vars?, colors, export? }`. Every colour token is required;
// a value is "#rrggbb", a 256-colour index (0–255), the name of an entry of `vars`, or "" for the terminal's
// default colour. Validation reports every problem at once, with the token it concerns. The token lists are the
// ones extensions see (core/extensions/ui-context.ts).
import {
	THEME_BACKGROUND_TOKENS,
	THEME_COLOR_TOKENS,
	type ThemeBackground,
	type ThemeColor,
} from "../../../core/extensions/ui-context.js";

export type { ThemeBackground, ThemeColor };
export type ThemeToken = ThemeColor | ThemeBackground;

/** A colour as written in a theme file. */
export type ColorValue = string | number;

/** A theme file's content. */
export interface ThemeDefinition {
	name: string;
	vars?: Record<string, ColorValue>;
	colors: Record<ThemeToken, ColorValue>;
	/** Colours for HTML export; not used by the terminal UI. */
	export?: Record<string, ColorValue>;
}

/** A colour after `vars` are resolved: true colour, palette index, or the terminal default. */
export type ResolvedColor =
	| { kind: "rgb"; r: number; g: number; b: number }
	| { kind: "index"; index: number }
	| { kind: "default" };

export type ResolvedColors = Record<ThemeToken, ResolvedColor>;

const HEX = /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/;
const ALL_TOKENS: readonly ThemeToken[] = [...THEME_COLOR_TOKENS, ...THEME_BACKGROUND_TOKENS];

function parseHex(hex: string): ResolvedColor {
	const body = hex.slice(1);
	const full = body.length === 3 ? [...body].map((c) => c + c).join("") : body;
	const n = Number.parseInt(full, 16);
	return { kind: "rgb", r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

function describe(value: unknown): string {
	return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** Resolves one value, following `vars` references (cycles and unknown names are errors). */
function resolveValue(
	value: unknown,
	vars: Record<string, unknown>,
	seen: string[] = [],
): { color?: ResolvedColor; error?: string } {
	if (typeof value === "number") {
		if (Number.isInteger(value) && value >= 0 && value <= 255) return { color: { kind: "index", index: value } };
		return { error: `${value} is not a 256-colour index (0-255)` };
	}
	if (typeof value !== "string") return { error: `expected a colour string or number, got ${describe(value)}` };
	if (value === "") return { color: { kind: "default" } };
	if (value.startsWith("#")) {
		return HEX.test(value) ? { color: parseHex(value) } : { error: `${describe(value)} is not a #rrggbb colour` };
	}
	if (!(value in vars)) return { error: `unknown variable ${describe(value)}` };
	if (seen.includes(value)) return { error: `variable cycle ${[...seen, value].join(" -> ")}` };
	return resolveValue(vars[value], vars, [...seen, value]);
}

export interface ThemeValidation {
	colors?: ResolvedColors;
	name?: string;
	errors: string[];
	/** Problems that do not stop the theme from being used (tokens this version does not know). */
	warnings: string[];
}

/** Checks a parsed theme file and resolves its colours; `colors` is set only when there are no errors. */
export function validateThemeDefinition(definition: unknown): ThemeValidation {
	const errors: string[] = [];
	const warnings: string[] = [];
	if (typeof definition !== "object" || definition === null || Array.isArray(definition)) {
		return { errors: ["a theme must be a JSON object"], warnings: [] };
	}
	const record = definition as Record<string, unknown>;
	const name = typeof record.name === "string" && record.name.trim() !== "" ? record.name : undefined;
	if (record.name !== undefined && name === undefined) errors.push('"name" must be a non-empty string');
	const vars = record.vars ?? {};
	if (typeof vars !== "object" || vars === null || Array.isArray(vars)) {
		errors.push('"vars" must be an object');
		return { errors, warnings, ...(name ? { name } : {}) };
	}
	const colors = record.colors;
	if (typeof colors !== "object" || colors === null || Array.isArray(colors)) {
		errors.push('"colors" must be an object mapping colour tokens to colours');
		return { errors, warnings, ...(name ? { name } : {}) };
	}
	const given = colors as Record<string, unknown>;
	const resolved: Partial<ResolvedColors> = {};
	const missing: string[] = [];
	for (const token of ALL_TOKENS) {
		if (!(token in given)) {
			missing.push(token);
			continue;
		}
		const result = resolveValue(given[token], vars as Record<string, unknown>);
		if (result.error) errors.push(`colors.${token}: ${result.error}`);
		else if (result.color) resolved[token] = result.color;
	}
	if (missing.length > 0) errors.push(`missing colour tokens: ${missing.join(", ")}`);
	const known: ReadonlySet<string> = new Set(ALL_TOKENS);
	const unknown = Object.keys(given).filter((token) => !known.has(token));
	if (unknown.length > 0) warnings.push(`unknown colour tokens ignored: ${unknown.join(", ")}`);
	if (errors.length > 0) return { errors, warnings, ...(name ? { name } : {}) };
	return { colors: resolved as ResolvedColors, errors, warnings, ...(name ? { name } : {}) };
}
