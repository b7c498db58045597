// highlight.js for the page: the package's own CommonJS files (a dependency of this package, kept external by the
// bundle), read once per process and wrapped so the page gets highlight.js without a module loader or a fetch.
// Nothing of it runs until the page first highlights a block: the browser only pre-parses the wrapped functions.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * Grammars the page carries: highlight.js's own "common" set (minus VB.NET and WebAssembly), plus a few languages
 * coding sessions often show. About 370 KB of source; grammars the page never uses cost only their parse.
 */
const PAGE_LANGUAGES = [
	"bash",
	"c",
	"cpp",
	"csharp",
	"css",
	"dart",
	"diff",
	"dockerfile",
	"elixir",
	"go",
	"graphql",
	"haskell",
	"ini",
	"java",
	"javascript",
	"json",
	"kotlin",
	"less",
	"lua",
	"makefile",
	"markdown",
	"objectivec",
	"perl",
	"php",
	"plaintext",
	"powershell",
	"protobuf",
	"python",
	"r",
	"ruby",
	"rust",
	"scala",
	"scss",
	"shell",
	"sql",
	"swift",
	"typescript",
	"xml",
	"yaml",
] as const;

/** A CommonJS file as an expression that evaluates to its `module.exports`. */
function wrapCommonJs(source: string): string {
	return `(function () { var module = { exports: {} }; var exports = module.exports;\n${source}\n;return module.exports; })()`;
}

let cachedSource: string | undefined;

/**
 * Script source that defines `function loadHighlighter()`, which returns highlight.js with the page's grammars
 * registered (evaluated on the first call). Undefined when highlight.js cannot be read: the page then shows code
 * unhighlighted.
 */
export function highlighterSource(): string | undefined {
	if (cachedSource !== undefined) return cachedSource || undefined;
	try {
		const require = createRequire(import.meta.url);
		const libDir = dirname(require.resolve("highlight.js/lib/core"));
		const parts = [
			"var loadedHighlighter = null;",
			"function loadHighlighter() {",
			"if (loadedHighlighter) return loadedHighlighter;",
			`var hljs = ${wrapCommonJs(readFileSync(join(libDir, "core.js"), "utf8"))};`,
		];
		for (const name of PAGE_LANGUAGES) {
			const grammar = readFileSync(join(libDir, "languages", `${name}.js`), "utf8");
			parts.push(`hljs.registerLanguage(${JSON.stringify(name)}, ${wrapCommonJs(grammar)});`);
		}
		parts.push("loadedHighlighter = hljs;", "return hljs;", "}");
		cachedSource = parts.join("\n");
	} catch {
		cachedSource = "";
	}
	return cachedSource || undefined;
}
