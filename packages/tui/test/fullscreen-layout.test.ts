import { type Component, Container, ScrollLayout, type ScrollLayoutTheme, Text } from "@agent/tui";
import { describe, expect, it } from "vitest";
import { createTestUI, type TestUI } from "./helpers/test-ui.js";

const THEME: ScrollLayoutTheme = {
	scrollbarThumb: (s) => s,
	scrollbarTrack: (s) => s,
	match: (s) => `\x1b[4m${s}\x1b[24m`,
	currentMatch: (s) => `\x1b[7m${s}\x1b[27m`,
	searchLabel: (s) => s,
	searchHint: (s) => s,
};

const wheelUp = (row = 1) => `\x1b[<64;1;${row}M`;
const wheelDown = (row = 1) => `\x1b[<65;1;${row}M`;
const click = (column: number, row: number) => `\x1b[<0;${column + 1};${row + 1}M`;

interface Layout extends TestUI {
	chat: Container;
	messages: Text[];
	layout: ScrollLayout;
	clicks: (readonly Component[])[];
}

/** A full-screen TUI: `count` one-line messages above a one-line "> prompt". */
async function fullscreen(count: number, columns = 30, rows = 8): Promise<Layout> {
	const ui = await createTestUI(columns, rows, { screenMode: "fullscreen" });
	const chat = new Container();
	const messages: Text[] = [];
	for (let i = 0; i < count; i++) {
		const message = new Text(`message ${i}`, 0, 0);
		messages.push(message);
		chat.addChild(message);
	}
	const clicks: (readonly Component[])[] = [];
	const layout = new ScrollLayout(ui.tui, chat, new Text("> prompt", 0, 0), THEME, {
		onClick: (path) => {
			clicks.push(path);
			return true;
		},
	});
	ui.tui.addChild(layout);
	await ui.update();
	return { ...ui, chat, messages, layout, clicks };
}

/** The visible rows without the scrollbar column. */
function textRows(ui: TestUI): string[] {
	return ui.terminal.getViewport().map((row) => row.slice(0, ui.terminal.columns - 1).trimEnd());
}

describe("the full-screen mode", () => {
	it("draws on the alternate screen and gives the normal screen back on stop", async () => {
		const ui = await createTestUI(30, 6);
		ui.tui.addChild(new Text("inline line", 0, 0));
		await ui.update();
		ui.tui.setScreenMode("fullscreen");
		const written = await ui.update();
		expect(written).toContain("\x1b[?1049h");
		expect(written).toContain("\x1b[?1000h\x1b[?1006h");
		expect(ui.terminal.emulator.buffer.active.type).toBe("alternate");
		ui.tui.stop();
		await ui.terminal.flush();
		expect(ui.terminal.takeWrites()).toContain("\x1b[?1049l");
		expect(ui.terminal.emulator.buffer.active.type).toBe("normal");
		expect(ui.terminal.getViewport()[0]).toBe("inline line");
	});

	it("fills the screen exactly: the end of the content above the fixed area, with a scrollbar", async () => {
		const ui = await fullscreen(20);
		expect(textRows(ui)).toEqual([
			"message 13",
			"message 14",
			"message 15",
			"message 16",
			"message 17",
			"message 18",
			"message 19",
			"> prompt",
		]);
		const bar = ui.terminal.getViewport().map((row) => row[29]);
		expect(bar.slice(0, 7).join("")).toMatch(/^│+┃+$/);
		expect(ui.terminal.getScrollBuffer()).toHaveLength(8);
	});

	it("scrolls with the wheel and PageUp-like calls, and follows the end again at the bottom", async () => {
		const ui = await fullscreen(20);
		ui.terminal.sendInput(wheelUp());
		await ui.update();
		expect(textRows(ui)[0]).toBe("message 10");
		expect(ui.layout.isAtEnd).toBe(false);
		ui.layout.scrollPage(-1);
		await ui.update();
		expect(textRows(ui)[0]).toBe("message 4");
		ui.layout.scrollToTop();
		await ui.update();
		expect(textRows(ui)[0]).toBe("message 0");
		for (let notch = 0; notch < 4; notch++) ui.terminal.sendInput(wheelDown());
		await ui.update();
		expect(ui.layout.isAtEnd).toBe(false);
		ui.terminal.sendInput(wheelDown());
		await ui.update();
		expect(ui.layout.isAtEnd).toBe(true);
		expect(textRows(ui)[6]).toBe("message 19");
	});

	it("keeps the view on the same lines while content is added below or a block above grows", async () => {
		const ui = await fullscreen(20);
		ui.layout.scrollToTop();
		ui.layout.scrollBy(5);
		await ui.update();
		expect(textRows(ui)[0]).toBe("message 5");
		const message = new Text("message 20", 0, 0);
		ui.chat.addChild(message);
		(ui.messages[1] as Text).setText("message 1\nexpanded\nmore");
		await ui.update();
		expect(textRows(ui)[0]).toBe("message 5");
		// Following the end: a new line scrolls the view.
		ui.layout.scrollToBottom();
		await ui.update();
		ui.chat.addChild(new Text("message 21", 0, 0));
		await ui.update();
		expect(textRows(ui)[6]).toBe("message 21");
	});

	it("keeps the lines in view across a resize", async () => {
		const ui = await fullscreen(20, 30, 8);
		ui.layout.scrollToTop();
		ui.layout.scrollBy(6);
		await ui.update();
		ui.terminal.resize(12, 10);
		await ui.update();
		expect(textRows(ui)[0]).toBe("message 6");
		expect(ui.terminal.getViewport().at(-1)).toBe("> prompt");
	});

	it("reports a click with the components under the pointer", async () => {
		const ui = await fullscreen(20);
		ui.terminal.sendInput(click(3, 2));
		await ui.update();
		expect(ui.clicks).toEqual([[ui.messages[15]]]);
		// Mouse reports never reach the focused component as keys.
		const typed: string[] = [];
		ui.tui.setFocus({ render: () => [], invalidate() {}, handleInput: (data) => typed.push(data) });
		ui.terminal.sendInput(click(3, 2));
		ui.terminal.sendInput("\x1b[<0;4;3m");
		expect(typed).toEqual([]);
	});

	it("finds text: every match highlighted, Enter goes to older ones, Esc gives the keys back", async () => {
		const ui = await fullscreen(40, 70, 8);
		const focusedBefore = ui.tui.focused;
		ui.layout.openSearch();
		for (const char of "message 3") ui.terminal.sendInput(char);
		await ui.update();
		// The newest match at or above the bottom of the view is current: here it is in view, nothing moves.
		expect(textRows(ui).slice(0, 6)).toEqual([
			"message 34",
			"message 35",
			"message 36",
			"message 37",
			"message 38",
			"message 39",
		]);
		expect(ui.terminal.getViewport()[6]).toContain("Find");
		expect(ui.terminal.getViewport()[6]).toContain("11/11");
		// Another query: the newest match above the view is brought into view.
		for (let i = 0; i < 1; i++) ui.terminal.sendInput("\x7f");
		for (const char of "1") ui.terminal.sendInput(char);
		await ui.update();
		expect(ui.terminal.getViewport()[6]).toContain("11/11");
		expect(textRows(ui)).toContain("message 19");
		ui.terminal.sendInput("\r");
		await ui.update();
		expect(ui.terminal.getViewport()[6]).toContain("10/11");
		expect(textRows(ui)).toContain("message 18");
		// The current match is drawn in reverse video.
		const buffer = ui.terminal.emulator.buffer.active;
		const row = textRows(ui).indexOf("message 18");
		expect(
			buffer
				.getLine(buffer.viewportY + row)
				?.getCell(0)
				?.isInverse(),
		).toBeTruthy();
		ui.terminal.sendInput("\x1b");
		await ui.update();
		expect(ui.layout.isSearching).toBe(false);
		expect(ui.tui.focused).toBe(focusedBefore);
		expect(ui.terminal.getViewport().at(-1)).toBe("> prompt");
	});
});
