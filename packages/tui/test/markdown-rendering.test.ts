import { defaultMarkdownTheme, Markdown, stripAnsi, visibleWidth } from "@agent/tui";
import { describe, expect, it } from "vitest";
import { createTestUI } from "./helpers/test-ui.js";

const plainTheme = defaultMarkdownTheme({ color: false });

async function renderMarkdown(text: string, columns = 40, rows = 20, theme = plainTheme) {
	const ui = await createTestUI(columns, rows);
	ui.tui.addChild(new Markdown(text, 0, 0, theme));
	await ui.update();
	const buffer = ui.terminal.emulator.buffer.active;
	const rowsText = ui.terminal.getViewport();
	const cell = (row: number, text: string, offset = 0) => {
		const col = rowsText[row].indexOf(text) + offset;
		const found = buffer.getLine(row)?.getCell(col);
		if (!found || col < offset) throw new Error(`"${text}" not on row ${row}: ${rowsText[row]}`);
		return found;
	};
	return { rows: rowsText, cell, ui };
}

describe("headings", () => {
	it("draws h1 bold and underlined without the #, h2 bold, h3 with its #s", async () => {
		const { rows, cell } = await renderMarkdown("# Title\n\n## Section\n\n### Detail");
		expect(rows.slice(0, 5)).toEqual(["Title", "", "Section", "", "### Detail"]);
		expect(cell(0, "Title").isBold()).toBeTruthy();
		expect(cell(0, "Title").isUnderline()).toBeTruthy();
		expect(cell(2, "Section").isBold()).toBeTruthy();
		expect(cell(2, "Section").isUnderline()).toBeFalsy();
	});
});

describe("paragraphs and inline styles", () => {
	it("wraps paragraphs to the width", async () => {
		const { rows } = await renderMarkdown("one two three four five six seven", 15);
		expect(rows.slice(0, 3)).toEqual(["one two three", "four five six", "seven"]);
	});

	it("renders bold, italic, strikethrough and inline code", async () => {
		const { rows, cell } = await renderMarkdown("a **bold** b *it* c ~~gone~~ d `x()` e");
		expect(rows[0]).toBe("a bold b it c gone d x() e");
		expect(cell(0, "bold").isBold()).toBeTruthy();
		expect(cell(0, "it ").isItalic()).toBeTruthy();
		expect(cell(0, "gone").isStrikethrough()).toBeTruthy();
		expect(cell(0, "a ").isBold()).toBeFalsy();
	});

	it("colours inline code with the theme", async () => {
		const { cell } = await renderMarkdown("use `npm test` now", 40, 5, defaultMarkdownTheme());
		expect(cell(0, "npm").getFgColor()).not.toBe(cell(0, "use").getFgColor());
	});

	it("shows a link's URL after its text unless they are the same", async () => {
		const { rows, cell } = await renderMarkdown("see [docs](https://x.dev/d) or https://y.dev or [m](mailto:m)", 80);
		// The mailto: prefix is ignored when comparing text and address.
		expect(rows[0]).toBe("see docs (https://x.dev/d) or https://y.dev or m");
		expect(cell(0, "docs").isUnderline()).toBeTruthy();
		const different = await renderMarkdown("[mail me](mailto:a@b.c)", 40);
		expect(different.rows[0]).toBe("mail me (mailto:a@b.c)");
	});

	it("turns a hard line break into a new line and decodes entities", async () => {
		const { rows } = await renderMarkdown("first  \nsecond &amp; &lt;third&gt;");
		expect(rows.slice(0, 2)).toEqual(["first", "second & <third>"]);
	});
});

describe("lists", () => {
	it("draws bullets, numbers from the list's start, nesting and task boxes", async () => {
		const { rows } = await renderMarkdown("- one\n- two\n  - nested\n\n3. three\n4. four\n\n- [x] done\n- [ ] todo");
		expect(rows.slice(0, 10)).toEqual([
			"- one",
			"- two",
			"  - nested",
			"",
			"3. three",
			"4. four",
			"",
			"- [x] done",
			"- [ ] todo",
			"",
		]);
	});

	it("indents continuation lines under the item text", async () => {
		const { rows } = await renderMarkdown("- a list item long enough to wrap", 16);
		expect(rows.slice(0, 3)).toEqual(["- a list item", "  long enough to", "  wrap"]);
	});

	it("puts no blank line between a paragraph and a list that follows it directly", async () => {
		const { rows } = await renderMarkdown("Steps:\n- one\n- two");
		expect(rows.slice(0, 3)).toEqual(["Steps:", "- one", "- two"]);
	});
});

describe("block quotes, rules and HTML", () => {
	it("prefixes quoted lines with a bar and italicises them", async () => {
		// Line breaks the author typed are kept (models write them on purpose).
		const { rows, cell } = await renderMarkdown("> quoted\n> text");
		expect(rows.slice(0, 2)).toEqual(["│ quoted", "│ text"]);
		expect(cell(0, "quoted").isItalic()).toBeTruthy();
	});

	it("draws a rule as wide as the screen, at most 80 columns", async () => {
		expect((await renderMarkdown("---", 30)).rows[0]).toBe("─".repeat(30));
		expect((await renderMarkdown("---", 100)).rows[0]).toBe("─".repeat(80));
	});

	it("shows HTML as plain text", async () => {
		expect((await renderMarkdown("<div>hi</div>")).rows[0]).toBe("<div>hi</div>");
	});
});

describe("code blocks", () => {
	it("draws fences with the language and indents the code", async () => {
		const { rows } = await renderMarkdown("```ts\nconst x = 1;\n```");
		expect(rows.slice(0, 3)).toEqual(["```ts", "  const x = 1;", "```"]);
	});

	it("highlights the syntax with highlight.js", async () => {
		const { cell } = await renderMarkdown('```ts\nconst x = "s"; // note\n```', 40, 5, defaultMarkdownTheme());
		const keyword = cell(1, "const");
		const string = cell(1, '"s"');
		const comment = cell(1, "// note");
		expect(keyword.getFgColor()).not.toBe(string.getFgColor());
		expect(string.getFgColor()).not.toBe(comment.getFgColor());
	});

	it("leaves unknown languages unhighlighted", async () => {
		const { rows } = await renderMarkdown("```nosuchlang\nplain <text>\n```", 40, 5, defaultMarkdownTheme());
		expect(rows[1]).toBe("  plain <text>");
	});
});

describe("code blocks across widths", () => {
	it("highlights a block once: a new width only wraps it again", () => {
		let calls = 0;
		const theme = {
			...defaultMarkdownTheme(),
			highlightCode: (code: string) => {
				calls++;
				return code.split("\n").map((line) => `\x1b[33m${line}\x1b[39m`);
			},
		};
		const markdown = new Markdown("Text\n\n```ts\nconst value = 1;\n```\n\nmore", 0, 0, theme);
		markdown.render(40);
		markdown.render(12);
		markdown.render(40);
		expect(calls).toBe(1);
		expect(stripAnsi(markdown.render(12).join("\n"))).toContain("  const\n  value = 1;");
		markdown.invalidate();
		markdown.render(40);
		expect(calls).toBe(2);
	});
});

describe("tables", () => {
	it("draws box borders and aligned cells", async () => {
		const { rows } = await renderMarkdown("| Name | Qty |\n|:--|--:|\n| apple | 3 |\n| kiwi | 12 |");
		expect(rows.slice(0, 6)).toEqual([
			"┌───────┬─────┐",
			"│ Name  │ Qty │",
			"├───────┼─────┤",
			"│ apple │   3 │",
			"│ kiwi  │  12 │",
			"└───────┴─────┘",
		]);
	});

	it("fits wide tables to the width by wrapping the widest column", async () => {
		const { rows } = await renderMarkdown(
			"| k | description |\n|---|---|\n| a | a fairly long description text |",
			24,
		);
		for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(24);
		expect(rows[3]).toBe("│ a │ a fairly long    │");
		expect(rows[4]).toBe("│   │ description text │");
	});
});

describe("streaming", () => {
	it("keeps the lines of finished blocks when text is appended", () => {
		const markdown = new Markdown("# Head\n\nfirst paragraph\n\nsecond", 0, 0, plainTheme);
		const before = markdown.render(40);
		markdown.setText("# Head\n\nfirst paragraph\n\nsecond grows");
		const after = markdown.render(40);
		expect(after.at(-1)).toBe("second grows");
		// Unchanged blocks hand back the very same strings, so containers compare them in O(1).
		expect(after[0]).toBe(before[0]);
		expect(after[2]).toBe(before[2]);
	});

	it("re-lexes an appended block whose meaning changes (a paragraph becoming a table)", () => {
		const markdown = new Markdown("intro\n\n| a | b |", 0, 0, plainTheme);
		expect(markdown.render(30).at(-1)).toBe("| a | b |");
		markdown.setText("intro\n\n| a | b |\n|---|---|\n| 1 | 2 |");
		expect(markdown.render(30).slice(2).map(stripAnsi)).toEqual([
			"┌───┬───┐",
			"│ a │ b │",
			"├───┼───┤",
			"│ 1 │ 2 │",
			"└───┴───┘",
		]);
	});

	it("renders the same as a fresh component after many appends", () => {
		const full = "# T\n\nSome text\n\n- a\n- b\n\n```js\nlet x = 1;\n```\n\n> q\n\nend";
		const streamed = new Markdown("", 0, 0, plainTheme);
		for (let i = 1; i <= full.length; i++) {
			streamed.setText(full.slice(0, i));
			streamed.render(30);
		}
		expect(streamed.render(30)).toEqual(new Markdown(full, 0, 0, plainTheme).render(30));
	});
});

describe("padding and text style", () => {
	it("renders nothing for blank text", () => {
		expect(new Markdown("  \n ", 1, 1, plainTheme).render(20)).toEqual([]);
	});

	it("applies padding and paints the background over the full width", () => {
		const markdown = new Markdown("hi", 1, 1, plainTheme, { bgColor: (s) => `\x1b[41m${s}\x1b[49m` });
		const lines = markdown.render(6);
		expect(lines).toHaveLength(3);
		expect(lines[1]).toBe("\x1b[41m hi   \x1b[49m");
	});
});
