// Frontmatter parses the same whichever way the YAML parser was loaded: required by the first parse, or imported
// ahead by prepareFrontmatterParsing() (the resource loader's path). Each test gets a fresh module, so neither
// way can lean on the other having run.
import { beforeEach, describe, expect, it, vi } from "vitest";
import fc from "../../../../scripts/fast-check.js";

type FrontmatterModule = typeof import("../../src/core/resources/frontmatter.js");

async function freshFrontmatterModule(): Promise<FrontmatterModule> {
	vi.resetModules();
	return import("../../src/core/resources/frontmatter.js");
}

/** Files and what they parse to; the messages are those the parser gave when it was imported with the module. */
const CASES: { name: string; text: string; parsed: Record<string, unknown> }[] = [
	{
		name: "a mapping",
		text: "---\r\nname: x\r\n---\r\n\r\nbody\r\n",
		parsed: { frontmatter: { name: "x" }, body: "body", hasFrontmatter: true },
	},
	{
		name: "an unclosed flow sequence",
		text: "---\nname: pdf\ndescription: [unclosed\nother: 1\n---\nbody\n",
		parsed: {
			frontmatter: {},
			body: "body",
			hasFrontmatter: true,
			error: {
				message:
					"invalid YAML frontmatter at line 4: Flow sequence in block collection must be sufficiently indented and end with a ]",
				line: 4,
			},
		},
	},
	{
		name: "a repeated key",
		text: "---\na: 1\na: 2\n---\n",
		parsed: {
			frontmatter: {},
			body: "",
			hasFrontmatter: true,
			error: { message: "invalid YAML frontmatter at line 3: Map keys must be unique", line: 3 },
		},
	},
	{
		name: "tab indentation",
		text: "---\n\tx: 1\n---\nb",
		parsed: {
			frontmatter: {},
			body: "b",
			hasFrontmatter: true,
			error: { message: "invalid YAML frontmatter at line 2: Tabs are not allowed as indentation", line: 2 },
		},
	},
	{
		name: "a sequence instead of a mapping",
		text: "---\n- a\n- b\n---\nbody",
		parsed: {
			frontmatter: {},
			body: "body",
			hasFrontmatter: true,
			error: { message: "invalid YAML frontmatter at line 2: expected a mapping of keys to values", line: 2 },
		},
	},
	{
		name: "no closing fence",
		text: "---\nkey: value\n",
		parsed: { frontmatter: {}, body: "---\nkey: value\n", hasFrontmatter: false },
	},
];

let frontmatter: FrontmatterModule;

beforeEach(async () => {
	frontmatter = await freshFrontmatterModule();
});

describe("frontmatter parses the same however the YAML parser was loaded", () => {
	for (const { name, text, parsed } of CASES) {
		it(`${name}, with the parser loaded by the first parse`, () => {
			expect(frontmatter.parseFrontmatter(text)).toEqual(parsed);
		});

		it(`${name}, with the parser prepared ahead`, async () => {
			await frontmatter.prepareFrontmatterParsing();
			expect(frontmatter.parseFrontmatter(text)).toEqual(parsed);
		});
	}
});

describe("stripping frontmatter", () => {
	const piece = fc.constantFrom("---", "\n", "\r\n", "a: 1", "[", "- x", "body", " ", "\t", "---x");
	const pieces = fc.array(piece, { maxLength: 6 }).map((list) => list.join(""));
	// Mostly files that open with a fence, with or without a closing one, and any text around them.
	const file = fc
		.tuple(
			fc.constantFrom("", "\ufeff"),
			fc.constantFrom("---\n", "---\r\n", "---", ""),
			pieces,
			fc.constantFrom("\n---\n", "\r\n---\r\n", "\n---", "\n--- \n", "\n---x\n", ""),
			pieces,
		)
		.map((parts) => parts.join(""));

	it("gives the body parsing gives, without parsing the YAML", () => {
		fc.assert(
			fc.property(file, (text) => {
				expect(frontmatter.stripFrontmatter(text)).toBe(frontmatter.parseFrontmatter(text).body);
			}),
		);
	});
});
