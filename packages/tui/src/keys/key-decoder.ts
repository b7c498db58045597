import type { KeyPress } from "./key-id.js";

/** Kitty keyboard protocol event types. */
export type KeyEventType = "press" | "repeat" | "release";

export interface DecodedKey {
	/** The primary reading first, then readings that legacy encodings make indistinguishable. */
	presses: KeyPress[];
	eventType: KeyEventType;
	/** Text the key would type (Kitty sequences for printable keys), when known. */
	text?: string;
}

const MOD_SHIFT = 1;
const MOD_ALT = 2;
const MOD_CTRL = 4;
const MOD_SUPER = 8;

function press(key: string, mods = 0): KeyPress {
	return {
		key,
		shift: (mods & MOD_SHIFT) !== 0,
		alt: (mods & MOD_ALT) !== 0,
		ctrl: (mods & MOD_CTRL) !== 0,
		super: (mods & MOD_SUPER) !== 0,
	};
}

function withAlt(p: KeyPress): KeyPress {
	return { ...p, alt: true };
}

function single(p: KeyPress, eventType: KeyEventType = "press", text?: string): DecodedKey {
	return text === undefined ? { presses: [p], eventType } : { presses: [p], eventType, text };
}

/** Legacy control bytes; several keys send the same byte, hence several readings. */
function decodeControlByte(code: number): KeyPress[] {
	switch (code) {
		case 0x00:
			return [press("space", MOD_CTRL), press("@", MOD_CTRL), press("2", MOD_CTRL)];
		case 0x08:
			// xterm, VTE and Windows Terminal send BS for Ctrl+Backspace; it is also Ctrl+H.
			return [press("backspace", MOD_CTRL), press("h", MOD_CTRL)];
		case 0x09:
			return [press("tab"), press("i", MOD_CTRL)];
		case 0x0a:
			return [press("j", MOD_CTRL), press("enter", MOD_CTRL)];
		case 0x0d:
			return [press("enter"), press("m", MOD_CTRL)];
		case 0x1b:
			return [press("escape"), press("[", MOD_CTRL)];
		case 0x1c:
			return [press("\\", MOD_CTRL), press("4", MOD_CTRL)];
		case 0x1d:
			return [press("]", MOD_CTRL), press("5", MOD_CTRL)];
		case 0x1e:
			return [press("^", MOD_CTRL), press("6", MOD_CTRL)];
		case 0x1f:
			// Ctrl+- and Ctrl+/ both send 0x1F on most terminals.
			return [press("_", MOD_CTRL), press("-", MOD_CTRL), press("/", MOD_CTRL), press("7", MOD_CTRL)];
		case 0x7f:
			return [press("backspace")];
	}
	if (code >= 0x01 && code <= 0x1a) return [press(String.fromCharCode(code + 0x60), MOD_CTRL)];
	return [];
}

/** A single printable character typed without modifiers other than shift. */
function decodePrintable(char: string): KeyPress[] {
	if (char === " ") return [press("space")];
	if (char >= "A" && char <= "Z") return [press(char.toLowerCase(), MOD_SHIFT)];
	return [press(char)];
}

/** Kitty functional key code points (keypad keys) mapped to the keys they stand for. */
const KITTY_FUNCTIONAL_KEYS: Record<number, string> = {
	57399: "0",
	57400: "1",
	57401: "2",
	57402: "3",
	57403: "4",
	57404: "5",
	57405: "6",
	57406: "7",
	57407: "8",
	57408: "9",
	57409: ".",
	57410: "/",
	57411: "*",
	57412: "-",
	57413: "+",
	57414: "enter",
	57415: "=",
	57417: "left",
	57418: "right",
	57419: "up",
	57420: "down",
	57421: "pageUp",
	57422: "pageDown",
	57423: "home",
	57424: "end",
	57425: "insert",
	57426: "delete",
};

function keyNameForCodePoint(code: number): string | undefined {
	switch (code) {
		case 27:
			return "escape";
		case 13:
			return "enter";
		case 9:
			return "tab";
		case 127:
		case 8:
			return "backspace";
		case 32:
			return "space";
	}
	const functional = KITTY_FUNCTIONAL_KEYS[code];
	if (functional) return functional;
	if (code >= 57344 && code <= 63743) return undefined; // other functional keys (modifiers alone, media keys)
	if (code < 0x20) return undefined;
	return String.fromCodePoint(code).toLowerCase();
}

function parseModifiers(field: string | undefined): { mods: number; eventType: KeyEventType } {
	if (!field) return { mods: 0, eventType: "press" };
	const [modText, eventText] = field.split(":");
	// Lock bits (caps lock 64, num lock 128) are state, not modifiers a binding refers to.
	const mods = Math.max(0, (Number(modText) || 1) - 1) & ~(64 | 128);
	const eventType: KeyEventType = eventText === "2" ? "repeat" : eventText === "3" ? "release" : "press";
	return { mods, eventType };
}

/** Kitty CSI-u: ESC [ code[:shifted[:base]] [; mods[:event] [; text]] u */
function decodeCsiU(params: string): DecodedKey | undefined {
	const [codes, modField, textField] = params.split(";");
	const [codeText, shiftedText, baseText] = (codes ?? "").split(":");
	const code = Number(codeText);
	if (!Number.isFinite(code) || codeText === "") return undefined;
	const { mods, eventType } = parseModifiers(modField);
	// The base-layout key makes shortcuts work on non-Latin layouts; Latin layouts (Dvorak, AZERTY)
	// keep the key they type, so bindings follow the labels the user sees.
	const baseCode = baseText ? Number(baseText) : undefined;
	const useBase = baseCode !== undefined && code > 0x7f;
	const name = keyNameForCodePoint(useBase ? (baseCode as number) : code);
	if (!name) return undefined;
	let text: string | undefined;
	if (textField) {
		text = String.fromCodePoint(...textField.split(":").map(Number));
	} else if ((mods & ~MOD_SHIFT) === 0 && code >= 0x20 && !(code >= 57344 && code <= 63743) && code !== 127) {
		const shifted = shiftedText ? Number(shiftedText) : undefined;
		if (mods & MOD_SHIFT) {
			if (shifted !== undefined) text = String.fromCodePoint(shifted);
			else if (code >= 97 && code <= 122) text = String.fromCodePoint(code - 32);
		} else {
			text = String.fromCodePoint(code);
		}
	}
	return single(press(name, mods), eventType, text);
}

const LETTER_FINALS: Record<string, string> = {
	A: "up",
	B: "down",
	C: "right",
	D: "left",
	H: "home",
	F: "end",
	E: "clear",
	P: "f1",
	Q: "f2",
	R: "f3",
	S: "f4",
};

const TILDE_CODES: Record<number, string> = {
	1: "home",
	2: "insert",
	3: "delete",
	4: "end",
	5: "pageUp",
	6: "pageDown",
	7: "home",
	8: "end",
	11: "f1",
	12: "f2",
	13: "f3",
	14: "f4",
	15: "f5",
	17: "f6",
	18: "f7",
	19: "f8",
	20: "f9",
	21: "f10",
	23: "f11",
	24: "f12",
};

const RXVT_SUFFIX_MODS: Record<string, number> = { $: MOD_SHIFT, "^": MOD_CTRL, "@": MOD_CTRL | MOD_SHIFT };

function decodeCsi(body: string): DecodedKey | undefined {
	const final = body[body.length - 1];
	const params = body.slice(0, -1);
	if (final === "u" && /^[\d:;]+$/.test(params)) return decodeCsiU(params);
	if (final === "Z" && params === "") return single(press("tab", MOD_SHIFT));
	if (final === "~" || final === "$" || final === "^" || final === "@") {
		const fields = params.split(";");
		// xterm modifyOtherKeys: ESC [ 27 ; mods ; code ~
		if (final === "~" && fields[0] === "27" && fields.length === 3) {
			const { mods } = parseModifiers(fields[1]);
			const name = keyNameForCodePoint(Number(fields[2]));
			return name ? single(press(name, mods)) : undefined;
		}
		const name = TILDE_CODES[Number(fields[0])];
		if (!name) return undefined;
		if (final !== "~") return single(press(name, RXVT_SUFFIX_MODS[final]));
		const { mods, eventType } = parseModifiers(fields[1]);
		return single(press(name, mods), eventType);
	}
	// rxvt shifted arrows: ESC [ a..d
	const rxvtArrow = { a: "up", b: "down", c: "right", d: "left" }[final as "a"];
	if (rxvtArrow && params === "") return single(press(rxvtArrow, MOD_SHIFT));
	const letterKey = LETTER_FINALS[final];
	if (letterKey && /^(\d*(;\d+(:\d)?)?)?$/.test(params)) {
		const fields = params.split(";");
		const { mods, eventType } = parseModifiers(fields[1]);
		return single(press(letterKey, mods), eventType);
	}
	// Linux console F1-F5: ESC [ [ A..E
	if (params === "[" && final >= "A" && final <= "E") return single(press(`f${final.charCodeAt(0) - 64}`));
	return undefined;
}

function decodeSs3(final: string): DecodedKey | undefined {
	const letterKey = LETTER_FINALS[final];
	if (letterKey) return single(press(letterKey));
	if (final === "M") return single(press("enter"));
	// rxvt Ctrl+arrows: ESC O a..d
	const rxvtArrow = { a: "up", b: "down", c: "right", d: "left" }[final as "a"];
	if (rxvtArrow) return single(press(rxvtArrow, MOD_CTRL));
	return undefined;
}

/**
 * Decodes one key sequence (as split by the stdin buffer) into the key presses it can stand for.
 * Returns undefined for data that is not a single key (text, paste, terminal replies).
 */
export function decodeKey(data: string): DecodedKey | undefined {
	if (data.length === 0) return undefined;
	const first = data.charCodeAt(0);
	if (data.length === 1) {
		if (first < 0x20 || first === 0x7f) {
			const presses = decodeControlByte(first);
			return presses.length > 0 ? { presses, eventType: "press" } : undefined;
		}
		return { presses: decodePrintable(data), eventType: "press", text: data };
	}
	if (first !== 0x1b) {
		// One non-BMP character (a surrogate pair) is still a single key.
		const codePoint = data.codePointAt(0) ?? 0;
		if (String.fromCodePoint(codePoint).length === data.length) {
			return { presses: decodePrintable(data), eventType: "press", text: data };
		}
		return undefined;
	}
	if (data.startsWith("\x1b[") && data.length > 2) {
		if (data.startsWith("\x1b[200~")) return undefined;
		return decodeCsi(data.slice(2));
	}
	if (data.startsWith("\x1bO") && data.length === 3) return decodeSs3(data[2]);
	// ESC followed by a key: Alt (meta sends escape) with that key.
	const rest = data.slice(1);
	const inner = decodeKey(rest);
	if (!inner) return undefined;
	if (rest === "\x1b") return { presses: [press("escape", MOD_ALT)], eventType: "press" };
	return { presses: inner.presses.map(withAlt), eventType: inner.eventType };
}
