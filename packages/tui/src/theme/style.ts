import { detectColorMode } from "./color-depth.js";

/** A function that styles text, usually by wrapping it in ANSI escape sequences. */
export type StyleFn = (text: string) => string;

/** Leaves text unstyled; the building block of colourless themes (NO_COLOR). */
export const plain: StyleFn = (text) => text;

function sgr(open: string, close: string): StyleFn {
	return (text) => `\x1b[${open}m${text}\x1b[${close}m`;
}

function hexToRgb(hex: string): [number, number, number] {
	const value = hex.replace(/^#/, "");
	const full = value.length === 3 ? [...value].map((c) => c + c).join("") : value;
	const n = Number.parseInt(full, 16);
	return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** A colour: a basic ANSI name, a 256-colour palette index, or a "#rrggbb" true colour. */
export type Color =
	| "black"
	| "red"
	| "green"
	| "yellow"
	| "blue"
	| "magenta"
	| "cyan"
	| "white"
	| "gray"
	| "brightRed"
	| "brightGreen"
	| "brightYellow"
	| "brightBlue"
	| "brightMagenta"
	| "brightCyan"
	| "brightWhite"
	| number
	| `#${string}`;

const BASIC_COLORS: Record<string, number> = {
	black: 30,
	red: 31,
	green: 32,
	yellow: 33,
	blue: 34,
	magenta: 35,
	cyan: 36,
	white: 37,
	gray: 90,
	brightRed: 91,
	brightGreen: 92,
	brightYellow: 93,
	brightBlue: 94,
	brightMagenta: 95,
	brightCyan: 96,
	brightWhite: 97,
};

function colorCode(color: Color, background: boolean): string {
	if (typeof color === "number") return `${background ? 48 : 38};5;${color}`;
	if (color.startsWith("#")) {
		const [r, g, b] = hexToRgb(color);
		return `${background ? 48 : 38};2;${r};${g};${b}`;
	}
	const code = BASIC_COLORS[color] ?? 39;
	return String(background ? code + 10 : code);
}

/** Text attributes and colours. With `color: false`, colours become no-ops while attributes stay. */
export interface Styles {
	bold: StyleFn;
	dim: StyleFn;
	italic: StyleFn;
	underline: StyleFn;
	strikethrough: StyleFn;
	inverse: StyleFn;
	fg(color: Color): StyleFn;
	bg(color: Color): StyleFn;
}

/**
 * Style helpers for building themes. Pass `{ color: false }` (e.g. when NO_COLOR is set) to get
 * styles that emit no colour while keeping bold, italic, underline and reverse video.
 */
export function createStyles(options: { color?: boolean } = {}): Styles {
	const useColor = options.color ?? true;
	return {
		bold: sgr("1", "22"),
		dim: useColor ? sgr("2", "22") : plain,
		italic: sgr("3", "23"),
		underline: sgr("4", "24"),
		strikethrough: sgr("9", "29"),
		inverse: sgr("7", "27"),
		fg: (color) => (useColor ? sgr(colorCode(color, false), "39") : plain),
		bg: (color) => (useColor ? sgr(colorCode(color, true), "49") : plain),
	};
}

/** Whether colour output is wanted (NO_COLOR, FORCE_COLOR, TERM=dumb: see `detectColorMode`). */
export function isColorEnabled(env: Record<string, string | undefined> = process.env): boolean {
	return detectColorMode(env) !== "none";
}
