import { describe, expect, it } from "vitest";
import { renderSessionTextToHtml } from "../../src/core/export-html/index.js";
import { renderMarkdown } from "../../src/core/export-html/markdown.js";

const ATTACK = `</script><img src=x onerror=alert(1)><script>alert(2)</script>"'&`;

/** Every tag the exporter itself writes. Anything else on the page came from session text. */
const OUR_TAGS = new Set(
	(
		"html head meta title style body main header section footer article div span a p br h1 h2 h3 h4 h5 h6 " +
		"strong em del code pre details summary dl dt dd ul ol li blockquote hr table thead tbody tr th td img"
	).split(" "),
);

/** Checks the markup of a page: only our tags, no event handlers, links only to anchors and http(s)/mailto. */
function expectOnlyOurMarkup(html: string): void {
	const withoutStyles = html.replace(/<style>[^<]*<\/style>/, "");
	for (const match of withoutStyles.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
		const [tag, name = "", attributes = ""] = match;
		expect(OUR_TAGS.has(name.toLowerCase()), `unexpected tag ${tag}`).toBe(true);
		// Attributes are name="value" pairs; a stray quote or an on* name would mean session text escaped.
		const rest = attributes.replace(/\s[a-z-]+="[^"]*"/g, "").trim();
		expect(rest === "" || rest === "/", `unexpected attribute text in ${tag}`).toBe(true);
		for (const attribute of attributes.matchAll(/\s([a-z-]+)="/g)) expect(attribute[1]).not.toMatch(/^on/);
		for (const href of attributes.matchAll(/href="([^"]*)"/g)) {
			expect(href[1]).toMatch(/^(#|https?:\/\/|mailto:)/);
		}
		for (const src of attributes.matchAll(/src="([^"]*)"/g)) {
			expect(src[1]).toMatch(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*$/);
		}
	}
}

function hostileSessionText(): string {
	const ts = "2025-01-15T09:30:13.000Z";
	const lines: unknown[] = [
		{ type: "session", version: 3, id: ATTACK, timestamp: ATTACK, cwd: ATTACK, parentSession: ATTACK },
		{ type: "model_change", id: "m1", parentId: null, timestamp: ts, provider: ATTACK, modelId: ATTACK },
		{ type: "thinking_level_change", id: "t1", parentId: "m1", timestamp: ts, thinkingLevel: ATTACK },
		{
			type: "message",
			id: `"><img src=x onerror=alert(3)>`,
			parentId: "t1",
			timestamp: ATTACK,
			message: {
				role: "user",
				content: [
					{ type: "text", text: ATTACK },
					{ type: "image", mimeType: "image/svg+xml", data: "PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" },
					{ type: "image", mimeType: "image/png", data: `x" onerror="alert(4)` },
				],
				timestamp: 1,
			},
		},
		{
			type: "message",
			id: "a1",
			parentId: `"><img src=x onerror=alert(3)>`,
			timestamp: ts,
			message: {
				role: "assistant",
				content: [
					{ type: "thinking", thinking: ATTACK },
					{
						type: "text",
						text: `# ${ATTACK}\n[click](javascript:alert(5)) [ok](https://example.com/?a="b"&c=<d>)\n\`\`\`${ATTACK}\n${ATTACK}\n\`\`\`\n| ${ATTACK} | b |\n|---|---|\n| **${ATTACK}** | \`${ATTACK}\` |\n> ${ATTACK}\n- ${ATTACK}`,
					},
					{ type: "toolCall", id: ATTACK, name: ATTACK, arguments: { command: ATTACK, nested: { x: ATTACK } } },
					{ type: "toolCall", id: "c2", name: "bash", arguments: { command: ATTACK, timeout: ATTACK } },
					{
						type: "toolCall",
						id: "c3",
						name: "edit",
						arguments: { path: ATTACK, oldText: ATTACK, newText: ATTACK },
					},
					{ type: "toolCall", id: "c4", name: "write", arguments: { path: ATTACK, content: ATTACK } },
					{ type: "toolCall", id: "c5", name: "grep", arguments: { pattern: ATTACK, path: ATTACK, glob: ATTACK } },
				],
				provider: ATTACK,
				model: ATTACK,
				usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { total: 0 } },
				stopReason: "error",
				errorMessage: ATTACK,
				timestamp: 2,
			},
		},
		{
			type: "message",
			id: "r1",
			parentId: "a1",
			timestamp: ts,
			message: {
				role: "toolResult",
				toolCallId: ATTACK,
				toolName: ATTACK,
				content: [{ type: "text", text: ATTACK }],
				details: { diff: ATTACK, fullOutputPath: ATTACK, truncation: { truncated: true } },
				isError: false,
				timestamp: 3,
			},
		},
		{
			type: "message",
			id: "x1",
			parentId: "r1",
			timestamp: ts,
			message: {
				role: "bashExecution",
				command: ATTACK,
				output: ATTACK,
				cancelled: true,
				truncated: true,
				fullOutputPath: ATTACK,
				timestamp: 4,
			},
		},
		{
			type: "custom_message",
			customType: ATTACK,
			content: ATTACK,
			display: false,
			id: "cm",
			parentId: "x1",
			timestamp: ts,
		},
		{ type: "custom", customType: ATTACK, data: { html: ATTACK }, id: "cu", parentId: "cm", timestamp: ts },
		{
			type: "compaction",
			id: "co",
			parentId: "cu",
			timestamp: ts,
			summary: ATTACK,
			firstKeptEntryId: ATTACK,
			tokensBefore: 10,
			details: { readFiles: [ATTACK], modifiedFiles: [ATTACK] },
		},
		{ type: "branch_summary", id: "bs", parentId: "co", timestamp: ts, fromId: ATTACK, summary: ATTACK },
		{ type: "label", id: "la", parentId: "bs", timestamp: ts, targetId: ATTACK, label: ATTACK },
		{ type: "label", id: "lb", parentId: "la", timestamp: ts, targetId: "a1", label: ATTACK },
		{ type: "session_info", id: "si", parentId: "lb", timestamp: ts, name: ATTACK },
		// A sibling branch, so fork summaries carry session text too.
		{
			type: "message",
			id: "u2",
			parentId: "t1",
			timestamp: "2025-01-15T09:30:12.000Z",
			message: { role: "user", content: ATTACK, timestamp: 5 },
		},
	];
	return lines.map((line) => JSON.stringify(line)).join("\n");
}

describe("escaping session text", () => {
	const html = renderSessionTextToHtml(hostileSessionText(), "/tmp/hostile.jsonl", {
		systemPrompt: ATTACK,
		tools: [{ name: ATTACK, description: ATTACK }],
	});

	it("renders markup in every field as text", () => {
		expect(html).not.toMatch(/<script|<img src=x|href="javascript/i);
		expect(html).toContain("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
	});

	it("writes no tag, attribute or link that did not come from the exporter", () => {
		expectOnlyOurMarkup(html);
	});

	it("keeps unsafe links as text and escapes safe ones inside their attribute", () => {
		expect(html).toContain("[click](javascript:alert(5))");
		expect(html).toContain(
			'<a href="https://example.com/?a=&quot;b&quot;&amp;c=&lt;d&gt;" rel="noopener noreferrer">ok</a>',
		);
	});

	it("refuses SVG images and image data that is not base64", () => {
		expect(html).toContain("[image: image/svg+xml not shown]");
		expect(html).toContain("[image: invalid data]");
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
