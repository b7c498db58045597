import { Container, Loader, Text } from "@agent/tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CountingComponent, countOccurrences, createTestUI } from "./helpers/test-ui.js";

const CLEAR_SCROLLBACK = "\x1b[3J";
const CLEAR_LINE = "\x1b[2K";

async function transcriptUI(messageCount: number, columns = 80, rows = 24) {
	const ui = await createTestUI(columns, rows);
	const chat = new Container();
	const messages: Text[] = [];
	for (let i = 0; i < messageCount; i++) {
		const message = new Text(`message ${i}`, 0, 0);
		messages.push(message);
		chat.addChild(message);
	}
	const status = new Text("status: idle", 0, 0);
	const editorLine = new Text("> prompt", 0, 0);
	ui.tui.addChild(chat);
	ui.tui.addChild(status);
	ui.tui.addChild(editorLine);
	await ui.update();
	return { ...ui, chat, messages, status, editorLine };
}

describe("first frame", () => {
	it("writes every line inside synchronized output, without clearing screen or scrollback", async () => {
		const ui = await createTestUI(40, 10);
		ui.tui.addChild(new Text("hello\nworld", 0, 0));
		const written = await ui.update();
		expect(written.startsWith("\x1b[?2026h")).toBe(true);
		expect(written.endsWith("\x1b[?2026l")).toBe(true);
		expect(written).not.toContain("\x1b[2J");
		expect(written).not.toContain(CLEAR_SCROLLBACK);
		expect(ui.terminal.getViewport().slice(0, 2)).toEqual(["hello", "world"]);
	});
});

describe("updates of a 5,000-message transcript", () => {
	it("changing one visible line writes only that line", async () => {
		const ui = await transcriptUI(5000);
		ui.messages[4999].setText("message 4999 (edited)");
		const written = await ui.update();
		expect(countOccurrences(written, CLEAR_LINE)).toBe(1);
		expect(written).toContain("message 4999 (edited)");
		expect(written).not.toContain("message 4998");
		expect(written.length).toBeLessThan(80);
		expect(ui.terminal.getViewport().slice(-3)).toEqual(["message 4999 (edited)", "status: idle", "> prompt"]);
	});

	it("a status line change writes only the status line", async () => {
		const ui = await transcriptUI(5000);
		ui.status.setText("status: working");
		const written = await ui.update();
		expect(countOccurrences(written, CLEAR_LINE)).toBe(1);
		expect(written).toContain("status: working");
		expect(ui.terminal.getViewport().at(-2)).toBe("status: working");
	});

	it("appending a message writes the new line and the lines it pushed down, nothing above", async () => {
		const ui = await transcriptUI(5000);
		ui.chat.addChild(new Text("message 5000", 0, 0));
		const written = await ui.update();
		// The new message takes the status row; status and prompt move down one row.
		expect(countOccurrences(written, CLEAR_LINE)).toBe(3);
		expect(written).not.toContain("message 4999");
		expect(ui.terminal.getViewport().slice(-4)).toEqual(["message 4999", "message 5000", "status: idle", "> prompt"]);
	});

	it("growing the last line of the last message rewrites just that line", async () => {
		const ui = await transcriptUI(5000);
		const streaming = new Text("The answer", 0, 0);
		ui.chat.addChild(streaming);
		await ui.update();
		streaming.setText("The answer is");
		const written = await ui.update();
		expect(countOccurrences(written, CLEAR_LINE)).toBe(1);
		expect(written).toContain("The answer is");
	});

	it("a frame without changes writes nothing", async () => {
		const ui = await transcriptUI(5000);
		ui.tui.requestRender();
		expect(await ui.update()).toBe("");
	});

	it("does not re-render components that did not change", async () => {
		const ui = await createTestUI(80, 24);
		const chat = new Container();
		const texts = Array.from({ length: 100 }, (_, i) => new Text(`line ${i}`, 0, 0));
		for (const text of texts) chat.addChild(text);
		ui.tui.addChild(chat);
		await ui.update();
		const spies = texts.map((text) =>
			vi.spyOn(text as unknown as { renderLines(w: number): string[] }, "renderLines"),
		);
		texts[99].setText("changed");
		await ui.update();
		expect(spies[99]).toHaveBeenCalledTimes(1);
		expect(spies.slice(0, 99).every((spy) => spy.mock.calls.length === 0)).toBe(true);
	});
});

describe("spinner", () => {
	beforeEach(() => {
		// Only the spinner's interval is faked; the emulator's own timers keep running.
		vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it("a tick writes only the spinner's own line", async () => {
		const ui = await transcriptUI(5000);
		const loader = new Loader(
			ui.tui,
			(s) => s,
			(s) => s,
			"Working...",
		);
		ui.tui.insertChild(1, loader);
		await ui.update();
		expect(ui.terminal.getViewport().slice(-4)).toEqual(["", "⠋ Working...", "status: idle", "> prompt"]);
		vi.advanceTimersByTime(80);
		const written = await ui.update();
		expect(countOccurrences(written, CLEAR_LINE)).toBe(1);
		expect(written).toContain("⠙ Working...");
		expect(written).not.toContain("status");
		expect(ui.terminal.getViewport().at(-3)).toBe("⠙ Working...");
		loader.stop();
	});
});

describe("shrinking", () => {
	it("clears removed lines and keeps the rest", async () => {
		const ui = await createTestUI(40, 10);
		const a = new Text("a", 0, 0);
		const b = new Text("b1\nb2\nb3", 0, 0);
		ui.tui.addChild(a);
		ui.tui.addChild(b);
		await ui.update();
		b.setText("b1");
		const written = await ui.update();
		expect(written).not.toContain("\x1b[2J");
		expect(ui.terminal.getViewport().slice(0, 4)).toEqual(["a", "b1", "", ""]);
	});

	it("with clearOnShrink, repaints the screen without touching the scrollback", async () => {
		const ui = await createTestUI(40, 5, { clearOnShrink: true });
		const text = new Text(Array.from({ length: 12 }, (_, i) => `row ${i}`).join("\n"), 0, 0);
		ui.tui.addChild(text);
		await ui.update();
		text.setText(Array.from({ length: 9 }, (_, i) => `row ${i}`).join("\n"));
		const written = await ui.update();
		expect(written).not.toContain(CLEAR_SCROLLBACK);
		expect(ui.terminal.getViewport()).toEqual(["row 4", "row 5", "row 6", "row 7", "row 8"]);
		expect(ui.tui.fullRedraws).toBe(2);
	});
});

describe("changes above the visible screen", () => {
	it("are not written (the scrollback cannot be edited) and never clear the scrollback", async () => {
		const ui = await transcriptUI(100, 40, 10);
		ui.messages[5].setText("message 5 (edited)");
		const written = await ui.update();
		expect(written).toBe("");
		expect(ui.tui.fullRedraws).toBe(1);
	});

	it("a line-count change above repaints only the screen, which shows the new last lines", async () => {
		const ui = await transcriptUI(100, 40, 10);
		ui.messages[5].setText("message 5\nextra line");
		const written = await ui.update();
		expect(written).not.toContain(CLEAR_SCROLLBACK);
		expect(written).not.toContain("\x1b[2J");
		expect(countOccurrences(written, CLEAR_LINE)).toBe(10);
		expect(ui.terminal.getViewport().slice(-3)).toEqual(["message 99", "status: idle", "> prompt"]);
		expect(ui.tui.fullRedraws).toBe(2);
	});

	it("a forced render clears the scrollback and prints every line again, so changes up there show", async () => {
		const ui = await transcriptUI(100, 40, 10);
		ui.messages[5].setText("message 5 (expanded)\nwith a second line");
		ui.tui.requestRender(true);
		const written = await ui.update();
		expect(written).toContain(`\x1b[2J\x1b[H${CLEAR_SCROLLBACK}`);
		const rows = ui.terminal.getScrollBuffer();
		while (rows.at(-1) === "") rows.pop();
		expect(rows).toEqual(ui.tui.render(40));
		expect(rows.slice(4, 8)).toEqual(["message 4", "message 5 (expanded)", "with a second line", "message 6"]);
		// Once: the history is not appended below the old one.
		expect(rows.filter((row) => row === "message 50")).toHaveLength(1);
		expect(ui.tui.fullRedraws).toBe(2);
	});

	it("collapsing a long block far above keeps the end of the content on screen", async () => {
		const ui = await transcriptUI(20, 40, 10);
		const long = new Text(Array.from({ length: 50 }, (_, i) => `detail ${i}`).join("\n"), 0, 0);
		ui.chat.insertChild(1, long);
		await ui.update();
		long.setText("details collapsed");
		await ui.update();
		expect(ui.terminal.getViewport()).toEqual([
			"message 12",
			"message 13",
			"message 14",
			"message 15",
			"message 16",
			"message 17",
			"message 18",
			"message 19",
			"status: idle",
			"> prompt",
		]);
	});
});

describe("components that do not report changes", () => {
	it("are re-rendered each frame and their changes are drawn", async () => {
		const ui = await createTestUI(40, 10);
		const plain = new CountingComponent(["plain 1"]);
		ui.tui.addChild(plain);
		await ui.update();
		plain.lines = ["plain 2"];
		ui.tui.requestRender();
		const written = await ui.update();
		expect(written).toContain("plain 2");
		expect(plain.renderCount).toBe(2);
	});
});

describe("styles", () => {
	it("do not leak from one line into the next", async () => {
		const ui = await createTestUI(20, 5);
		ui.tui.addChild(new Text("\x1b[1mbold never closed", 0, 0));
		ui.tui.addChild(new Text("plain", 0, 0));
		await ui.update();
		const buffer = ui.terminal.emulator.buffer.active;
		expect(buffer.getLine(0)?.getCell(0)?.isBold()).toBeTruthy();
		expect(buffer.getLine(1)?.getCell(0)?.isBold()).toBeFalsy();
	});
});

describe("hardware cursor", () => {
	it("is placed at the focused component's cursor marker", async () => {
		const ui = await createTestUI(40, 10, { showHardwareCursor: true });
		ui.tui.addChild(new Text("first", 0, 0));
		ui.tui.addChild(new Text("ab\x1b_pi:c\x07cd", 0, 0));
		await ui.update();
		expect(ui.terminal.getCursorPosition()).toEqual({ x: 2, y: 1 });
		expect(ui.terminal.getViewport()[1]).toBe("abcd");
	});
});

describe("control characters in rendered lines", () => {
	it("are dropped, and tabs expanded, so they cannot move the cursor", async () => {
		const ui = await createTestUI(30, 4);
		ui.tui.addChild(new CountingComponent(["50%\r100%\x07 done\x08!", "a\tb"]));
		await ui.update();
		expect(ui.terminal.getViewport().slice(0, 2)).toEqual(["50%100% done!", "a   b"]);
	});
});
