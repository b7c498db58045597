import { describe, expect, it } from "vitest";
import { renderSessionTextToHtml } from "../../src/core/export-html/index.js";
import { renderMarkdown } from "../../src/core/export-html/markdown.js";
import { ATTACK, hostileSessionText } from "./hostile-fixture.js";
import { readPage } from "./page-reader.js";

/** Every tag the exporter writes into entry blocks. Anything else in a block came from session text. */
const BLOCK_TAGS = new Set(
	(
		"article header div span a p br h1 h2 h3 h4 h5 h6 strong em del code pre details summary ul ol li " +
		"blockquote hr table thead tbody tr th td img button"
	).split(" "),
);
/** Tags of the page around the blocks. */
const SHELL_TAGS = new Set(
	"html head meta link title script style body div aside strong button input main header h1 dl dt dd details summary pre ul li span code section p noscript footer table thead tbody tr th td".split(
		" ",
	),
);

/**
 * Checks markup: only the given tags, attributes only as name="value" pairs (plus the bare ones allowed), no event
 * handlers, links only to anchors and http(s)/mailto, images only as raster data URLs.
 */
function expectOnlyOurMarkup(html: string, tags: ReadonlySet<string>, bareAttributes: readonly string[] = []): void {
	for (const match of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
		const [tag, name = "", attributes = ""] = match;
		expect(tags.has(name.toLowerCase()), `unexpected tag ${tag}`).toBe(true);
		// A stray quote or an on* name would mean session text escaped its attribute.
		let rest = attributes.replace(/\s[a-z-]+="[^"]*"/g, "");
		for (const bare of bareAttributes) rest = rest.replace(new RegExp(`\\s${bare}(?=\\s|$)`), "");
		rest = rest.trim();
		expect(rest === "" || rest === "/", `unexpected attribute text in ${tag}`).toBe(true);
		for (const attribute of attributes.matchAll(/\s([a-z-]+)="/g)) expect(attribute[1]).not.toMatch(/^on/);
		for (const href of attributes.matchAll(/href="([^"]*)"/g)) {
			expect(href[1]).toMatch(/^(#|https?:\/\/|mailto:|data:,$)/);
		}
		for (const src of attributes.matchAll(/src="([^"]*)"/g)) {
			expect(src[1]).toMatch(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*$/);
		}
	}
}

describe("escaping session text", () => {
	const html = renderSessionTextToHtml(hostileSessionText(), "/tmp/hostile.jsonl", {
		systemPrompt: ATTACK,
		tools: [{ name: ATTACK, description: ATTACK, parameters: { properties: { [ATTACK]: { type: ATTACK } } } }],
	});
	const page = readPage(html);
	const escapedAttack =
		"&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;window.__pwned=2&lt;/script&gt;";

	it("renders markup in every field as text, in the page and in every block", () => {
		expect(page.shell).not.toMatch(/<img src=x|href="javascript/i);
		expect(page.shell).toContain(escapedAttack);
		const blocks = page.blocks.join("\n");
		expect(blocks).not.toMatch(/<script|<img src=x|href="javascript/i);
		expect(blocks).toContain(escapedAttack);
	});

	it("embeds the session as data that cannot end its element: no < in the nodes' JSON, base64 for the blocks", () => {
		const [, data, entries] = page.scripts;
		expect(data).not.toContain("<");
		expect(data).toContain("\\u003c/script>");
		expect(entries).toMatch(/^\["[A-Za-z0-9+/=",]*"\]$/);
		// The tree's titles and previews are plain text for textContent; they round-trip unchanged.
		expect(page.data.nodes.some((node) => node.s.includes(ATTACK.slice(0, 40)))).toBe(true);
	});

	it("writes no tag, attribute or link that did not come from the exporter", () => {
		expectOnlyOurMarkup(page.shell.replace(/<style>[^<]*<\/style>/, ""), SHELL_TAGS, ["hidden"]);
		for (const block of page.blocks) expectOnlyOurMarkup(block, BLOCK_TAGS);
	});

	it("keeps unsafe links as text and escapes safe ones inside their attribute", () => {
		const blocks = page.blocks.join("\n");
		expect(blocks).toContain("[click](javascript:alert(5))");
		expect(blocks).toContain(
			'<a href="https://example.com/?a=&quot;b&quot;&amp;c=&lt;d&gt;" rel="noopener noreferrer">ok</a>',
		);
	});

	it("refuses SVG images and image data that is not base64", () => {
		const blocks = page.blocks.join("\n");
		expect(blocks).toContain("[image: image/svg+xml not shown]");
		expect(blocks).toContain("[image: invalid data]");
	});
});

describe("Markdown rendering", () => {
	it("renders fenced code with a safe language class and escaped content", () => {
		expect(renderMarkdown("```ts\nconst a = 1 < 2;\n```")).toBe(
			'<pre class="code"><code class="language-ts">const a = 1 &lt; 2;</code></pre>',
		);
		expect(renderMarkdown('```x"onclick=1\ncode\n```')).toBe('<pre class="code"><code>code</code></pre>');
	});

	it("renders an unclosed fence to the end of the text", () => {
		expect(renderMarkdown("```\nline 1\nline 2")).toBe('<pre class="code"><code>line 1\nline 2</code></pre>');
	});

	it("renders headings, rules, quotes, lists and tables", () => {
		expect(renderMarkdown("## Title ##")).toBe("<h2>Title</h2>");
		expect(renderMarkdown("---")).toBe("<hr>");
		expect(renderMarkdown("> quoted\n> more")).toBe("<blockquote><p>quoted<br>\nmore</p></blockquote>");
		expect(renderMarkdown("- one\n- two\n  - nested")).toBe(
			'<ul><li>one</li><li>two</li><li class="indent-1">nested</li></ul>',
		);
		expect(renderMarkdown("3. three\n4. four")).toBe('<ol start="3"><li>three</li><li>four</li></ol>');
		expect(renderMarkdown("| a | b |\n|---|:-:|\n| 1 | x \\| y |")).toBe(
			"<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>x | y</td></tr></tbody></table>",
		);
	});

	it("keeps a paragraph's line breaks", () => {
		expect(renderMarkdown("first\nsecond\n\nthird")).toBe("<p>first<br>\nsecond</p><p>third</p>");
	});

	it("renders code spans, emphasis and strikethrough without touching snake_case or lone stars", () => {
		expect(renderMarkdown("**bold** *it* _it_ ~~gone~~ `a <b>` snake_case_name 2 * 3 * 4")).toBe(
			"<p><strong>bold</strong> <em>it</em> <em>it</em> <del>gone</del> <code>a &lt;b&gt;</code> snake_case_name 2 * 3 * 4</p>",
		);
		expect(renderMarkdown("``code with ` inside``")).toBe("<p><code>code with ` inside</code></p>");
		expect(renderMarkdown("unclosed ` tick")).toBe("<p>unclosed ` tick</p>");
	});

	it("keeps #s that close no heading", () => {
		expect(renderMarkdown("# C# #")).toBe("<h1>C#</h1>");
		expect(renderMarkdown("#hashtag")).toBe("<p>#hashtag</p>");
	});

	it("renders long runs of markers and spaces (each construct is found in one pass)", () => {
		const spaces = " ".repeat(50_000);
		expect(renderMarkdown("`` ` ".repeat(20_000))).toContain("``");
		expect(renderMarkdown(`# a${spaces}b`)).toContain("<h1>a");
		expect(renderMarkdown(`a | b\n|-${spaces}x`)).toContain("<p>a | b");
		expect(renderMarkdown(`${"*a ".repeat(20_000)}\n${"_b ".repeat(20_000)}`)).toContain("*a");
	});
});
