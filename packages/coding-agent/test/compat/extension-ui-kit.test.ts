// The terminal UI building blocks extensions import from the package (the reference's examples modal-editor,
// rainbow-editor, tools, preset, qna and handoff use them): a CustomEditor subclass gets the application's key
// handlers when installed, borders and loaders render in the theme on screen, and the theme helpers follow it.
import {
	BorderedLoader,
	CustomEditor,
	DynamicBorder,
	getCurrentTheme,
	getMarkdownTheme,
	getSettingsListTheme,
	initTheme,
	keyHint,
	rawKeyHint,
	truncateToVisualLines,
} from "@agent/coding-agent";
import { type KeyId, matchesKey, stripAnsi, visibleWidth } from "@agent/tui";
import { afterEach, describe, expect, it } from "vitest";
import { wireCustomEditor } from "../../src/modes/interactive/extension-kit/wire-custom-editor.js";

const host = { terminal: { rows: 24, columns: 80 }, requestRender: () => {} };
const keybindings = {
	matches: (data: string, action: string) =>
		(
			({ interrupt: ["escape"], exit: ["ctrl+d"], clear: ["ctrl+c"], pasteImage: ["ctrl+v"] }) as Record<
				string,
				string[]
			>
		)[action]?.some((key) => matchesKey(data, key)) ?? false,
	getKeys: (action: string): KeyId[] => (action === "interrupt" ? ["escape"] : []),
};

afterEach(() => initTheme("dark"));

describe("CustomEditor", () => {
	it("a subclass installed by the interactive mode interrupts on Escape, quits on Ctrl+D when empty, clears on Ctrl+C", () => {
		const handled: string[] = [];
		class ModalEditor extends CustomEditor {
			mode = "insert";
			override handleInput(data: string): void {
				if (matchesKey(data, "escape") && this.mode === "insert") {
					this.mode = "normal";
					return;
				}
				super.handleInput(data);
			}
		}
		const editor = new ModalEditor(host, getCurrentTheme().getEditorTheme(), keybindings);
		wireCustomEditor(editor, {
			handle: (action) => {
				handled.push(action);
				return true;
			},
			handleShortcut: () => false,
		});
		editor.handleInput("\x1b");
		expect(editor.mode).toBe("normal");
		editor.handleInput("\x1b");
		editor.handleInput("\x04");
		editor.handleInput("\x03");
		expect(handled).toEqual(["interrupt", "exit", "clear"]);
		editor.handleInput("x");
		editor.handleInput("\x04");
		expect(handled).toEqual(["interrupt", "exit", "clear"]);
		expect(editor.getText()).toBe("x");
	});

	it("a subclass's decoration of the rendered lines shows on every frame, and it reaches the TUI as this.tui", () => {
		let renders = 0;
		const tuiHost = { terminal: { rows: 24, columns: 80 }, requestRender: () => renders++ };
		class LabelledEditor extends CustomEditor {
			label = " INSERT ";
			override render(width: number): string[] {
				const lines = super.render(width);
				lines[lines.length - 1] = `${(lines.at(-1) ?? "").slice(0, width - this.label.length)}${this.label}`;
				return lines;
			}
			redraw(): void {
				this.tui.requestRender();
			}
		}
		const editor = new LabelledEditor(tuiHost, getCurrentTheme().getEditorTheme(), keybindings);
		const first = editor.render(40);
		expect(stripAnsi(first.at(-1) as string).endsWith(" INSERT ")).toBe(true);
		editor.label = " NORMAL ";
		const second = editor.render(40);
		expect(second).not.toBe(first);
		expect(stripAnsi(second.at(-1) as string).endsWith(" NORMAL ")).toBe(true);
		editor.redraw();
		expect(renders).toBe(1);
	});

	it("keeps handlers the extension set itself and runs extension shortcuts first", () => {
		const calls: string[] = [];
		const editor = new CustomEditor(host, getCurrentTheme().getEditorTheme(), keybindings);
		editor.onEscape = () => calls.push("own escape");
		editor.onExtensionShortcut = (data) => data === "\x07" && calls.push("shortcut") > 0;
		wireCustomEditor(editor, { handle: () => true, handleShortcut: () => false });
		editor.handleInput("\x1b");
		editor.handleInput("\x07");
		expect(calls).toEqual(["own escape", "shortcut"]);
	});
});

describe("borders, loaders and hints", () => {
	it("DynamicBorder spans the width in the theme's border colour, or a given colour", () => {
		const [line] = new DynamicBorder().render(12);
		expect(stripAnsi(line as string)).toBe("─".repeat(12));
		expect(new DynamicBorder((text) => `<${text}>`).render(3)).toEqual(["<───>"]);
	});

	it("BorderedLoader shows its message between rules, cancels on Escape and stops when disposed", () => {
		const loader = new BorderedLoader(host, getCurrentTheme(), "Summarizing…");
		const lines = loader.render(30).map((line) => stripAnsi(line));
		expect(lines[0]).toBe("─".repeat(30));
		expect(lines.some((line) => line.includes("Summarizing…"))).toBe(true);
		expect(lines.some((line) => line.includes("cancel"))).toBe(true);
		let aborted = false;
		loader.onAbort = () => {
			aborted = true;
		};
		loader.handleInput("\x1b");
		expect(aborted).toBe(true);
		expect(loader.signal.aborted).toBe(true);
		loader.dispose();
		for (const line of loader.render(30)) expect(visibleWidth(line)).toBeLessThanOrEqual(30);
	});

	it("key hints read the key bindings: dim key, muted description", () => {
		expect(stripAnsi(keyHint("selectCancel", "cancel"))).toMatch(/escape.* cancel$/);
		expect(stripAnsi(rawKeyHint("↑↓", "navigate"))).toBe("↑↓ navigate");
	});
});

describe("theme helpers", () => {
	it("getMarkdownTheme and getSettingsListTheme follow the current theme", () => {
		initTheme("light");
		expect(getCurrentTheme().name).toBe("light");
		expect(getMarkdownTheme()).toBe(getCurrentTheme().getMarkdownTheme());
		expect(stripAnsi(getSettingsListTheme().cursor)).toBe("→ ");
	});

	it("truncateToVisualLines keeps the last lines as wrapped at the width", () => {
		const result = truncateToVisualLines("a\nbbbbbbbbbb\nc", 2, 5);
		expect(result).toEqual({ visualLines: ["bbbbb", "c"], skippedCount: 2 });
	});
});
