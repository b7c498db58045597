import { createIgnoreLayer, type IgnoreLayer, isIgnoredByLayers } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";

const base = "/repo";
const withoutNameRules = (layer: IgnoreLayer): IgnoreLayer => ({ base: layer.base, rules: layer.rules });

describe("ignore rules", () => {
	it("takes the name-only fast path for plain names and *suffix patterns", () => {
		expect(createIgnoreLayer(base, ["node_modules/\n*.log\n.env\n# comment\n\n"])?.nameRules).toBeDefined();
		expect(createIgnoreLayer(base, ["/anchored\n"])?.nameRules).toBeUndefined();
		expect(createIgnoreLayer(base, ["!keep.log\n"])?.nameRules).toBeUndefined();
		expect(createIgnoreLayer(base, ["a/b\n"])?.nameRules).toBeUndefined();
	});

	it("decides exactly as node-ignore does for name-only rules (property)", () => {
		const name = fc.stringMatching(/^[a-z.]{1,6}$/).filter((text) => text !== "." && text !== "..");
		const rule = fc
			.tuple(fc.boolean(), name, fc.boolean())
			.map(([star, text, dir]) => `${star ? "*" : ""}${text}${dir ? "/" : ""}`);
		fc.assert(
			fc.property(
				fc.array(rule, { maxLength: 5 }),
				fc.array(name, { minLength: 1, maxLength: 3 }),
				fc.boolean(),
				(rules, segments, isDirectory) => {
					const layer = createIgnoreLayer(base, [rules.join("\n")]);
					fc.pre(layer?.nameRules !== undefined);
					const path = `${base}/${segments.join("/")}`;
					// The walker only asks about entries whose parent directories were not ignored.
					const parents = segments.slice(0, -1).map((_, i) => `${base}/${segments.slice(0, i + 1).join("/")}`);
					fc.pre(parents.every((parent) => !isIgnoredByLayers([withoutNameRules(layer!)], parent, true)));
					expect(isIgnoredByLayers([layer!], path, isDirectory)).toBe(
						isIgnoredByLayers([withoutNameRules(layer!)], path, isDirectory),
					);
				},
			),
		);
	});

	it("lets the innermost layer with an opinion decide", () => {
		const outer = createIgnoreLayer(base, ["*.log\n"])!;
		const inner = createIgnoreLayer(`${base}/keep`, ["!important.log\n"])!;
		expect(isIgnoredByLayers([outer, inner], `${base}/keep/important.log`, false)).toBe(false);
		expect(isIgnoredByLayers([outer, inner], `${base}/keep/other.log`, false)).toBe(true);
		expect(isIgnoredByLayers([outer], `${base}x/other.log`, false)).toBe(false);
	});
});
