import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEditTool, fuzzyFindText, normalizeForFuzzyMatch, replaceUniqueText } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import { errorOf, run, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-fuzzy-");

async function edit(content: string, oldText: string, newText: string): Promise<string> {
	writeFileSync(join(tempDir(), "file.txt"), content);
	await run(createEditTool(tempDir()), { path: "file.txt", oldText, newText });
	return readFileSync(join(tempDir(), "file.txt"), "utf8");
}

describe("fuzzy matching", () => {
	it("matches a line whose trailing spaces the model dropped", async () => {
		expect(await edit("line one   \nline two\n", "line one\n", "replaced\n")).toBe("replaced\nline two\n");
	});

	it("matches curly single quotes with ASCII ones", async () => {
		expect(await edit("say \u2018hello\u2019 now", "'hello'", "'world'")).toBe("say 'world' now");
	});

	it("matches curly double quotes with ASCII ones", async () => {
		expect(await edit("title = \u201CHello\u201D;", '"Hello"', '"World"')).toBe('title = "World";');
	});

	it("matches en and em dashes with hyphens", async () => {
		expect(await edit("range 1\u20132 \u2014 done", "range 1-2 - done", "range 1-3")).toBe("range 1-3");
	});

	it("matches a non-breaking space with a normal space", async () => {
		expect(await edit("price:\u00A0100 EUR", "price: 100", "price: 200")).toBe("price: 200 EUR");
	});

	it("uses the exact match when there is one, with no normalization side effects", async () => {
		const content = "let a = 'x';   \nlet b = 2;\n";
		const match = fuzzyFindText(content, "let b = 2;");
		expect(match.usedFuzzyMatch).toBe(false);
		expect(match.index).toBe(content.indexOf("let b = 2;"));
		expect(await edit(content, "let b = 2;", "let b = 3;")).toBe("let a = 'x';   \nlet b = 3;\n");
	});

	it("reports not found when neither exact nor fuzzy matching finds the text", async () => {
		writeFileSync(join(tempDir(), "file.txt"), "alpha beta gamma");
		const message = await errorOf(
			run(createEditTool(tempDir()), { path: "file.txt", oldText: "completely different", newText: "x" }),
		);
		expect(message).toContain("Could not find the exact text in file.txt.");
	});

	it("matches text that is only whitespace exactly, never fuzzily", () => {
		expect(fuzzyFindText("a\u00A0b", " ").found).toBe(false);
		expect(fuzzyFindText("a\u3000\nb", " \n ").found).toBe(false);
		expect(fuzzyFindText("a  b", " ")).toMatchObject({ found: true, index: 1, usedFuzzyMatch: false });
	});

	it("counts lines differing only in trailing spaces as duplicates", async () => {
		writeFileSync(join(tempDir(), "file.txt"), "hello   \nhello\n");
		const message = await errorOf(
			run(createEditTool(tempDir()), { path: "file.txt", oldText: "hello", newText: "bye" }),
		);
		expect(message).toBe(
			"Found 2 occurrences of the text in file.txt. The text must be unique. Please provide more context to make it unique.",
		);
	});
});

describe("fuzzy edits change only the matched text (ours differs from the reference)", () => {
	it("keeps quotes, trailing spaces and full-width punctuation elsewhere in the file", async () => {
		const content =
			"intro \u201Cquoted\u201D   \n\u4F60\u597D\uFF0C\u4E16\u754C\n\u2018target\u2019 line\nlast\u00A0line  \n";
		const result = await edit(content, "'target' line", "'changed' line");
		expect(result).toBe(
			"intro \u201Cquoted\u201D   \n\u4F60\u597D\uFF0C\u4E16\u754C\n'changed' line\nlast\u00A0line  \n",
		);
	});

	it("maps a match inside a line with combining marks back to the original characters", async () => {
		const content = "caf\u0065\u0301 \u2018menu\u2019 open\n";
		expect(await edit(content, "'menu'", "'carte'")).toBe("caf\u0065\u0301 'carte' open\n");
	});

	it("keeps the trailing spaces of a line when the match ends before them", () => {
		const { newContent } = replaceUniqueText("a \u2018b\u2019   \nnext", "a 'b'", "c", "f");
		expect(newContent).toBe("c   \nnext");
	});
});

const PLAIN_TOKENS = ["foo", "bar", "'q'", '"dq"', "a-b", " ", "x y", "baz"];
const DECORATIONS: Record<string, string[]> = {
	"'": ["'", "\u2018", "\u2019", "\u201B"],
	'"': ['"', "\u201C", "\u201D", "\u201E"],
	"-": ["-", "\u2013", "\u2014", "\u2212"],
	" ": [" ", "\u00A0", "\u2009", "\u3000"],
};

/** Plain lines, and the same lines as a file might hold them: typographic characters and trailing spaces. */
const decoratedDocument = fc
	.array(fc.array(fc.constantFrom(...PLAIN_TOKENS), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 })
	.chain((tokenLines) => {
		const plainLines = tokenLines.map((tokens) => tokens.join(""));
		const decorate = plainLines.map((line) =>
			fc
				.tuple(
					fc.array(fc.nat(3), { minLength: line.length, maxLength: line.length }),
					fc.constantFrom("", " ", "  \t"),
				)
				.map(
					([choices, trailing]) =>
						[...line].map((char, i) => DECORATIONS[char]?.[choices[i]] ?? char).join("") + trailing,
				),
		);
		return fc.tuple(fc.constant(plainLines), fc.tuple(...decorate));
	});

describe("fuzzy matching properties", () => {
	it("finds any substring exactly, at its first index", () => {
		fc.assert(
			fc.property(fc.string({ unit: "grapheme" }), fc.nat(), fc.nat(), (content, a, b) => {
				const start = content.length ? a % content.length : 0;
				const end = start + (content.length - start ? b % (content.length - start) : 0) + 1;
				const needle = content.slice(start, end);
				fc.pre(needle.length > 0);
				const match = fuzzyFindText(content, needle);
				expect(match).toMatchObject({ found: true, usedFuzzyMatch: false, index: content.indexOf(needle) });
			}),
		);
	});

	it("finds plain lines in their typographic spelling and maps the match onto text that normalizes to them", () => {
		fc.assert(
			fc.property(decoratedDocument, fc.nat(), fc.nat(), ([plainLines, decoratedLines], a, b) => {
				const content = decoratedLines.join("\n");
				const first = a % plainLines.length;
				const last = first + (b % (plainLines.length - first));
				const oldText = plainLines.slice(first, last + 1).join("\n");
				fc.pre(normalizeForFuzzyMatch(oldText).trim() !== "");
				const match = fuzzyFindText(content, oldText);
				expect(match.found).toBe(true);
				const matched = match.contentForReplacement.slice(match.index, match.index + match.matchLength);
				expect(normalizeForFuzzyMatch(matched)).toBe(normalizeForFuzzyMatch(oldText));
			}),
		);
	});

	it("leaves everything outside the replaced span byte for byte as it was", () => {
		fc.assert(
			fc.property(decoratedDocument, fc.nat(), ([plainLines, decoratedLines], a) => {
				const content = decoratedLines.join("\n");
				const oldText = plainLines[a % plainLines.length];
				const count = normalizeForFuzzyMatch(content).split(normalizeForFuzzyMatch(oldText)).length - 1;
				fc.pre(count === 1);
				const match = fuzzyFindText(content, oldText);
				const { newContent } = replaceUniqueText(content, oldText, "<NEW>", "f");
				expect(newContent).toBe(
					`${content.slice(0, match.index)}<NEW>${content.slice(match.index + match.matchLength)}`,
				);
			}),
		);
	});

	it("normalization is idempotent and keeps the number of lines", () => {
		fc.assert(
			fc.property(fc.string({ unit: "grapheme" }), (text) => {
				const once = normalizeForFuzzyMatch(text);
				expect(normalizeForFuzzyMatch(once)).toBe(once);
				expect(once.split("\n").length).toBe(text.split("\n").length);
			}),
		);
	});
});
