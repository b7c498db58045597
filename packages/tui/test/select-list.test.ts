import { defaultSelectListTheme, type SelectItem, SelectList, stripAnsi } from "@agent/tui";
import { describe, expect, it } from "vitest";
import { createTestUI } from "./helpers/test-ui.js";

const items: SelectItem[] = [
	{ value: "claude-sonnet", label: "claude-sonnet", description: "Anthropic" },
	{ value: "claude-opus", label: "claude-opus", description: "Anthropic" },
	{ value: "gpt-5", label: "gpt-5", description: "OpenAI" },
	{ value: "gemini-pro", label: "gemini-pro", description: "Google" },
	{ value: "mistral-large", label: "mistral-large", description: "Mistral" },
];

async function listUI(maxVisible = 10) {
	const ui = await createTestUI(50, 12);
	const list = new SelectList(items, maxVisible, defaultSelectListTheme({ color: false }));
	ui.tui.addChild(list);
	ui.tui.setFocus(list);
	await ui.update();
	const press = async (...inputs: string[]) => {
		for (const input of inputs) ui.terminal.sendInput(input);
		await ui.update();
	};
	return { ui, list, press, rows: () => ui.terminal.getViewport() };
}

describe("display", () => {
	it("marks the selected item and aligns descriptions", async () => {
		const { rows } = await listUI();
		expect(rows().slice(0, 3)).toEqual([
			"→ claude-sonnet  Anthropic",
			"  claude-opus    Anthropic",
			"  gpt-5          OpenAI",
		]);
	});

	it("scrolls with the selection and shows the position", async () => {
		const { rows, press } = await listUI(3);
		await press("\x1b[B", "\x1b[B", "\x1b[B");
		expect(rows().slice(0, 4)).toEqual([
			"  gpt-5          OpenAI",
			"→ gemini-pro     Google",
			"  mistral-large  Mistral",
			"  (4/5)",
		]);
	});
});

describe("navigation", () => {
	it("wraps around at both ends and confirms with Enter", async () => {
		const { list, press } = await listUI();
		const selected: string[] = [];
		list.onSelect = (item) => selected.push(item.value);
		await press("\x1b[A", "\r");
		expect(selected).toEqual(["mistral-large"]);
		await press("\x1b[B", "\r");
		expect(selected).toEqual(["mistral-large", "claude-sonnet"]);
	});

	it("reports selection changes and cancels with Escape", async () => {
		const { list, press } = await listUI();
		const changes: string[] = [];
		let cancelled = false;
		list.onSelectionChange = (item) => changes.push(item.value);
		list.onCancel = () => {
			cancelled = true;
		};
		await press("\x1b[B", "\x1b[6~");
		expect(changes).toEqual(["claude-opus", "mistral-large"]);
		await press("\x1b");
		expect(cancelled).toBe(true);
	});
});

describe("filtering", () => {
	it("keeps matching items, best first, and resets the selection", async () => {
		const { list, rows, ui } = await listUI();
		list.setFilter("cl op");
		await ui.update();
		expect(rows()[0]).toBe("→ claude-opus  Anthropic");
		expect(rows()[1]).toBe("");
		list.setFilter("gm");
		await ui.update();
		expect(list.getFilteredItems().map((item) => item.value)).toEqual(["gemini-pro"]);
	});

	it("says so when nothing matches", async () => {
		const { list, rows, ui } = await listUI();
		list.setFilter("zzz");
		await ui.update();
		expect(rows()[0]).toBe("  No matches");
		expect(list.getSelectedItem()).toBeUndefined();
	});
});

describe("layout options", () => {
	const theme = defaultSelectListTheme({ color: false });

	it("bounds the label column by minPrimaryColumnWidth and maxPrimaryColumnWidth", () => {
		const wide = new SelectList(items.slice(2, 4), 5, theme, { minPrimaryColumnWidth: 16 });
		expect(wide.render(50).map(stripAnsi)).toEqual(["→ gpt-5           OpenAI", "  gemini-pro      Google"]);
		const narrow = new SelectList(items.slice(0, 2), 5, theme, { maxPrimaryColumnWidth: 8 });
		expect(narrow.render(50).map(stripAnsi)).toEqual(["→ claud…  Anthropic", "  claud…  Anthropic"]);
	});

	it("lets truncatePrimary fit each label, with what it needs to know", () => {
		const seen: unknown[] = [];
		const list = new SelectList(items.slice(0, 2), 5, theme, {
			maxPrimaryColumnWidth: 10,
			truncatePrimary: ({ text, maxWidth, columnWidth, item, isSelected }) => {
				seen.push({ text, maxWidth, columnWidth, value: item.value, isSelected });
				return `…${text.slice(-(maxWidth - 1))}`;
			},
		});
		expect(list.render(50).map(stripAnsi)).toEqual(["→ …-sonnet  Anthropic", "  …de-opus  Anthropic"]);
		expect(seen).toEqual([
			{ text: "claude-sonnet", maxWidth: 8, columnWidth: 10, value: "claude-sonnet", isSelected: true },
			{ text: "claude-opus", maxWidth: 8, columnWidth: 10, value: "claude-opus", isSelected: false },
		]);
	});

	it("shows the no-match text given in the options or as the fourth argument", () => {
		const fromOptions = new SelectList(items, 5, theme, { noMatchText: "Nothing here" });
		fromOptions.setFilter("zzz");
		expect(fromOptions.render(40)).toEqual(["  Nothing here"]);
		const fromString = new SelectList(items, 5, theme, "No models");
		fromString.setFilter("zzz");
		expect(fromString.render(40)).toEqual(["  No models"]);
	});
});
