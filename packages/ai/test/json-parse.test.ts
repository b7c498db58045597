import { describe, expect, it } from "vitest";
import fc from "../../../scripts/fast-check.js";
import { parseStreamingJson } from "../src/index.js";

describe("parseStreamingJson on complete input", () => {
	it("parses a complete object", () => {
		expect(parseStreamingJson('{"path":"a.txt","limit":5,"flags":[true,null]}')).toEqual({
			path: "a.txt",
			limit: 5,
			flags: [true, null],
		});
	});

	it.each([undefined, "", "   \n\t"])("returns an empty object for empty input %j", (text) => {
		expect(parseStreamingJson(text)).toEqual({});
	});

	it.each(["[1,2]", '"text"', "42", "null", "true"])("returns an empty object for the non-object %s", (text) => {
		expect(parseStreamingJson(text)).toEqual({});
	});
});

describe("parseStreamingJson on streamed prefixes", () => {
	it.each([
		['{"path":"src/ind', { path: "src/ind" }],
		['{"path":"a.txt","edits":[{"old":"x"', { path: "a.txt", edits: [{ old: "x" }] }],
		['{"command":"ls', { command: "ls" }],
		['{"path":"a.txt",', { path: "a.txt" }],
		["{", {}],
	])("closes what is open in %s", (text, expected) => {
		expect(parseStreamingJson(text)).toEqual(expected);
	});

	it("returns an empty object for text that is not JSON at all", () => {
		expect(parseStreamingJson("I will call the tool now")).toEqual({});
		expect(parseStreamingJson("}{")).toEqual({});
	});
});

describe("parseStreamingJson properties", () => {
	// Every prefix is parsed, so the cost grows with the square of the text: keep the objects small enough that
	// the property runs in well under a second even on a loaded machine (large values add nothing here).
	const jsonObject = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 });

	it("parses every prefix of a serialized object to an object without throwing, and the whole text to the original", () => {
		fc.assert(
			fc.property(jsonObject, fc.boolean(), (value, pretty) => {
				const text = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
				for (let end = 0; end < text.length; end++) {
					const partial = parseStreamingJson(text.slice(0, end));
					expect(partial !== null && typeof partial === "object" && !Array.isArray(partial)).toBe(true);
				}
				expect(parseStreamingJson(text)).toEqual(JSON.parse(text));
			}),
			{ numRuns: 100 },
		);
	});
});
