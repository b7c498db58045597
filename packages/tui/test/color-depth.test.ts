import { describe, expect, it } from "vitest";
import { ansi16Code, detectColorMode, isColorEnabled, paletteToRgb, rgbTo16, rgbTo256 } from "../src/index.js";

describe("detectColorMode", () => {
	it("turns colour off with NO_COLOR, FORCE_COLOR=0 and TERM=dumb", () => {
		expect(detectColorMode({ NO_COLOR: "1", COLORTERM: "truecolor" })).toBe("none");
		expect(detectColorMode({ FORCE_COLOR: "0", COLORTERM: "truecolor" })).toBe("none");
		expect(detectColorMode({ TERM: "dumb" })).toBe("none");
		expect(isColorEnabled({ TERM: "dumb" })).toBe(false);
	});

	it("sets the depth from FORCE_COLOR levels, even on a dumb terminal", () => {
		expect(detectColorMode({ FORCE_COLOR: "1", TERM: "dumb" })).toBe("16");
		expect(detectColorMode({ FORCE_COLOR: "2" })).toBe("256");
		expect(detectColorMode({ FORCE_COLOR: "3" })).toBe("truecolor");
		expect(detectColorMode({ FORCE_COLOR: "" })).toBe("16");
	});

	it("finds true colour from COLORTERM, the terminal's name or program", () => {
		expect(detectColorMode({ NO_COLOR: "", COLORTERM: "truecolor", TERM: "xterm" })).toBe("truecolor");
		expect(detectColorMode({ COLORTERM: "24bit" })).toBe("truecolor");
		expect(detectColorMode({ TERM: "xterm-kitty" })).toBe("truecolor");
		expect(detectColorMode({ TERM: "xterm-direct" })).toBe("truecolor");
		expect(detectColorMode({ TERM: "xterm-256color", TERM_PROGRAM: "iTerm.app" })).toBe("truecolor");
	});

	it("gives *-256color terminals the palette and other terminals the 16 ANSI colours", () => {
		expect(detectColorMode({ TERM: "xterm-256color" })).toBe("256");
		expect(detectColorMode({ TERM: "tmux-256color" })).toBe("256");
		expect(detectColorMode({ TERM: "xterm", TERM_PROGRAM: "Apple_Terminal" })).toBe("256");
		expect(detectColorMode({ TERM: "xterm" })).toBe("16");
		expect(detectColorMode({ TERM: "linux" })).toBe("16");
		expect(detectColorMode({})).toBe("16");
	});

	it("gives Windows terminals 256 colours, and true colour in Windows Terminal", () => {
		expect(detectColorMode({}, "win32")).toBe("256");
		expect(detectColorMode({ WT_SESSION: "1" }, "win32")).toBe("truecolor");
	});
});

describe("colour conversion", () => {
	it("maps RGB to the nearest entry of the 256-colour palette", () => {
		expect(rgbTo256(255, 0, 0)).toBe(196);
		expect(rgbTo256(128, 128, 128)).toBe(244);
	});

	it("maps RGB to the ANSI colour of the same hue, bright for strong colours", () => {
		expect(rgbTo16(220, 20, 20)).toBe(1);
		expect(rgbTo16(204, 102, 102)).toBe(1);
		expect(rgbTo16(250, 80, 80)).toBe(9);
		expect(rgbTo16(100, 100, 250)).toBe(12);
		expect(rgbTo16(181, 189, 104)).toBe(3);
		expect(rgbTo16(95, 135, 175)).toBe(6);
	});

	it("maps greys to the nearest ANSI grey, so dim text stays visible", () => {
		expect(rgbTo16(0, 0, 0)).toBe(0);
		expect(rgbTo16(102, 102, 102)).toBe(8);
		expect(rgbTo16(128, 128, 128)).toBe(8);
		expect(rgbTo16(235, 235, 235)).toBe(7);
		expect(rgbTo16(250, 250, 250)).toBe(15);
		for (let index = 0; index < 16; index++) {
			const [r, g, b] = paletteToRgb(index);
			expect(rgbTo16(r, g, b)).toBe(index);
		}
	});

	it("knows the RGB of every palette entry: ANSI colours, the colour cube and the grey ramp", () => {
		expect(paletteToRgb(9)).toEqual([255, 0, 0]);
		expect(paletteToRgb(196)).toEqual([255, 0, 0]);
		expect(paletteToRgb(16)).toEqual([0, 0, 0]);
		expect(paletteToRgb(67)).toEqual([95, 135, 175]);
		expect(paletteToRgb(244)).toEqual([128, 128, 128]);
		for (let index = 16; index < 256; index++) expect(rgbTo256(...paletteToRgb(index))).toBe(index);
	});

	it("writes the SGR codes of normal and bright colours for foreground and background", () => {
		expect(ansi16Code(1, false)).toBe(31);
		expect(ansi16Code(9, false)).toBe(91);
		expect(ansi16Code(4, true)).toBe(44);
		expect(ansi16Code(12, true)).toBe(104);
	});
});
