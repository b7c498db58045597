// The pieces the page is built from: diff rows, folding, code languages, text helpers, and the embedding of the
// session data and scripts. The page as a whole: export-session-html.test.ts; in a browser: export-html-browser.
import { describe, expect, it } from "vitest";
import {
	ENTRY_SEPARATOR,
	escapeHtml,
	formatNumber,
	joinEntryBlocks,
	jsonForScriptElement,
	scriptForScriptElement,
} from "../../src/core/export-html/html-text.js";
import { highlighterSource } from "../../src/core/export-html/page-highlighter.js";
import { pageScripts } from "../../src/core/export-html/page-script.js";
import { renderDiff, renderReplacement } from "../../src/core/export-html/render-diff.js";
import { languageForPath, renderFold, renderPreformatted } from "../../src/core/export-html/render-tool.js";

describe("diffs", () => {
	it("renders each line of an edit diff as one row: number and sign in attributes, the code as text", () => {
		expect(renderDiff(" 1 a\n-2 b\n+2 c")).toBe(
			'<div class="diff"><div data-n="1">a</div><div class="d-del" data-n="2">b</div><div class="d-add" data-n="2">c</div></div>',
		);
	});

	it("puts no text between rows, so no row renders as an extra blank line", () => {
		const html = renderDiff(" 1 a\n 2 \n+3 x");
		expect(html).not.toMatch(/>\s+</);
		expect(html).toContain('<div data-n="2"></div>');
	});

	it("shows skipped lines as a rule, not as a literal ...", () => {
		const html = renderDiff([" 10 a", "    ...", " 40 b"].join("\n"));
		expect(html).toBe(
			'<div class="diff"><div data-n="10">a</div><hr title="Unchanged lines not shown"><div data-n="40">b</div></div>',
		);
		expect(html).not.toContain("...");
	});

	it("keeps a code line that is itself ... or starts with digits", () => {
		expect(renderDiff(" 5 ...")).toContain('<div data-n="5">...</div>');
		expect(renderDiff("+12 34 apples")).toContain('<div class="d-add" data-n="12">34 apples</div>');
	});

	it("reads unified diffs from extensions: hunk headers become rules, file headers stay text", () => {
		const html = renderDiff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same");
		expect(html).toContain('<div data-n="">--- a/x</div><div data-n="">+++ b/x</div><hr');
		expect(html).toContain(
			'<div class="d-del" data-n="">old</div><div class="d-add" data-n="">new</div><div data-n="">same</div>',
		);
	});

	it("escapes diff text and handles CRLF", () => {
		expect(renderDiff('+1 <b x="1">&\r\n 2 y')).toBe(
			'<div class="diff"><div class="d-add" data-n="1">&lt;b x=&quot;1&quot;&gt;&amp;</div><div data-n="2">y</div></div>',
		);
	});

	it("shows an edit call's old and new text as removed and added rows", () => {
		expect(renderReplacement("a\nb", "c")).toBe(
			'<div class="diff"><div class="d-del" data-n="">a</div><div class="d-del" data-n="">b</div><div class="d-add" data-n="">c</div></div>',
		);
	});
});

describe("long output and code", () => {
	it("folds blocks of more than 20 lines behind a button that says how many there are", () => {
		expect(renderFold("<pre>x</pre>", 20)).toBe("<pre>x</pre>");
		expect(renderFold("<pre>x</pre>", 1234)).toBe(
			'<div class="fold"><div class="fold-body"><pre>x</pre></div><button type="button" class="fold-toggle">Show all 1,234 lines</button></div>',
		);
	});

	it("marks preformatted text with its language, escaped", () => {
		expect(renderPreformatted("a < b", "output", "ts")).toBe(
			'<pre class="output"><code class="language-ts">a &lt; b</code></pre>',
		);
		expect(renderPreformatted("", "output")).toBe('<div class="muted">(no output)</div>');
	});

	it("knows a file's language by extension or name, and refuses odd extensions", () => {
		expect(languageForPath("src/a.TS")).toBe("ts");
		expect(languageForPath("C:\\work\\main.rs")).toBe("rs");
		expect(languageForPath("docker/Dockerfile")).toBe("dockerfile");
		expect(languageForPath("README")).toBeUndefined();
		expect(languageForPath(".bashrc")).toBeUndefined();
		expect(languageForPath('x.a"b')).toBeUndefined();
	});
});

describe("text helpers", () => {
	it("escapes text for elements and quoted attributes", () => {
		expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
		const plain = "no markup here";
		expect(escapeHtml(plain)).toBe(plain);
	});

	it("formats numbers with thousands separators like en-US", () => {
		for (const value of [0, 7, 999, 1000, 65_536, 1_234_567, -4200, 12.5]) {
			expect(formatNumber(value)).toBe(value.toLocaleString("en-US"));
		}
	});
});

describe("embedding in the page", () => {
	it("writes JSON without any <, so no text can end its script element or open a comment", () => {
		const json = jsonForScriptElement({ text: "</script><!-- <script>" });
		expect(json).not.toContain("<");
		expect(JSON.parse(json)).toEqual({ text: "</script><!-- <script>" });
	});

	it("joins entry blocks with a separator no block contains, even a block that holds one", () => {
		const blocks = ["<p>a</p>", "", "<p>b</p>"];
		expect(joinEntryBlocks(blocks).split(ENTRY_SEPARATOR)).toEqual(blocks);
		const odd = ["<p>x<!>y</p>", "<p>z</p>"];
		expect(joinEntryBlocks(odd).split(ENTRY_SEPARATOR)).toEqual(["<p>x&lt;!>y</p>", "<p>z</p>"]);
	});

	it("keeps script source from ending or changing its element", () => {
		expect(scriptForScriptElement('var a = "</script>", b = /<!--/, c = "<SCRIPT>";')).toBe(
			'var a = "\\x3C/script>", b = /\\x3C!--/, c = "\\x3CSCRIPT>";',
		);
	});

	it("carries highlight.js from the package, and the page script holds nothing that could end its element", () => {
		const highlighter = highlighterSource();
		expect(highlighter).toContain("function loadHighlighter()");
		expect(highlighter).toContain('hljs.registerLanguage("typescript"');
		const { app, theme, scriptSources } = pageScripts();
		expect(app).not.toMatch(/<\/script|<!--|<script/i);
		expect(theme).not.toMatch(/<\/script|<!--|<script/i);
		expect(scriptSources).toMatch(/^'sha256-[A-Za-z0-9+/]+=*' 'sha256-[A-Za-z0-9+/]+=*'$/);
	});
});
