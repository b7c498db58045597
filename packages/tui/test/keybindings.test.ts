import {
	DEFAULT_EDITOR_KEYBINDINGS,
	defaultEditorKeybindingsFor,
	EditorKeybindingsManager,
	getEditorKeybindings,
	KeybindingsManager,
	parseKeybindingsConfig,
	setEditorKeybindings,
} from "@agent/tui";
import { afterEach, describe, expect, it } from "vitest";
import { createEditorUI } from "./helpers/editor-ui.js";

afterEach(() => {
	setEditorKeybindings(new EditorKeybindingsManager());
});

describe("defaults", () => {
	it("bind the editor and list actions as documented", () => {
		expect(DEFAULT_EDITOR_KEYBINDINGS.cursorWordLeft).toEqual(["alt+left", "ctrl+left", "alt+b"]);
		expect(DEFAULT_EDITOR_KEYBINDINGS.deleteWordBackward).toEqual(["ctrl+w", "alt+backspace"]);
		expect(DEFAULT_EDITOR_KEYBINDINGS.selectCancel).toEqual(["escape", "ctrl+c"]);
		expect(DEFAULT_EDITOR_KEYBINDINGS.undo).toEqual(["ctrl+-"]);
		expect(DEFAULT_EDITOR_KEYBINDINGS.jumpBackward).toEqual(["ctrl+alt+]"]);
		expect(DEFAULT_EDITOR_KEYBINDINGS.deleteSessionNoninvasive).toEqual(["ctrl+backspace"]);
	});

	it("add Ctrl+Enter for a new line in Windows Terminal", () => {
		expect(defaultEditorKeybindingsFor({ WT_SESSION: "1" }).newLine).toEqual(["shift+enter", "ctrl+enter"]);
		expect(defaultEditorKeybindingsFor({}).newLine).toEqual(["shift+enter"]);
	});
});

describe("configuration", () => {
	it("replaces the defaults of the configured actions only", () => {
		const manager = new EditorKeybindingsManager({ cursorUp: ["up", "ctrl+p"], submit: "ctrl+s" }, {});
		expect(manager.matches("\x10", "cursorUp")).toBe(true);
		expect(manager.matches("\x1b[A", "cursorUp")).toBe(true);
		expect(manager.matches("\r", "submit")).toBe(false);
		expect(manager.matches("\x13", "submit")).toBe(true);
		expect(manager.matches("\x1b[B", "cursorDown")).toBe(true);
	});

	it("unbinds an action with an empty list", () => {
		const manager = new EditorKeybindingsManager({ yank: [] }, {});
		expect(manager.matches("\x19", "yank")).toBe(false);
		expect(manager.getKeys("yank")).toEqual([]);
	});

	it("is used by the editor", async () => {
		setEditorKeybindings(new EditorKeybindingsManager({ cursorLineStart: ["ctrl+g"] }, {}));
		expect(getEditorKeybindings().getKeys("cursorLineStart")).toEqual(["ctrl+g"]);
		const ui = await createEditorUI();
		await ui.type("abc");
		await ui.press("\x07", ">");
		expect(ui.editor.getText()).toBe(">abc");
	});

	it("supports application actions through the generic manager", () => {
		const app = new KeybindingsManager(
			{ interrupt: ["escape"], cycleModelForward: ["ctrl+p"] },
			{ cycleModelForward: "alt+m" },
		);
		expect(app.findAction("\x1bm", ["interrupt", "cycleModelForward"])).toBe("cycleModelForward");
		expect(app.findAction("\x1b", ["interrupt", "cycleModelForward"])).toBe("interrupt");
	});
});

describe("parseKeybindingsConfig", () => {
	it("accepts strings and arrays and reports invalid key ids", () => {
		const { config, errors } = parseKeybindingsConfig({
			cursorUp: ["up", "ctrl+p"],
			tree: "ctrl+shift+t",
			bad: "ctrl+nope",
			worse: 3,
		});
		expect(config).toEqual({ cursorUp: ["up", "ctrl+p"], tree: ["ctrl+shift+t"], bad: [] });
		expect(errors).toEqual(['bad: unknown key id "ctrl+nope"', "worse: expected a key id or an array of key ids"]);
	});

	it("rejects a non-object", () => {
		expect(parseKeybindingsConfig([1]).errors).toHaveLength(1);
	});
});
