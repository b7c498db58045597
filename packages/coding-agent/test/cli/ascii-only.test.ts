// The bundles' outputs are made ASCII after esbuild (scripts/ascii-only.mjs): what esbuild leaves raw is in comments,
// regular expressions and tagged templates; the first two are escaped with their meaning kept, the last refused.
import { describe, expect, it } from "vitest";
import { toAscii } from "../../../../scripts/ascii-only.mjs";

/** Runs `body` (which sets `result`) as a function and returns `result`. */
function run(body: string): unknown {
	return new Function(`let result;\n${body}\nreturn result;`)();
}

describe("toAscii", () => {
	it("escapes comments and regular expressions, and the code means what it did", () => {
		const code = [
			"// An arrow → in a comment, and a backslash before one: C:\\→",
			"const up = /^↑ ([\\d,]+) é\\é/;",
			"const face = /^😀+$/u;",
			"const pair = /^[😀]$/;",
			'result = [up.test("↑ 12 éé"), up.test("^ 12 ee"), up.exec("↑ 3,4 éé")[1], face.test("😀😀"), pair.test("😀")];',
		].join("\n");
		const ascii = toAscii(code, "test.js");
		expect(/[^\x00-\x7f]/.test(ascii)).toBe(false);
		expect(run(ascii)).toEqual(run(code));
		expect(run(code)).toEqual([true, false, "3,4", true, false]);
	});

	it("returns ASCII text as it is", () => {
		const code = "const s = String.raw`\\u2192`; // plain";
		expect(toAscii(code, "test.js")).toBe(code);
	});

	it("refuses non-ASCII text in a tagged template, whose raw text its tag gets", () => {
		expect(() => toAscii("const s = String.raw`a → b`;\n", "page.js")).toThrow(
			"page.js:1: non-ASCII text in a tagged template: escape it in the source",
		);
	});

	it("refuses a raw line separator, which would end a // comment", () => {
		expect(() => toAscii("// one\u2028two\nconst a = 1;", "sep.js")).toThrow("a raw U+2028 or U+2029");
	});
});
