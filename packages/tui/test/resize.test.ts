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

describe("width change", () => {
	it("re-wraps the content and repaints the screen without leftovers", async () => {
		const ui = await wrappedTranscript(60, 10);
		ui.terminal.resize(30, 10);
		const written = await ui.update();
		const viewport = ui.terminal.getViewport();
		expect(viewport.at(-1)).toBe("> prompt");
		expect(viewport.at(-3)).toBe("message 29 with some words");
		expect(viewport.at(-2)).toBe("that wrap when narrow");
		// Every visible row is a line of the new layout: nothing of the old wide layout remains.
		for (const row of viewport) expect(row.length).toBeLessThanOrEqual(30);
		expect(written).not.toContain(CLEAR_SCROLLBACK);
		expect(ui.tui.fullRedraws).toBe(2);
	});

	it("widening joins lines again", async () => {
		const ui = await wrappedTranscript(30, 10);
		ui.terminal.resize(70, 10);
		await ui.update();
		const viewport = ui.terminal.getViewport();
		expect(viewport.at(-2)).toBe("message 29 with some words that wrap when narrow");
		expect(viewport.at(-3)).toBe("message 28 with some words that wrap when narrow");
	});

	it("keeps the scrollback", async () => {
		const ui = await wrappedTranscript(60, 10);
		const scrollbackBefore = ui.terminal.getScrollBuffer().length;
		ui.terminal.resize(50, 10);
		await ui.update();
		expect(ui.terminal.getScrollBuffer().length).toBeGreaterThanOrEqual(scrollbackBefore - 10);
		expect(ui.terminal.getScrollBuffer()[0]).toBe("message 0 with some words that wrap when narrow");
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
