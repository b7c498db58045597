import { Input, Text } from "@agent/tui";
import { describe, expect, it } from "vitest";
import { createTestUI } from "./helpers/test-ui.js";

function boxLines(width: number, height: number, label: string) {
	return {
		render: () =>
			Array.from({ length: height }, (_, i) => (i === 0 ? label : "#").padEnd(width, "#").slice(0, width)),
		invalidate() {},
	};
}

async function baseUI() {
	const ui = await createTestUI(20, 8);
	ui.tui.addChild(new Text(Array.from({ length: 8 }, (_, i) => `base line ${i}`).join("\n"), 0, 0));
	await ui.update();
	return ui;
}

describe("placement", () => {
	it("centres an overlay by default and keeps the base visible around it", async () => {
		const ui = await baseUI();
		ui.tui.showOverlay(boxLines(6, 2, "OV"), { width: 6 });
		await ui.update();
		const rows = ui.terminal.getViewport();
		// Columns 7-12 belong to the overlay; the base continues after it (here it is already over).
		expect(rows[3]).toBe("base liOV####");
		expect(rows[4]).toBe("base li######");
		expect(rows[2]).toBe("base line 2");
	});

	it("honours anchors, offsets and percentages", async () => {
		const ui = await baseUI();
		ui.tui.showOverlay(boxLines(4, 1, "TL"), { width: 4, anchor: "top-left", offsetX: 1 });
		ui.tui.showOverlay(boxLines(4, 1, "BR"), { width: 4, anchor: "bottom-right" });
		ui.tui.showOverlay(boxLines(4, 1, "PC"), { width: 4, row: "50%", col: "0%" });
		await ui.update();
		const rows = ui.terminal.getViewport();
		expect(rows[0]).toBe("bTL##line 0");
		expect(rows[7]).toBe("base line 7     BR##");
		expect(rows[4].startsWith("PC##")).toBe(true);
	});

	it("limits the height with maxHeight and restores the base when hidden", async () => {
		const ui = await baseUI();
		const handle = ui.tui.showOverlay(boxLines(4, 5, "MH"), { width: 4, maxHeight: 2, anchor: "top-left" });
		await ui.update();
		expect(ui.terminal.getViewport().slice(0, 3)).toEqual(["MH## line 0", "#### line 1", "base line 2"]);
		handle.hide();
		await ui.update();
		expect(ui.terminal.getViewport().slice(0, 2)).toEqual(["base line 0", "base line 1"]);
	});

	it("is hidden while its visible() callback says no", async () => {
		const ui = await baseUI();
		ui.tui.showOverlay(boxLines(4, 1, "VV"), { width: 4, anchor: "top-left", visible: (w) => w > 30 });
		await ui.update();
		expect(ui.terminal.getViewport()[0]).toBe("base line 0");
		expect(ui.tui.hasOverlay()).toBe(false);
	});
});

describe("focus", () => {
	it("takes focus when shown and gives it back when hidden", async () => {
		const ui = await baseUI();
		const editor = new Input();
		ui.tui.setFocus(editor);
		const dialog = new Input();
		const handle = ui.tui.showOverlay(dialog, { width: 10 });
		expect(ui.tui.focused).toBe(dialog);
		expect(dialog.focused).toBe(true);
		ui.terminal.sendInput("x");
		expect(dialog.getValue()).toBe("x");
		expect(editor.getValue()).toBe("");
		handle.hide();
		expect(ui.tui.focused).toBe(editor);
	});

	it("leaves focus alone for non-capturing overlays", async () => {
		const ui = await baseUI();
		const editor = new Input();
		ui.tui.setFocus(editor);
		ui.tui.showOverlay(new Input(), { nonCapturing: true });
		expect(ui.tui.focused).toBe(editor);
	});

	it("returns focus to the topmost remaining overlay", async () => {
		const ui = await baseUI();
		const editor = new Input();
		ui.tui.setFocus(editor);
		const first = new Input();
		const second = new Input();
		ui.tui.showOverlay(first);
		const secondHandle = ui.tui.showOverlay(second);
		expect(ui.tui.focused).toBe(second);
		secondHandle.hide();
		expect(ui.tui.focused).toBe(first);
		ui.tui.hideOverlay();
		expect(ui.tui.focused).toBe(editor);
	});

	it("focus() raises an overlay above the others", async () => {
		const ui = await baseUI();
		const a = ui.tui.showOverlay(boxLines(4, 1, "AA"), { width: 4, anchor: "top-left" });
		ui.tui.showOverlay(boxLines(4, 1, "BB"), { width: 4, anchor: "top-left" });
		await ui.update();
		expect(ui.terminal.getViewport()[0].startsWith("BB")).toBe(true);
		a.focus();
		await ui.update();
		expect(ui.terminal.getViewport()[0].startsWith("AA")).toBe(true);
		expect(a.isFocused()).toBe(true);
	});
});
