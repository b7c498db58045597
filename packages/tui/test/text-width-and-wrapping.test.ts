import { sliceByColumn, Text, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@agent/tui";
import { describe, expect, it } from "vitest";
import { createTestUI } from "./helpers/test-ui.js";

describe("visibleWidth", () => {
	it.each([
		["hello", 5],
		["", 0],
		["漢字", 4],
		["ｱｲｳ", 3],
		["한국어", 6],
		["😀", 2],
		["👨‍👩‍👧", 2],
		["👍🏽", 2],
		["❤️", 2],
		["❤", 1],
		["✔", 1],
		["🇯🇵", 2],
		["1️⃣", 2],
		["é", 1],
		["e\u0301", 1],
		["a\u200bb", 2],
		["\x1b[31mred\x1b[0m", 3],
		["\x1b]8;;https://x.y\x07link\x1b]8;;\x07", 4],
		["\x1b_pi:c\x07x", 1],
		["a\tb", 5],
	])("%j is %i columns", (text, width) => {
		expect(visibleWidth(text)).toBe(width);
	});
});

describe("truncateToWidth", () => {
	it("keeps text that fits", () => {
		expect(truncateToWidth("hello", 5)).toBe("hello");
	});

	it("cuts with an ellipsis and closes open styles", () => {
		expect(truncateToWidth("\x1b[1mhello world", 8)).toBe("\x1b[1mhello\x1b[0m...");
		expect(visibleWidth(truncateToWidth("hello world", 8))).toBe(8);
	});

	it("never splits a wide character", () => {
		const cut = truncateToWidth("漢字漢字", 5, "");
		expect(cut).toBe("漢字");
		expect(truncateToWidth("a👨‍👩‍👧b", 2, "")).toBe("a");
	});

	it("pads to the width when asked", () => {
		expect(truncateToWidth("ab", 5, "...", true)).toBe("ab   ");
		expect(visibleWidth(truncateToWidth("漢字漢字", 5, "…", true))).toBe(5);
	});
});

describe("sliceByColumn", () => {
	it("returns the covered columns with the styles active there", () => {
		expect(sliceByColumn("\x1b[31mabcdef\x1b[0m", 2, 3)).toBe("\x1b[31mcde\x1b[0m");
	});

	it("replaces a wide character cut by an edge with spaces", () => {
		expect(sliceByColumn("漢字", 1, 2)).toBe("  ");
		expect(visibleWidth(sliceByColumn("a漢字b", 2, 3))).toBe(3);
	});
});

describe("wrapTextWithAnsi", () => {
	it("wraps at word boundaries and breaks words longer than the width", () => {
		expect(wrapTextWithAnsi("the quick brown fox", 10)).toEqual(["the quick", "brown fox"]);
		expect(wrapTextWithAnsi("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
		expect(wrapTextWithAnsi("a\n\nb", 10)).toEqual(["a", "", "b"]);
	});

	it("carries styles over to the following lines", () => {
		const lines = wrapTextWithAnsi("\x1b[1mbold words go on\x1b[22m and done", 10);
		expect(lines).toEqual(["\x1b[1mbold words\x1b[0m", "\x1b[1mgo on\x1b[22m and", "done"]);
	});

	it("carries a hyperlink over to the next line", () => {
		const lines = wrapTextWithAnsi("\x1b]8;;https://x.y\x07a long link\x1b]8;;\x07", 6);
		expect(lines[0]).toBe("\x1b]8;;https://x.y\x07a long\x1b]8;;\x07");
		expect(lines[1].startsWith("\x1b]8;;https://x.y\x07")).toBe(true);
	});

	it("never produces a line wider than the width, with wide characters and emoji", () => {
		const text = "日本語のテキストと😀絵文字👨‍👩‍👧と、combining é and 한국어 mixed in";
		for (let width = 2; width <= 20; width++) {
			for (const line of wrapTextWithAnsi(text, width)) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
		}
	});
});

describe("wide characters on a real screen", () => {
	it("wrapped CJK and emoji lines occupy exactly the cells the layout expects", async () => {
		const ui = await createTestUI(10, 6);
		ui.tui.addChild(new Text("漢字漢字漢字 😀😀 ab 👨‍👩‍👧x", 0, 0));
		await ui.update();
		const viewport = ui.terminal.getViewport();
		expect(viewport.slice(0, 3)).toEqual(["漢字漢字漢", "字 😀😀 ab", "👨‍👩‍👧x"]);
		// The emulator agrees on widths: the cursor sits right after the last character drawn.
		const lastRow = ui.terminal.emulator.buffer.active.getLine(2);
		expect(lastRow?.getCell(2)?.getChars()).toBe("x");
	});

	it("places the hardware cursor after wide characters", async () => {
		const ui = await createTestUI(20, 4, { showHardwareCursor: true });
		ui.tui.addChild(new Text("漢字😀\x1b_pi:c\x07x", 0, 0));
		await ui.update();
		expect(ui.terminal.getCursorPosition()).toEqual({ x: 6, y: 0 });
	});
});
