import { decodeKittyPrintable, isKeyRelease, isKeyRepeat, Key, matchesKey, parseKey } from "@agent/tui";
import { describe, expect, it } from "vitest";

describe("legacy sequences", () => {
	it.each([
		["\r", "enter"],
		["\t", "tab"],
		["\x7f", "backspace"],
		["\x1b", "escape"],
		["\x03", "ctrl+c"],
		["\x01", "ctrl+a"],
		["\x1a", "ctrl+z"],
		["\x00", "ctrl+space"],
		["\x1d", "ctrl+]"],
		["\x1f", "ctrl+_"],
		["a", "a"],
		["A", "shift+a"],
		["?", "?"],
		[" ", "space"],
		["\x1b[A", "up"],
		["\x1b[B", "down"],
		["\x1b[C", "right"],
		["\x1b[D", "left"],
		["\x1bOA", "up"],
		["\x1b[H", "home"],
		["\x1b[F", "end"],
		["\x1bOH", "home"],
		["\x1b[1~", "home"],
		["\x1b[4~", "end"],
		["\x1b[7~", "home"],
		["\x1b[8~", "end"],
		["\x1b[2~", "insert"],
		["\x1b[3~", "delete"],
		["\x1b[5~", "pageUp"],
		["\x1b[6~", "pageDown"],
		["\x1bOP", "f1"],
		["\x1b[15~", "f5"],
		["\x1b[24~", "f12"],
		["\x1b[[A", "f1"],
		["\x1b[Z", "shift+tab"],
		["\x1b[1;5A", "ctrl+up"],
		["\x1b[1;3D", "alt+left"],
		["\x1b[1;2C", "shift+right"],
		["\x1b[3;5~", "ctrl+delete"],
		["\x1b[a", "shift+up"],
		["\x1bOd", "ctrl+left"],
		["\x1b[3^", "ctrl+delete"],
		["\x1b[3$", "shift+delete"],
		["\x1bb", "alt+b"],
		["\x1bB", "alt+shift+b"],
		["\x1b\x7f", "alt+backspace"],
		["\x1b\r", "alt+enter"],
		["\x1b\x1d", "ctrl+alt+]"],
		["\x1b\x1b[A", "alt+up"],
		["é", "é"],
		["😀", "😀"],
	])("%j is %s", (data, expected) => {
		expect(parseKey(data)).toBe(expected);
		expect(matchesKey(data, expected)).toBe(true);
	});

	it("reads bytes that several keys send as each of those keys", () => {
		expect(matchesKey("\x08", "ctrl+backspace")).toBe(true);
		expect(matchesKey("\x08", "ctrl+h")).toBe(true);
		expect(matchesKey("\x1f", "ctrl+-")).toBe(true);
		expect(matchesKey("\t", "ctrl+i")).toBe(true);
		expect(matchesKey("\r", "ctrl+m")).toBe(true);
	});

	it("does not confuse modifiers", () => {
		expect(matchesKey("\x03", "c")).toBe(false);
		expect(matchesKey("c", "ctrl+c")).toBe(false);
		expect(matchesKey("\x1b[A", "shift+up")).toBe(false);
		expect(matchesKey("\x1b[1;5A", "up")).toBe(false);
		expect(matchesKey("A", "a")).toBe(false);
	});
});

describe("Kitty keyboard protocol (CSI u)", () => {
	it.each([
		["\x1b[99;5u", "ctrl+c"],
		["\x1b[97;3u", "alt+a"],
		["\x1b[13;2u", "shift+enter"],
		["\x1b[13;3u", "alt+enter"],
		["\x1b[13;5u", "ctrl+enter"],
		["\x1b[27u", "escape"],
		["\x1b[9;2u", "shift+tab"],
		["\x1b[127;5u", "ctrl+backspace"],
		["\x1b[112;6u", "ctrl+shift+p"],
		["\x1b[93;5u", "ctrl+]"],
		["\x1b[93;7u", "ctrl+alt+]"],
		["\x1b[45;5u", "ctrl+-"],
		["\x1b[57414u", "enter"],
		["\x1b[97:65;6u", "ctrl+shift+a"],
	])("%j is %s", (data, expected) => {
		expect(parseKey(data)).toBe(expected);
		expect(matchesKey(data, expected)).toBe(true);
	});

	it("uses the base-layout key on non-Latin layouts", () => {
		// Ctrl+С on a Russian layout: code 1089, base-layout key 'c'.
		expect(matchesKey("\x1b[1089::99;5u", "ctrl+c")).toBe(true);
	});

	it("ignores caps lock and num lock in the modifiers", () => {
		expect(matchesKey("\x1b[99;69u", "ctrl+c")).toBe(true);
		expect(matchesKey("\x1b[99;133u", "ctrl+c")).toBe(true);
	});

	it("recognises release and repeat events, which never match a binding", () => {
		expect(isKeyRelease("\x1b[99;5:3u")).toBe(true);
		expect(isKeyRepeat("\x1b[99;5:2u")).toBe(true);
		expect(isKeyRelease("\x1b[1;1:3A")).toBe(true);
		expect(isKeyRelease("\x1b[3;1:3~")).toBe(true);
		expect(matchesKey("\x1b[99;5:3u", "ctrl+c")).toBe(false);
		expect(matchesKey("\x1b[99;5:2u", "ctrl+c")).toBe(true);
		expect(isKeyRelease("\x1b[200~text:3u\x1b[201~")).toBe(false);
	});

	it("decodes the printable text of a key", () => {
		expect(decodeKittyPrintable("\x1b[97u")).toBe("a");
		expect(decodeKittyPrintable("\x1b[97:65;2u")).toBe("A");
		expect(decodeKittyPrintable("\x1b[97;2u")).toBe("A");
		expect(decodeKittyPrintable("\x1b[32u")).toBe(" ");
		expect(decodeKittyPrintable("\x1b[97;5u")).toBeUndefined();
		expect(decodeKittyPrintable("\x1b[13u")).toBeUndefined();
		expect(decodeKittyPrintable("\x1b[97;1;228u")).toBe("ä");
	});
});

describe("xterm modifyOtherKeys", () => {
	it.each([
		["\x1b[27;2;13~", "shift+enter"],
		["\x1b[27;5;99~", "ctrl+c"],
		["\x1b[27;3;13~", "alt+enter"],
	])("%j is %s", (data, expected) => {
		expect(matchesKey(data, expected)).toBe(true);
	});
});

describe("Shift+Enter and Alt+Enter inside tmux", () => {
	it("accepts each encoding tmux forwards", () => {
		// extended-keys with csi-u format, with xterm format, and Alt+Enter as ESC CR.
		expect(matchesKey("\x1b[13;2u", "shift+enter")).toBe(true);
		expect(matchesKey("\x1b[27;2;13~", "shift+enter")).toBe(true);
		expect(matchesKey("\x1b\r", "alt+enter")).toBe(true);
		expect(matchesKey("\x1b[13;3u", "alt+enter")).toBe(true);
		expect(matchesKey("\r", "shift+enter")).toBe(false);
	});
});

describe("key ids", () => {
	it("accept modifiers in any order and aliases", () => {
		expect(matchesKey("\x1b[112;6u", "shift+ctrl+p")).toBe(true);
		expect(matchesKey("\x1b", "esc")).toBe(true);
		expect(matchesKey("\r", "return")).toBe(true);
		expect(matchesKey("\x1b[5~", "pageup")).toBe(true);
	});

	it("are built by the Key helpers", () => {
		expect(Key.ctrl("c")).toBe("ctrl+c");
		expect(Key.ctrlShift("p")).toBe("ctrl+shift+p");
		expect(Key.enter).toBe("enter");
		expect(matchesKey("\x03", Key.ctrl("c"))).toBe(true);
	});

	it("reject unknown keys", () => {
		expect(matchesKey("a", "hyper+a")).toBe(false);
		expect(matchesKey("a", "notakey")).toBe(false);
	});
});
