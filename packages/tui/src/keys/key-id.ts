/**
 * Key identifiers: lowercase strings naming a base key, optionally prefixed by modifiers joined with
 * `+` in any order ("ctrl+c", "shift+tab", "ctrl+shift+p", "alt+backspace").
 */

type Letter =
	| "a"
	| "b"
	| "c"
	| "d"
	| "e"
	| "f"
	| "g"
	| "h"
	| "i"
	| "j"
	| "k"
	| "l"
	| "m"
	| "n"
	| "o"
	| "p"
	| "q"
	| "r"
	| "s"
	| "t"
	| "u"
	| "v"
	| "w"
	| "x"
	| "y"
	| "z";
type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
type SymbolKey =
	| "`"
	| "-"
	| "="
	| "["
	| "]"
	| "\\"
	| ";"
	| "'"
	| ","
	| "."
	| "/"
	| "!"
	| "@"
	| "#"
	| "$"
	| "%"
	| "^"
	| "&"
	| "*"
	| "("
	| ")"
	| "_"
	| "+"
	| "|"
	| "~"
	| "{"
	| "}"
	| ":"
	| "<"
	| ">"
	| "?";
type NamedKey =
	| "escape"
	| "esc"
	| "enter"
	| "return"
	| "tab"
	| "space"
	| "backspace"
	| "delete"
	| "insert"
	| "clear"
	| "home"
	| "end"
	| "pageUp"
	| "pageDown"
	| "up"
	| "down"
	| "left"
	| "right"
	| "f1"
	| "f2"
	| "f3"
	| "f4"
	| "f5"
	| "f6"
	| "f7"
	| "f8"
	| "f9"
	| "f10"
	| "f11"
	| "f12";
export type BaseKey = Letter | Digit | SymbolKey | NamedKey;
type Modifier = "ctrl" | "shift" | "alt";
type ModifierPrefix = "" | `${Modifier}+` | `${Modifier}+${Modifier}+` | `${Modifier}+${Modifier}+${Modifier}+`;
export type KeyId = `${ModifierPrefix}${BaseKey}`;

/** A key with its modifiers, as decoded from input or parsed from a key id. */
export interface KeyPress {
	/** Canonical base key name ("a", "enter", "pageUp", "f5", "]", ...). */
	key: string;
	ctrl: boolean;
	alt: boolean;
	shift: boolean;
	super: boolean;
}

const KEY_ALIASES: Record<string, string> = {
	esc: "escape",
	return: "enter",
	pageup: "pageUp",
	pagedown: "pageDown",
	pgup: "pageUp",
	pgdn: "pageDown",
	del: "delete",
	ins: "insert",
	" ": "space",
};

const NAMED_KEYS = new Set([
	"escape",
	"enter",
	"tab",
	"space",
	"backspace",
	"delete",
	"insert",
	"clear",
	"home",
	"end",
	"pageUp",
	"pageDown",
	"up",
	"down",
	"left",
	"right",
	"f1",
	"f2",
	"f3",
	"f4",
	"f5",
	"f6",
	"f7",
	"f8",
	"f9",
	"f10",
	"f11",
	"f12",
]);

/** Canonical name of a base key written in a key id, or undefined when it names no key. */
export function canonicalKeyName(name: string): string | undefined {
	if (name === " ") return "space";
	if ([...name].length === 1) {
		const code = name.codePointAt(0) ?? 0;
		// Any printable character can be a key (non-Latin layouts type them directly).
		return code > 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0) ? name.toLowerCase() : undefined;
	}
	const lower = name.toLowerCase();
	const alias = KEY_ALIASES[lower];
	if (alias) return alias;
	if (lower === "pageup") return "pageUp";
	if (lower === "pagedown") return "pageDown";
	return NAMED_KEYS.has(lower) ? lower : undefined;
}

/** Parses a key id ("ctrl+shift+p", "alt++"); undefined when it is not a valid id. */
export function parseKeyId(id: string): KeyPress | undefined {
	const parts = id.split("+");
	// "ctrl++" and "+" name the plus key itself.
	let base = parts.pop() ?? "";
	if (base === "" && parts.length > 0 && parts[parts.length - 1] === "") {
		parts.pop();
		base = "+";
	}
	const key = canonicalKeyName(base);
	if (!key) return undefined;
	const press: KeyPress = { key, ctrl: false, alt: false, shift: false, super: false };
	for (const part of parts) {
		const modifier = part.toLowerCase();
		if (modifier === "ctrl" || modifier === "control") press.ctrl = true;
		else if (modifier === "alt" || modifier === "meta" || modifier === "option") press.alt = true;
		else if (modifier === "shift") press.shift = true;
		else if (modifier === "super" || modifier === "cmd") press.super = true;
		else return undefined;
	}
	return press;
}

export function isKeyId(value: string): value is KeyId {
	return parseKeyId(value) !== undefined;
}

/** Formats a key press as a canonical key id (modifiers in the order ctrl, alt, shift, super). */
export function formatKeyId(press: KeyPress): KeyId {
	let prefix = "";
	if (press.ctrl) prefix += "ctrl+";
	if (press.alt) prefix += "alt+";
	if (press.shift) prefix += "shift+";
	if (press.super) prefix += "super+";
	return `${prefix}${press.key}` as KeyId;
}

/** Builders for key ids: `Key.enter`, `Key.ctrl("c")`, `Key.ctrlShift("p")`, ... */
export const Key = {
	escape: "escape",
	esc: "escape",
	enter: "enter",
	return: "enter",
	tab: "tab",
	space: "space",
	backspace: "backspace",
	delete: "delete",
	insert: "insert",
	clear: "clear",
	home: "home",
	end: "end",
	pageUp: "pageUp",
	pageDown: "pageDown",
	up: "up",
	down: "down",
	left: "left",
	right: "right",
	f1: "f1",
	f2: "f2",
	f3: "f3",
	f4: "f4",
	f5: "f5",
	f6: "f6",
	f7: "f7",
	f8: "f8",
	f9: "f9",
	f10: "f10",
	f11: "f11",
	f12: "f12",
	ctrl: <K extends BaseKey>(key: K) => `ctrl+${key}` as const,
	alt: <K extends BaseKey>(key: K) => `alt+${key}` as const,
	shift: <K extends BaseKey>(key: K) => `shift+${key}` as const,
	ctrlShift: <K extends BaseKey>(key: K) => `ctrl+shift+${key}` as const,
	ctrlAlt: <K extends BaseKey>(key: K) => `ctrl+alt+${key}` as const,
	altShift: <K extends BaseKey>(key: K) => `alt+shift+${key}` as const,
} as const;
