import { describe, expect, it } from "vitest";
import { createEditorUI, keys } from "./helpers/editor-ui.js";

describe("typing", () => {
	it("shows the text between borders with the cursor after it", async () => {
		const ui = await createEditorUI();
		await ui.type("hello");
		expect(ui.editor.getText()).toBe("hello");
		expect(ui.contentRows()).toEqual(["hello"]);
		expect(ui.terminal.getCursorPosition()).toEqual({ x: 5, y: 1 });
	});

	it("wraps long text at word boundaries and keeps the cursor on the right cell", async () => {
		const ui = await createEditorUI(20);
		await ui.type("the quick brown fox jumps over");
		expect(ui.contentRows()).toEqual(["the quick brown fox", "jumps over"]);
		expect(ui.terminal.getCursorPosition()).toEqual({ x: 10, y: 2 });
	});

	it("places the cursor correctly after wide characters and emoji", async () => {
		const ui = await createEditorUI();
		await ui.type("漢字😀");
		await ui.press("a");
		expect(ui.contentRows()).toEqual(["漢字😀a"]);
		expect(ui.terminal.getCursorPosition()).toEqual({ x: 7, y: 1 });
		await ui.press(keys.left, keys.left);
		expect(ui.terminal.getCursorPosition()).toEqual({ x: 4, y: 1 });
	});

	it("inserts Kitty-encoded printable keys", async () => {
		const ui = await createEditorUI();
		await ui.press("\x1b[97u", "\x1b[98:66;2u");
		expect(ui.editor.getText()).toBe("aB");
	});
});

describe("new lines and submit", () => {
	it("inserts a new line for Shift+Enter, Alt+Enter and the terminal fallbacks", async () => {
		const ui = await createEditorUI();
		await ui.press("a", keys.shiftEnter, "b", keys.altEnter, "c", "\n", "d", "\x1b[27;2;13~", "e");
		expect(ui.editor.getText()).toBe("a\nb\nc\nd\ne");
		expect(ui.contentRows()).toEqual(["a", "b", "c", "d", "e"]);
	});

	it("turns backslash + Enter into a new line", async () => {
		const ui = await createEditorUI();
		await ui.press("a", "\\", keys.enter, "b");
		expect(ui.editor.getText()).toBe("a\nb");
		expect(ui.submitted).toEqual([]);
	});

	it("submits the trimmed text on Enter and clears the editor", async () => {
		const ui = await createEditorUI();
		const changes: string[] = [];
		ui.editor.onChange = (text) => changes.push(text);
		await ui.type("  hi there  ");
		await ui.press(keys.enter);
		expect(ui.submitted).toEqual(["hi there"]);
		expect(ui.editor.getText()).toBe("");
		expect(changes.at(-1)).toBe("");
		expect(ui.contentRows()).toEqual([""]);
	});

	it("does nothing on Enter while submitting is disabled", async () => {
		const ui = await createEditorUI();
		ui.editor.disableSubmit = true;
		await ui.type("wait");
		await ui.press(keys.enter);
		expect(ui.submitted).toEqual([]);
		expect(ui.editor.getText()).toBe("wait");
	});
});

describe("cursor movement", () => {
	it("moves by word with Alt/Ctrl+arrows and Alt+B/F", async () => {
		const ui = await createEditorUI();
		await ui.type("one two-three four");
		await ui.press(keys.altLeft);
		await ui.press("X");
		expect(ui.editor.getText()).toBe("one two-three Xfour");
		await ui.press(keys.ctrlLeft, keys.ctrlLeft, "Y");
		expect(ui.editor.getText()).toBe("one two-Ythree Xfour");
		await ui.press(keys.ctrlA, "\x1bf", "Z");
		expect(ui.editor.getText()).toBe("oneZ two-Ythree Xfour");
	});

	it("moves to line start and end", async () => {
		const ui = await createEditorUI();
		await ui.type("middle");
		await ui.press(keys.home, "<", keys.end, ">");
		expect(ui.editor.getText()).toBe("<middle>");
	});

	it("moves up and down between lines keeping the column", async () => {
		const ui = await createEditorUI();
		await ui.press("a", "b", "c", "d", keys.shiftEnter, "x", keys.shiftEnter, "1", "2", "3", "4");
		await ui.press(keys.up, keys.up, "_");
		expect(ui.editor.getText()).toBe("abcd_\nx\n1234");
	});

	it("moves across wrapped rows of one line", async () => {
		const ui = await createEditorUI(12);
		await ui.type("aaaa bbbb cccc");
		expect(ui.contentRows()).toEqual(["aaaa bbbb", "cccc"]);
		await ui.press(keys.up, "^");
		expect(ui.editor.getText()).toBe("aaaa^ bbbb cccc");
	});

	it("jumps to the next typed character with Ctrl+]", async () => {
		const ui = await createEditorUI();
		await ui.type("find the x here");
		await ui.press(keys.home, keys.ctrlBracket, "x", "!");
		expect(ui.editor.getText()).toBe("find the !x here");
	});
});

describe("deletion", () => {
	it("deletes whole graphemes, including emoji sequences", async () => {
		const ui = await createEditorUI();
		await ui.type("a👨‍👩‍👧");
		await ui.press(keys.backspace);
		expect(ui.editor.getText()).toBe("a");
	});

	it("joins lines when deleting at a line boundary", async () => {
		const ui = await createEditorUI();
		await ui.press("a", keys.shiftEnter, "b", keys.home, keys.backspace);
		expect(ui.editor.getText()).toBe("ab");
		await ui.press(keys.home, keys.delete);
		expect(ui.editor.getText()).toBe("b");
	});

	it("deletes words and to the line's ends", async () => {
		const ui = await createEditorUI();
		await ui.type("alpha beta gamma");
		await ui.press(keys.ctrlW);
		expect(ui.editor.getText()).toBe("alpha beta ");
		await ui.press(keys.altBackspace);
		expect(ui.editor.getText()).toBe("alpha ");
		await ui.type("one two");
		await ui.press(keys.home, keys.altD);
		expect(ui.editor.getText()).toBe(" one two");
		await ui.press(keys.right, keys.right, keys.ctrlK);
		expect(ui.editor.getText()).toBe(" o");
		await ui.press(keys.ctrlU);
		expect(ui.editor.getText()).toBe("");
	});
});

describe("undo", () => {
	it("undoes a word at a time and each space separately", async () => {
		const ui = await createEditorUI();
		await ui.type("hello world");
		await ui.press(keys.ctrlMinus);
		expect(ui.editor.getText()).toBe("hello ");
		await ui.press(keys.ctrlMinus);
		expect(ui.editor.getText()).toBe("hello");
		await ui.press(keys.ctrlMinus);
		expect(ui.editor.getText()).toBe("");
	});

	it("undoes a paste in one step and a run of backspaces in one step", async () => {
		const ui = await createEditorUI();
		await ui.type("keep ");
		await ui.press(keys.paste("pasted text"));
		await ui.press(keys.ctrlMinus);
		expect(ui.editor.getText()).toBe("keep ");
		await ui.press(keys.backspace, keys.backspace, keys.backspace);
		expect(ui.editor.getText()).toBe("ke");
		await ui.press(keys.ctrlMinus);
		expect(ui.editor.getText()).toBe("keep ");
	});
});

describe("kill ring", () => {
	it("yanks the last kill back", async () => {
		const ui = await createEditorUI();
		await ui.type("cut this");
		await ui.press(keys.ctrlU, keys.ctrlY);
		expect(ui.editor.getText()).toBe("cut this");
	});

	it("accumulates consecutive kills into one entry", async () => {
		const ui = await createEditorUI();
		await ui.type("one two three");
		await ui.press(keys.ctrlW, keys.ctrlW);
		expect(ui.editor.getText()).toBe("one ");
		await ui.press(keys.ctrlY);
		expect(ui.editor.getText()).toBe("one two three");
	});

	it("cycles through older kills with Alt+Y after a yank", async () => {
		const ui = await createEditorUI();
		await ui.type("first");
		await ui.press(keys.ctrlU);
		await ui.type("second");
		await ui.press(keys.ctrlU, keys.ctrlY);
		expect(ui.editor.getText()).toBe("second");
		await ui.press(keys.altY);
		expect(ui.editor.getText()).toBe("first");
		await ui.press(keys.altY);
		expect(ui.editor.getText()).toBe("second");
	});

	it("ignores Alt+Y when the previous command was not a yank", async () => {
		const ui = await createEditorUI();
		await ui.type("x");
		await ui.press(keys.ctrlU);
		await ui.type("y");
		await ui.press(keys.altY);
		expect(ui.editor.getText()).toBe("y");
	});
});

describe("history", () => {
	it("recalls entries with Up on an empty editor and returns to the draft with Down", async () => {
		const ui = await createEditorUI();
		ui.editor.addToHistory("older");
		ui.editor.addToHistory("newer");
		await ui.press(keys.up);
		expect(ui.editor.getText()).toBe("newer");
		await ui.press(keys.up);
		expect(ui.editor.getText()).toBe("older");
		await ui.press(keys.up);
		expect(ui.editor.getText()).toBe("older");
		await ui.press(keys.down);
		expect(ui.editor.getText()).toBe("newer");
		await ui.press(keys.down);
		expect(ui.editor.getText()).toBe("");
	});

	it("skips empty entries and repeats, keeps at most 100", async () => {
		const ui = await createEditorUI();
		ui.editor.addToHistory("   ");
		ui.editor.addToHistory("same");
		ui.editor.addToHistory("same ");
		for (let i = 0; i < 120; i++) ui.editor.addToHistory(`entry ${i}`);
		for (let i = 0; i < 150; i++) ui.terminal.sendInput(keys.up);
		await ui.update();
		expect(ui.editor.getText()).toBe("entry 20");
	});

	it("moves the cursor instead of browsing when the editor has text", async () => {
		const ui = await createEditorUI();
		ui.editor.addToHistory("old");
		await ui.type("draft");
		await ui.press(keys.up, "<");
		expect(ui.editor.getText()).toBe("<draft");
		await ui.press(keys.down, ">");
		expect(ui.editor.getText()).toBe("<draft>");
	});

	it("stops browsing after an edit", async () => {
		const ui = await createEditorUI();
		ui.editor.addToHistory("one");
		ui.editor.addToHistory("two");
		await ui.press(keys.up, "!", keys.up);
		expect(ui.editor.getText()).toBe("two!");
	});
});

describe("paste", () => {
	it("inserts small pastes as text, normalising line endings and tabs", async () => {
		const ui = await createEditorUI();
		await ui.press(keys.paste("a\r\nb\tc\x07"));
		expect(ui.editor.getText()).toBe("a\nb    c");
	});

	it("shows a large paste as a marker and expands it on submit", async () => {
		const ui = await createEditorUI();
		const lines = Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n");
		await ui.type("see ");
		await ui.press(keys.paste(lines));
		expect(ui.editor.getText()).toBe("see [paste #1 +12 lines]");
		expect(ui.contentRows()).toEqual(["see [paste #1 +12 lines]"]);
		expect(ui.editor.getExpandedText()).toBe(`see ${lines}`);
		await ui.press(keys.enter);
		expect(ui.submitted).toEqual([`see ${lines}`]);
	});

	it("uses a character count for long single-line pastes", async () => {
		const ui = await createEditorUI();
		await ui.press(keys.paste("x".repeat(1500)));
		expect(ui.editor.getText()).toBe("[paste #1 1500 chars]");
	});

	it("treats a marker as one unit for cursor movement and deletion", async () => {
		const ui = await createEditorUI();
		await ui.press("a", keys.paste("y".repeat(1200)), "b");
		await ui.press(keys.left, keys.left, "|");
		expect(ui.editor.getText()).toBe("a|[paste #1 1200 chars]b");
		await ui.press(keys.end, keys.left, keys.backspace);
		expect(ui.editor.getText()).toBe("a|b");
	});

	it("puts a space before a pasted path that follows a word", async () => {
		const ui = await createEditorUI();
		await ui.type("look");
		await ui.press(keys.paste("/tmp/file.txt"));
		expect(ui.editor.getText()).toBe("look /tmp/file.txt");
	});
});

describe("scrolling", () => {
	it("scrolls long content and shows how much is hidden", async () => {
		const ui = await createEditorUI(40, 20);
		for (let i = 0; i < 10; i++) await ui.press(String(i), keys.shiftEnter);
		const viewport = ui.terminal.getViewport();
		expect(viewport[0]).toMatch(/^─── ↑ \d+ more ─+$/);
		expect(ui.contentRows()).toHaveLength(6);
		expect(ui.contentRows().at(-1)).toBe("");
	});
});
