import {
	CancellableLoader,
	defaultImageTheme,
	defaultSettingsListTheme,
	Image,
	Input,
	Loader,
	readImageDimensions,
	type SettingItem,
	SettingsList,
	Spacer,
	stripAnsi,
	Text,
	TruncatedText,
	visibleWidth,
} from "@agent/tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pngBase64 } from "./helpers/image-bytes.js";
import { createTestUI } from "./helpers/test-ui.js";

const noRender = { requestRender() {} };

describe("Text", () => {
	it("wraps within its padding and adds vertical padding", () => {
		expect(new Text("one two three", 1, 1).render(10)).toEqual(["", " one two", " three", ""]);
	});

	it("renders nothing for empty text", () => {
		expect(new Text("", 1, 1).render(10)).toEqual([]);
	});

	it("paints a background over the full width", () => {
		const lines = new Text("hi", 0, 0, (s) => `\x1b[42m${s}\x1b[49m`).render(5);
		expect(lines).toEqual(["\x1b[42mhi   \x1b[49m"]);
	});
});

describe("TruncatedText and Spacer", () => {
	it("shows one line cut to the width", () => {
		const lines = new TruncatedText("a very long single line\nsecond").render(10);
		expect(lines).toEqual(["a very ..."]);
		expect(visibleWidth(lines[0])).toBe(10);
	});

	it("renders empty lines", () => {
		expect(new Spacer(3).render(10)).toEqual(["", "", ""]);
	});
});

describe("Loader", () => {
	beforeEach(() => {
		vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it("draws a blank line and the spinner with its message, advancing every 80 ms", () => {
		const requests: number[] = [];
		const loader = new Loader(
			{ requestRender: () => requests.push(1) },
			(s) => s,
			(s) => s,
			"Thinking",
		);
		expect(loader.render(30)).toEqual(["", "⠋ Thinking"]);
		vi.advanceTimersByTime(80);
		expect(loader.render(30)).toEqual(["", "⠙ Thinking"]);
		expect(requests).toHaveLength(1);
		loader.setMessage("Reading");
		expect(loader.render(30)[1]).toBe("⠙ Reading");
		loader.stop();
		vi.advanceTimersByTime(800);
		expect(loader.render(30)[1]).toBe("⠙ Reading");
	});

	it("cancels on Escape when cancellable", () => {
		const loader = new CancellableLoader(
			noRender,
			(s) => s,
			(s) => s,
		);
		let aborted = 0;
		loader.onAbort = () => aborted++;
		loader.handleInput("x");
		expect(loader.aborted).toBe(false);
		loader.handleInput("\x1b");
		loader.handleInput("\x1b");
		expect(loader.signal.aborted).toBe(true);
		expect(aborted).toBe(1);
		loader.stop();
	});
});

describe("Input", () => {
	it("edits a single line and submits on Enter", async () => {
		const ui = await createTestUI(30, 4, { showHardwareCursor: true });
		const input = new Input();
		ui.tui.addChild(input);
		ui.tui.setFocus(input);
		const submitted: string[] = [];
		input.onSubmit = (value) => submitted.push(value);
		for (const key of ["h", "e", "l", "l", "o", " ", "w", "\x17", "\x1b[D", "\x1b[D", "X"])
			ui.terminal.sendInput(key);
		await ui.update();
		// Ctrl+W removed "w"; two steps left put the cursor between "hell" and "o".
		expect(input.getValue()).toBe("hellXo ");
		expect(ui.terminal.getViewport()[0].trimEnd()).toBe("> hellXo");
		expect(ui.terminal.getCursorPosition()).toEqual({ x: 7, y: 0 });
		ui.terminal.sendInput("\r");
		expect(submitted).toEqual(["hellXo "]);
	});

	it("scrolls horizontally to keep the cursor visible", async () => {
		const ui = await createTestUI(12, 3);
		const input = new Input();
		ui.tui.addChild(input);
		ui.tui.setFocus(input);
		ui.terminal.sendInput("\x1b[200~abcdefghijklmnopqrstuvwxyz\x1b[201~");
		await ui.update();
		const row = ui.terminal.getViewport()[0];
		expect(visibleWidth(row)).toBeLessThanOrEqual(12);
		expect(row.trimEnd().endsWith("z")).toBe(true);
	});
});

describe("SettingsList", () => {
	function settings(options: { enableSearch?: boolean } = {}) {
		const changes: [string, string][] = [];
		let cancelled = false;
		const items: SettingItem[] = [
			{ id: "theme", label: "Theme", currentValue: "dark", values: ["dark", "light"], description: "Colour theme" },
			{
				id: "model",
				label: "Model",
				currentValue: "a",
				submenu: (current, done) => ({
					render: () => [`choosing (was ${current})`],
					invalidate() {},
					handleInput: (data: string) => done(data === "\r" ? "b" : undefined),
				}),
			},
		];
		const list = new SettingsList(
			items,
			5,
			defaultSettingsListTheme({ color: false }),
			(id, value) => changes.push([id, value]),
			() => {
				cancelled = true;
			},
			options,
		);
		return { list, changes, isCancelled: () => cancelled };
	}

	it("with search, typing filters by label; Space still changes; Esc clears the search, then closes", () => {
		const { list, changes, isCancelled } = settings({ enableSearch: true });
		for (const key of "mod") list.handleInput(key);
		expect(list.render(60).map(stripAnsi)).toEqual([
			"  > mod ",
			"→ Model  a",
			"",
			"  Type to search · Enter/Space to change · Esc to close",
		]);
		list.handleInput("x");
		expect(list.render(40).map(stripAnsi).slice(1, 2)).toEqual(["  No matching settings"]);
		list.handleInput("\x7f");
		list.handleInput("\x7f");
		list.handleInput("\x7f");
		list.handleInput("\x7f");
		expect(stripAnsi(list.render(40)[1] as string)).toBe("→ Theme  dark");
		list.handleInput("th");
		list.handleInput(" ");
		expect(changes).toEqual([["theme", "light"]]);
		list.handleInput("\x1b");
		expect(isCancelled()).toBe(false);
		expect(stripAnsi(list.render(40)[0] as string)).toBe("  >  ");
		list.handleInput("\x1b");
		expect(isCancelled()).toBe(true);
	});

	it("shows labels, values, the selected description and a hint", () => {
		const { list } = settings();
		expect(list.render(40).map(stripAnsi)).toEqual([
			"→ Theme  dark",
			"  Model  a",
			"",
			"  Colour theme",
			"",
			"  Enter/Space to change · Esc to close",
		]);
	});

	it("cycles values with Enter or Space", () => {
		const { list, changes } = settings();
		list.handleInput("\r");
		list.handleInput(" ");
		expect(changes).toEqual([
			["theme", "light"],
			["theme", "dark"],
		]);
	});

	it("opens a submenu and applies its choice", () => {
		const { list, changes } = settings();
		list.handleInput("\x1b[B");
		list.handleInput("\r");
		expect(list.render(40)).toEqual(["choosing (was a)"]);
		list.handleInput("\r");
		expect(changes).toEqual([["model", "b"]]);
		expect(stripAnsi(list.render(40)[1])).toBe("→ Model  b");
	});

	it("cancels with Escape", () => {
		const { list, isCancelled } = settings();
		list.handleInput("\x1b");
		expect(isCancelled()).toBe(true);
	});
});

describe("Image", () => {
	it("reads dimensions from PNG, GIF and JPEG headers", () => {
		expect(readImageDimensions(Buffer.from(pngBase64(640, 480), "base64"))).toEqual({ widthPx: 640, heightPx: 480 });
		const gif = Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x20, 0x00, 0x10, 0x00]);
		expect(readImageDimensions(gif)).toEqual({ widthPx: 32, heightPx: 16 });
		const jpeg = Buffer.from([
			0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0, 0, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x64, 0x00, 0xc8, 0x03,
		]);
		expect(readImageDimensions(jpeg)).toEqual({ widthPx: 200, heightPx: 100 });
	});

	it("falls back to a text placeholder without an image protocol", () => {
		const image = new Image(pngBase64(640, 480), "image/png", defaultImageTheme({ color: false }), {
			protocol: null,
			filename: "shot.png",
		});
		expect(image.render(60)).toEqual(["[Image: shot.png 640x480]"]);
	});

	it("draws with the Kitty protocol on the last of the rows it occupies", () => {
		const image = new Image(pngBase64(180, 72), "image/png", defaultImageTheme(), { protocol: "kitty" });
		const lines = image.render(80);
		// 180x72 px with 9x18 px cells: 20 columns, 4 rows.
		expect(lines).toHaveLength(4);
		expect(lines.slice(0, 3)).toEqual(["", "", ""]);
		expect(lines[3]).toMatch(/^\x1b7\x1b\[3A\x1b_Ga=T,f=100,q=2,C=1,i=\d+,p=1,c=20,r=4;/);
		expect(lines[3].endsWith("\x1b\\\x1b8")).toBe(true);
	});

	it("draws with the iTerm2 protocol when asked", () => {
		const image = new Image(pngBase64(90, 18), "image/png", defaultImageTheme(), { protocol: "iterm2" });
		const lines = image.render(80);
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain("\x1b]1337;File=");
		expect(lines[0]).toContain("width=10;height=1");
	});

	it("is written to the terminal without width checks", async () => {
		const ui = await createTestUI(30, 6);
		ui.tui.addChild(new Image(pngBase64(180, 36), "image/png", defaultImageTheme(), { protocol: "kitty" }));
		const written = await ui.update();
		expect(written).toContain("\x1b_Ga=T");
	});
});
