import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "../../../scripts/fast-check.js";
import { MODELS } from "../src/models.js";

type SourceCatalog = Record<string, Record<string, unknown>>;

/** scripts/catalog-render.mjs: the catalog generation without its file writes. */
interface CatalogRender {
	loadCatalog(packageName: string): Promise<SourceCatalog>;
	render(
		current: SourceCatalog,
		reference: SourceCatalog,
	): { files: Map<string, string>; catalogs: Record<string, Record<string, Record<string, unknown>>> };
	templateLiteral(text: string): string;
}

// Through a URL, so the compiler does not look for the plain-JS script's types (the interface above states them).
const renderModule = new URL("../scripts/catalog-render.mjs", import.meta.url).href;
const { loadCatalog, render, templateLiteral } = (await import(renderModule)) as CatalogRender;

/** The value of a template literal's source text. */
function evaluateTemplate(source: string): unknown {
	return new Function(`return ${source};`)();
}

describe("catalog generation", () => {
	it("the committed catalog files are the generator's output for the pinned sources", async () => {
		const { files } = render(await loadCatalog("@mariozechner/pi-ai"), await loadCatalog("pi-ai-0.58.3"));
		for (const [path, text] of files) {
			expect(readFileSync(new URL(`../src/${path}`, import.meta.url), "utf8"), path).toBe(text);
		}
	});

	it("each provider's file imports as exactly the models the generator rendered, in the same order", async () => {
		const { catalogs } = render(await loadCatalog("@mariozechner/pi-ai"), await loadCatalog("pi-ai-0.58.3"));
		expect(Object.keys(MODELS)).toEqual(Object.keys(catalogs));
		for (const [provider, models] of Object.entries(MODELS)) {
			expect(models, provider).toStrictEqual(catalogs[provider]);
			// Key order too (toStrictEqual ignores it): the catalog lists models and fields as it always has.
			expect(JSON.stringify(models), provider).toBe(JSON.stringify(catalogs[provider]));
		}
	});

	it("a template literal of the JSON text has the text as its value, whatever characters it holds", () => {
		// \u0024 is "$": the texts hold a template's placeholder opening.
		for (const text of ["", "`", "\\", "\u0024{x}", "$", "{", '"a\\"b"', "\r\n", "\u2028\u2029", "\\`\u0024{`}"]) {
			expect(evaluateTemplate(templateLiteral(text))).toBe(text);
		}
		fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => evaluateTemplate(templateLiteral(text)) === text));
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom("`", "\\", "$", "{", "}", "\r", "\n", "a", '"')).map((parts) => parts.join("")),
				(text) => evaluateTemplate(templateLiteral(text)) === text,
			),
		);
	});
});
