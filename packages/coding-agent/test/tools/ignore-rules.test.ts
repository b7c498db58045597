import { createIgnoreLayer, type IgnoreLayer, isIgnoredByLayers } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";

const base = "/repo";
const withoutNameRules = (layer: IgnoreLayer): IgnoreLayer => ({ base: layer.base, rules: layer.rules });
/** node-ignore's own answer for one layer, which also ignores everything in a directory the layer ignores. */
const nodeIgnoreSays = (layer: IgnoreLayer, path: string, isDirectory: boolean): boolean =>
	layer.rules.test(`${path.slice(base.length + 1)}${isDirectory ? "/" : ""}`).ignored;

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
					fc.pre(parents.every((parent) => !nodeIgnoreSays(layer!, parent, true)));
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

	it("matches regardless of case on request, without the case-sensitive name-only fast path", () => {
		const layer = createIgnoreLayer(base, ["BUILD/\n"], { ignoreCase: true })!;
		expect(layer.nameRules).toBeUndefined();
		expect(isIgnoredByLayers([layer], `${base}/build`, true)).toBe(true);
		expect(isIgnoredByLayers([createIgnoreLayer(base, ["BUILD/\n"])!], `${base}/build`, true)).toBe(false);
	});

	it("keeps what an inner layer re-includes, and an outer layer's rules for the path itself", () => {
		const outer = createIgnoreLayer(base, ["drafts/\n*.tmp\n"], { ignoreCase: true })!;
		const inner = createIgnoreLayer(`${base}/team`, ["!drafts/\n"], { ignoreCase: true })!;
		const layers = [outer, inner];
		expect(isIgnoredByLayers(layers, `${base}/team/drafts`, true)).toBe(false);
		expect(isIgnoredByLayers(layers, `${base}/team/drafts/plan.md`, false)).toBe(false);
		expect(isIgnoredByLayers(layers, `${base}/team/drafts/deep/x.TMP`, false)).toBe(true);
		// node-ignore alone carries the outer layer's verdict on the directory over to its contents.
		expect(nodeIgnoreSays(outer, `${base}/team/drafts/plan.md`, false)).toBe(true);
	});

	it("agrees with node-ignore wherever no parent directory is ignored (property)", () => {
		const segment = fc.constantFrom("a", "b", "B", "x.md");
		const rule = fc
			.tuple(
				fc.boolean(),
				fc.constantFrom("", "/"),
				fc.array(fc.constantFrom("a", "b", "*", "**", "x.md"), { minLength: 1, maxLength: 2 }),
				fc.boolean(),
			)
			.map(([negated, anchor, parts, dir]) => `${negated ? "!" : ""}${anchor}${parts.join("/")}${dir ? "/" : ""}`);
		fc.assert(
			fc.property(
				fc.array(rule, { maxLength: 5 }),
				fc.array(segment, { minLength: 1, maxLength: 4 }),
				fc.boolean(),
				(rules, segments, isDirectory) => {
					const layer = createIgnoreLayer(base, [rules.join("\n")], { ignoreCase: true });
					fc.pre(layer !== undefined);
					const parents = segments.slice(0, -1).map((_, i) => `${base}/${segments.slice(0, i + 1).join("/")}`);
					fc.pre(parents.every((parent) => !nodeIgnoreSays(layer!, parent, true)));
					const path = `${base}/${segments.join("/")}`;
					expect(isIgnoredByLayers([layer!], path, isDirectory)).toBe(nodeIgnoreSays(layer!, path, isDirectory));
				},
			),
		);
	});
});
