import { Container, Text } from "@agent/tui";
import { describe, expect, it } from "vitest";
import { createTestUI } from "./helpers/test-ui.js";

const CLEAR_SCROLLBACK = "\x1b[3J";

async function wrappedTranscript(columns: number, rows: number) {
	const ui = await createTestUI(columns, rows);
	const chat = new Container();
	for (let i = 0; i < 30; i++) chat.addChild(new Text(`message ${i} with some words that wrap when narrow`, 0, 0));
	ui.tui.addChild(chat);
	ui.tui.addChild(new Text("> prompt", 0, 0));
	await ui.update();
	return ui;
}

/** Every row the terminal holds (scrollback and screen), trailing empty rows dropped. */
function allRows(ui: { terminal: { getScrollBuffer(): string[] } }): string[] {
	const rows = ui.terminal.getScrollBuffer();
	while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
	return rows;
}

describe("width change", () => {
	it("re-wraps the content and repaints the screen without leftovers", async () => {
		const ui = await wrappedTranscript(60, 10);
		ui.terminal.resize(30, 10);
		await ui.update();
		const viewport = ui.terminal.getViewport();
		expect(viewport.at(-1)).toBe("> prompt");
		expect(viewport.at(-3)).toBe("message 29 with some words");
		expect(viewport.at(-2)).toBe("that wrap when narrow");
		// Every visible row is a line of the new layout: nothing of the old wide layout remains.
		for (const row of viewport) expect(row.length).toBeLessThanOrEqual(30);
		expect(ui.tui.fullRedraws).toBe(2);
	});

	it("prints the whole history again at the new width: the scrollback is the new layout, once", async () => {
		const ui = await wrappedTranscript(60, 10);
		ui.terminal.resize(30, 10);
		const written = await ui.update();
		expect(written).toContain(CLEAR_SCROLLBACK);
		const rows = allRows(ui);
		expect(rows).toEqual(ui.tui.render(30));
		expect(rows.slice(0, 2)).toEqual(["message 0 with some words that", "wrap when narrow"]);
		expect(rows.filter((row) => row.startsWith("message 7 "))).toHaveLength(1);
	});

	it("widening joins lines again, in the scrollback too", async () => {
		const ui = await wrappedTranscript(30, 10);
		ui.terminal.resize(70, 10);
		await ui.update();
		const viewport = ui.terminal.getViewport();
		expect(viewport.at(-2)).toBe("message 29 with some words that wrap when narrow");
		expect(viewport.at(-3)).toBe("message 28 with some words that wrap when narrow");
		expect(allRows(ui)).toEqual([
			...Array.from({ length: 30 }, (_, i) => `message ${i} with some words that wrap when narrow`),
			"> prompt",
		]);
	});

	it("later updates after a width change still write only the changed line", async () => {
		const ui = await wrappedTranscript(60, 10);
		ui.terminal.resize(70, 10);
		await ui.update();
		const prompt = ui.tui.children[1] as Text;
		prompt.setText("> prompt edited");
		const written = await ui.update();
		expect(written).not.toContain(CLEAR_SCROLLBACK);
		expect(written.split("\x1b[2K").length - 1).toBe(1);
		expect(allRows(ui).at(-1)).toBe("> prompt edited");
		expect(allRows(ui)).toHaveLength(31);
	});
});

describe("height change", () => {
	it("shows the last lines of the content on the resized screen", async () => {
		const ui = await wrappedTranscript(60, 10);
		ui.terminal.resize(60, 6);
		await ui.update();
		expect(ui.terminal.getViewport()).toEqual([
			"message 25 with some words that wrap when narrow",
			"message 26 with some words that wrap when narrow",
			"message 27 with some words that wrap when narrow",
			"message 28 with some words that wrap when narrow",
			"message 29 with some words that wrap when narrow",
			"> prompt",
		]);
		ui.terminal.resize(60, 12);
		await ui.update();
		expect(ui.terminal.getViewport().at(-1)).toBe("> prompt");
		expect(ui.terminal.getViewport()[0]).toBe("message 19 with some words that wrap when narrow");
	});

	it("keeps the scrollback as it is (the width did not change)", async () => {
		const ui = await wrappedTranscript(60, 10);
		ui.terminal.resize(60, 6);
		const written = await ui.update();
		expect(written).not.toContain(CLEAR_SCROLLBACK);
		expect(allRows(ui)).toEqual([
			...Array.from({ length: 30 }, (_, i) => `message ${i} with some words that wrap when narrow`),
			"> prompt",
		]);
	});

	it("later updates after a resize still write only the changed line", async () => {
		const ui = await wrappedTranscript(60, 10);
		ui.terminal.resize(40, 8);
		await ui.update();
		const prompt = ui.tui.children[1] as Text;
		prompt.setText("> prompt edited");
		const written = await ui.update();
		expect(written.split("\x1b[2K").length - 1).toBe(1);
		expect(ui.terminal.getViewport().at(-1)).toBe("> prompt edited");
	});
});
