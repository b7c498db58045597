import { type Component, getCellDimensions, setCellDimensions, TUI } from "@agent/tui";
import { afterEach, describe, expect, it } from "vitest";
import { createHeadlessTerminal } from "./helpers/headless-terminal.js";
import { createTestUI } from "./helpers/test-ui.js";

class Recorder implements Component {
	received: string[] = [];
	wantsKeyRelease?: boolean;
	render(): string[] {
		return [`received ${this.received.length}`];
	}
	handleInput(data: string): void {
		this.received.push(data);
	}
	invalidate(): void {}
}

async function focusedRecorder() {
	const ui = await createTestUI(40, 5);
	const recorder = new Recorder();
	ui.tui.addChild(recorder);
	ui.tui.setFocus(recorder);
	await ui.update();
	return { ...ui, recorder };
}

describe("input dispatch", () => {
	it("delivers each key to the focused component and redraws", async () => {
		const { terminal, recorder, update } = await focusedRecorder();
		terminal.sendInput("ab\x1b[A");
		expect(recorder.received).toEqual(["a", "b", "\x1b[A"]);
		await update();
		expect(terminal.getViewport()[0]).toBe("received 3");
	});

	it("lets input listeners consume or rewrite input first", async () => {
		const { tui, terminal, recorder } = await focusedRecorder();
		const removeConsumer = tui.addInputListener((data) => (data === "x" ? { consume: true } : undefined));
		tui.addInputListener((data) => (data === "y" ? { data: "Y" } : data === "z" ? { data: "" } : undefined));
		terminal.sendInput("xyz");
		expect(recorder.received).toEqual(["Y"]);
		removeConsumer();
		terminal.sendInput("x");
		expect(recorder.received).toEqual(["Y", "x"]);
	});

	it("filters Kitty key releases unless the component asks for them", async () => {
		const { terminal, recorder } = await focusedRecorder();
		terminal.sendInput("\x1b[97;1:3u");
		expect(recorder.received).toEqual([]);
		recorder.wantsKeyRelease = true;
		terminal.sendInput("\x1b[97;1:3u");
		expect(recorder.received).toEqual(["\x1b[97;1:3u"]);
	});

	it("calls onDebug for Shift+Ctrl+D instead of delivering it", async () => {
		const { tui, terminal, recorder } = await focusedRecorder();
		let debugCalls = 0;
		tui.onDebug = () => debugCalls++;
		terminal.sendInput("\x1b[100;6u");
		expect(debugCalls).toBe(1);
		expect(recorder.received).toEqual([]);
	});
});

describe("cell size query", () => {
	const original = getCellDimensions();
	afterEach(() => setCellDimensions(original));

	it("is sent when the terminal shows images and its reply is taken out of the input", async () => {
		const terminal = createHeadlessTerminal(40, 5);
		const tui = new TUI(terminal, { env: { KITTY_WINDOW_ID: "1" } });
		const recorder = new Recorder();
		tui.addChild(recorder);
		tui.setFocus(recorder);
		tui.start();
		expect(terminal.takeWrites()).toContain("\x1b[16t");
		terminal.sendInput("a\x1b[6;20;10tb");
		expect(getCellDimensions()).toEqual({ heightPx: 20, widthPx: 10 });
		expect(recorder.received).toEqual(["a", "b"]);
		tui.stop();
	});

	it("is not sent to terminals without image support", async () => {
		const terminal = createHeadlessTerminal(40, 5);
		const tui = new TUI(terminal, { env: {} });
		tui.start();
		expect(terminal.takeWrites()).not.toContain("\x1b[16t");
		tui.stop();
	});
});

describe("start and stop", () => {
	it("hides the cursor while running, then leaves the cursor below the content and shows it", async () => {
		const ui = await createTestUI(40, 6);
		const recorder = new Recorder();
		ui.tui.addChild(recorder);
		await ui.update();
		ui.tui.stop();
		const written = ui.terminal.takeWrites();
		expect(written.endsWith("\r\n\x1b[?25h")).toBe(true);
		await ui.terminal.flush();
		expect(ui.terminal.getCursorPosition()).toEqual({ x: 0, y: 1 });
		expect(ui.terminal.started).toBe(false);
	});

	it("throws in strict mode when a line is wider than the terminal", async () => {
		const ui = await createTestUI(10, 4);
		ui.tui.addChild({ render: () => ["x".repeat(11)], invalidate() {} });
		expect(() => ui.tui.renderNow()).toThrow("Rendered line 0 exceeds terminal width (11 > 10).");
	});

	it("cuts overlong lines and warns when not strict", async () => {
		const warnings: string[] = [];
		const ui = await createTestUI(10, 4, { strictLineWidth: false, onWarning: (m) => warnings.push(m) });
		ui.tui.addChild({ render: () => ["y".repeat(15)], invalidate() {} });
		await ui.update();
		expect(ui.terminal.getViewport()[0]).toBe("y".repeat(10));
		expect(warnings).toEqual(["Rendered line 0 exceeds terminal width (15 > 10)."]);
	});
});

describe("restart", () => {
	it("repaints the screen when started again after stop (e.g. back from suspend)", async () => {
		const ui = await createTestUI(30, 5);
		ui.tui.addChild(new Recorder());
		await ui.update();
		ui.tui.stop();
		ui.terminal.write("$ fg\r\n");
		ui.tui.start();
		const written = await ui.update();
		expect(written).toContain("\x1b[H");
		expect(ui.terminal.getViewport()[0]).toBe("received 0");
		expect(ui.terminal.getViewport()[1]).toBe("");
	});
});
