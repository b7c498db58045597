// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are bash-style ${@:N} placeholders, not JS templates
import { describe, expect, it } from "vitest";
import {
	expandPromptTemplate,
	type PromptTemplate,
	parseCommandArgs,
	substituteArgs,
} from "../../src/core/resources/index.js";

describe("parseCommandArgs", () => {
	it.each([
		["", []],
		["one", ["one"]],
		["one two\tthree", ["one", "two", "three"]],
		["  spaced   out  ", ["spaced", "out"]],
		[`"two words" single`, ["two words", "single"]],
		[`'single quoted' "double 'inner'"`, ["single quoted", "double 'inner'"]],
		[`pre"fix suf"fix`, ["prefix suffix"]],
		[`a "" b`, ["a", "", "b"]],
		[`back\\slash "no\\"escape`, ["back\\slash", "no\\escape"]],
		[`"unterminated quote`, ["unterminated quote"]],
	])("splits %j into %j", (input, expected) => {
		expect(parseCommandArgs(input)).toEqual(expected);
	});
});

describe("substituteArgs", () => {
	const args = ["a", "b", "c", "d"];
	it.each([
		["$1 and $2", "a and b"],
		["$4 $5", "d "],
		["$10", ""],
		["all: $@", "all: a b c d"],
		["all: $ARGUMENTS", "all: a b c d"],
		["${@:2}", "b c d"],
		["${@:0}", "a b c d"],
		["${@:1}", "a b c d"],
		["${@:2:2}", "b c"],
		["${@:4:10}", "d"],
		["${@:9}", ""],
		["${@:2:0}", ""],
		["$$1 costs $", "$a costs $"],
		["$ARGUMENTS_X", "a b c d_X"],
		["no placeholders", "no placeholders"],
	])("%j becomes %j", (template, expected) => {
		expect(substituteArgs(template, args)).toBe(expected);
	});

	it("never substitutes inside argument values", () => {
		expect(substituteArgs("[$1] [$2] [$@]", ["$2", "$ARGUMENTS"])).toBe("[$2] [$ARGUMENTS] [$2 $ARGUMENTS]");
		expect(substituteArgs("${@:1}", ["${@:1}", "$1"])).toBe("${@:1} $1");
	});

	it("gives empty text for every placeholder without arguments", () => {
		expect(substituteArgs("<$1|$@|$ARGUMENTS|${@:1}>", [])).toBe("<|||>");
	});
});

describe("expandPromptTemplate", () => {
	const review: PromptTemplate = {
		name: "review",
		description: "Review (user)",
		content: "Review $1 focusing on ${@:2}.",
		source: "user",
		filePath: "/t/review.md",
	};

	it("expands /name with its arguments", () => {
		expect(expandPromptTemplate(`/review src/app.ts "error handling" tests`, [review])).toBe(
			"Review src/app.ts focusing on error handling tests.",
		);
	});

	it("expands /name without arguments", () => {
		expect(expandPromptTemplate("/review", [review])).toBe("Review  focusing on .");
	});

	it("ends the name at a newline as well as a space", () => {
		expect(expandPromptTemplate("/review\nsrc/x.ts", [review])).toBe("Review src/x.ts focusing on .");
	});

	it("leaves text unchanged without an exact name match", () => {
		for (const text of ["/reviews x", "/revie", "review x", " /review x", "/Review x"]) {
			expect(expandPromptTemplate(text, [review])).toBe(text);
		}
	});
});
