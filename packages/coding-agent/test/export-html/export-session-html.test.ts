import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { APP_NAME } from "../../src/config.js";
import { ENTRY_FLAGS } from "../../src/core/export-html/entry-outline.js";
import {
	defaultHtmlExportPath,
	exportAgentSessionToHtml,
	exportSessionToHtml,
	HTML_EXPORT_FILE_PREFIX,
	renderSessionTextToHtml,
} from "../../src/core/export-html/index.js";
import { useTempDirs } from "../helpers/session-fixtures.js";
import { everyKindSessionLines, FIXTURE_HEADER, PNG_BASE64, writeSessionFile } from "./export-fixture.js";
import { blockOf, nodeIndex, pathTo, readPage } from "./page-reader.js";

function renderFixture(options: Parameters<typeof renderSessionTextToHtml>[2] = {}): string {
	return renderSessionTextToHtml(`${everyKindSessionLines().join("\n")}\n`, "/tmp/fixture.jsonl", options);
}

describe("exported page content", () => {
	const html = renderFixture();
	const page = readPage(html);

	it("shows the session header: name, id, cwd and creation time", () => {
		expect(page.shell).toContain("<h1>Refactor auth</h1>");
		expect(page.shell).toContain(FIXTURE_HEADER.id);
		expect(page.shell).toContain("/home/alice/proj");
		expect(page.shell).toContain("2025-01-15 09:30:12");
	});

	it("renders user text and images as data URIs", () => {
		const block = blockOf(page, "e3");
		expect(block).toContain("List the files please");
		expect(block).toContain(`src="data:image/png;base64,${PNG_BASE64}"`);
	});

	it("renders assistant Markdown, folded thinking with its first line, the model, and code with its language", () => {
		const block = blockOf(page, "e4");
		expect(block).toContain("I&#39;ll <strong>list</strong> them.");
		expect(block).toMatch(
			/<details class="thinking"><summary>Thinking <span class="thinking-preview">The user wants a listing\.<\/span>/,
		);
		expect(block).toContain("anthropic/claude-sonnet-4-5");
		expect(blockOf(page, "e7")).toContain('<pre class="code"><code class="language-ts">export const answer');
		expect(blockOf(page, "b11")).toContain("Final answer with <code>code</code>");
	});

	it("renders tool calls with their arguments and results: bash output, edit diffs, file reads, errors, truncation", () => {
		const calls = blockOf(page, "e4");
		expect(calls).toContain('<pre class="command"><code class="language-bash">ls -la</code></pre>');
		expect(calls).toContain("&quot;target&quot;: &quot;staging&quot;");
		const bash = blockOf(page, "e5");
		expect(bash).toContain("README.md\nsrc");
		expect(bash).toContain("Output truncated: showing 2 of 3000 lines.");
		expect(bash).toContain("/tmp/agent-bash-0a1b.log");
		expect(bash).toContain('<a class="call-link" href="#entry-e4">call</a>');
		const edit = blockOf(page, "e6");
		expect(edit).toContain(
			'<div class="d-del" data-n="12">\told line</div><div class="d-add" data-n="12">\tnew line</div>',
		);
		expect(edit).not.toContain("...");
		const read = blockOf(page, "e6c");
		expect(read).toContain('<code class="language-ts">export function step0');
		expect(read).toContain('<button type="button" class="fold-toggle">Show all 25 lines</button>');
		const failed = blockOf(page, "e6b");
		expect(failed).toContain("deploy failed: no credentials");
		expect(failed).toContain('<span class="badge error">error</span>');
	});

	it("renders errored and aborted responses with their messages", () => {
		expect(blockOf(page, "a2")).toContain("Error: Rate limit exceeded");
		expect(blockOf(page, "b7")).toContain("Aborted: Request aborted");
	});

	it("renders bash executions, custom messages, extension data, summaries and state changes", () => {
		const bash = blockOf(page, "b3");
		expect(bash).toContain('<code class="language-bash">npm test</code>');
		expect(bash).toContain("1 failing");
		expect(bash).toContain("Command exited with code 1.");
		expect(bash).toContain("not sent to the model");
		expect(blockOf(page, "b4")).toContain("Injected context from the extension");
		expect(blockOf(page, "b5")).toContain("Extension data: my-extension");
		expect(blockOf(page, "b5")).toContain("&quot;count&quot;: 42");
		expect(blockOf(page, "b1")).toContain("Explored approach A; it hit a rate limit.");
		expect(blockOf(page, "b1")).toContain("<code>src/b.ts</code>");
		expect(blockOf(page, "b6")).toContain("50,000 tokens before");
		expect(blockOf(page, "b6")).toContain("<h2>Goal</h2>");
		expect(blockOf(page, "e1")).toContain("Model: <strong>anthropic/claude-sonnet-4-5</strong>");
		expect(blockOf(page, "e2")).toContain("Thinking level: <strong>high</strong>");
		expect(blockOf(page, "b9")).toContain("Session name: <strong>Refactor auth</strong>");
	});

	it("shows labels as a badge on their target, in the tree data, and as an event linking to it", () => {
		expect(blockOf(page, "b2")).toContain('<span class="badge label">checkpoint-1</span>');
		expect(page.data.nodes[nodeIndex(page, "b2")]?.l).toBe("checkpoint-1");
		expect(blockOf(page, "b8")).toContain('Label <strong>checkpoint-1</strong> on <a href="#entry-b2">');
	});

	it("describes every entry for the tree: kind, title, preview and flags", () => {
		const node = (id: string) => page.data.nodes[nodeIndex(page, id)];
		expect(node("e3")).toMatchObject({ k: "user", t: "user", s: "List the files please" });
		expect(node("e4")).toMatchObject({ k: "assistant", t: "assistant", s: "I'll **list** them." });
		expect((node("e4")?.f ?? 0) & ENTRY_FLAGS.thinking).toBeTruthy();
		expect((node("e4")?.f ?? 0) & ENTRY_FLAGS.toolCalls).toBeTruthy();
		expect(node("e5")).toMatchObject({ k: "tool", t: "bash", s: "ls -la" });
		expect(node("e6b")).toMatchObject({ k: "tool", t: "deploy", f: ENTRY_FLAGS.error });
		expect(node("b3")).toMatchObject({ k: "bash", s: "$ npm test" });
		expect(node("b6")).toMatchObject({ k: "summary", t: "compaction", s: "50,000 tokens before" });
		expect(node("e1")).toMatchObject({ k: "event", t: "model", s: "anthropic/claude-sonnet-4-5" });
		expect(node("e4")?.u).toEqual([100, 20, 0, 0, 0.01]);
	});

	it("holds every branch as a tree in pre-order (siblings oldest first) and opens on the file's last entry", () => {
		const ids = page.data.nodes.map((node) => node.id);
		expect(ids.indexOf("a1")).toBeLessThan(ids.indexOf("b1"));
		expect(pathTo(page, nodeIndex(page, "a2"))).toEqual([
			"e1",
			"e2",
			"e3",
			"e4",
			"e5",
			"e6",
			"e6b",
			"e6c",
			"e7",
			"a1",
			"a2",
		]);
		expect(page.data.nodes[page.data.leaf]?.id).toBe("b11");
		expect(pathTo(page, page.data.leaf)).toContain("b10");
		expect(page.shell).toMatch(/<dt>Branches<\/dt><dd>2<\/dd>/);
	});

	it("adds usage totals for the branch the page opens on and for all branches", () => {
		expect(page.shell).toMatch(
			/This branch<\/td><td data-branch-total="0">4<\/td><td data-branch-total="1">400<\/td><td data-branch-total="2">80<\/td>/,
		);
		expect(page.shell).toMatch(/All branches<\/td><td>5<\/td><td>450<\/td><td>80<\/td>/);
		expect(page.shell).toContain("$0.5400");
	});

	it("keeps unknown entry kinds in the tree without a block, and skips corrupt lines", () => {
		const unknown = nodeIndex(page, "b10");
		expect(page.data.nodes[unknown]).toMatchObject({ b: 0, t: "future_kind" });
		expect(page.blocks[unknown]).toBe("");
		expect(html).not.toContain("from a newer program");
		expect(html).not.toContain("broken");
	});

	it("is self-contained: inline styles and scripts, nothing loaded from elsewhere", () => {
		expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
		expect(page.shell).toContain("<style>");
		expect(page.shell).not.toMatch(/<script[^>]*\ssrc=|<link(?![^>]*href="data:)|src="(?!data:)|url\(/i);
		expect(page.scripts).toHaveLength(4);
	});

	it("lets only its own two scripts run: the policy lists their hashes and nothing else", () => {
		const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page.shell)?.[1] ?? "";
		const inline = [page.scripts[0], page.scripts[3]].map(
			(script) =>
				`'sha256-${createHash("sha256")
					.update(script ?? "", "utf8")
					.digest("base64")}'`,
		);
		expect(policy).toBe(
			`default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src ${inline.join(" ")}`,
		);
	});

	it("follows a given leaf instead of the file's last entry", () => {
		const branchA = readPage(renderFixture({ leafId: "a2" }));
		expect(branchA.data.nodes[branchA.data.leaf]?.id).toBe("a2");
	});

	it("shows a live session's system prompt and tools, with their parameters", () => {
		const shell = readPage(
			renderFixture({
				systemPrompt: "You are a helper.",
				tools: [
					{
						name: "read",
						description: "Reads.",
						parameters: {
							type: "object",
							properties: { path: { type: "string", description: "File to read" }, limit: { type: "number" } },
							required: ["path"],
						},
					},
				],
			}),
		).shell;
		expect(shell).toContain('<pre class="system-prompt">You are a helper.</pre>');
		expect(shell).toContain("Tools (1)");
		expect(shell).toContain('<li><code>path</code> <span class="muted">string, required</span> — File to read</li>');
		expect(shell).toContain('<li><code>limit</code> <span class="muted">number</span></li>');
	});
});

describe("exportSessionToHtml", () => {
	const tempDir = useTempDirs("agent-export-html-");

	it("writes agent-session-<basename>.html in the cwd by default and returns that relative path", async () => {
		const dir = tempDir();
		writeSessionFile(dir, "2025-01-15T09-30-12-345Z_abc.jsonl", everyKindSessionLines());
		const written = await exportSessionToHtml("2025-01-15T09-30-12-345Z_abc.jsonl", undefined, { cwd: dir });
		expect(HTML_EXPORT_FILE_PREFIX).toBe(`${APP_NAME}-session-`);
		expect(written).toBe("agent-session-2025-01-15T09-30-12-345Z_abc.html");
		expect(readPage(readFileSync(join(dir, written), "utf8")).shell).toContain("Refactor auth");
	});

	it("writes to the given output path and returns it as given", async () => {
		const dir = tempDir();
		const input = writeSessionFile(dir, "s.jsonl", everyKindSessionLines());
		const output = join(dir, "out.html");
		expect(await exportSessionToHtml(input, output)).toBe(output);
		expect(existsSync(output)).toBe(true);
	});

	it("names the default after the input path's basename", () => {
		expect(defaultHtmlExportPath("/x/y/2025_id.jsonl")).toBe("agent-session-2025_id.html");
	});

	it("fails with File not found for a missing input", async () => {
		const dir = tempDir();
		await expect(exportSessionToHtml("missing.jsonl", undefined, { cwd: dir })).rejects.toThrow(
			"File not found: missing.jsonl",
		);
		expect(existsSync(join(dir, "agent-session-missing.html"))).toBe(false);
	});

	it("refuses a file without a session header and leaves it untouched", async () => {
		const dir = tempDir();
		const input = writeSessionFile(dir, "notes.jsonl", ['{"hello":"world"}']);
		await expect(exportSessionToHtml(input, join(dir, "out.html"))).rejects.toThrow("is not a session file");
		expect(readFileSync(input, "utf8")).toBe('{"hello":"world"}\n');
		expect(existsSync(join(dir, "out.html"))).toBe(false);
	});

	it("exports a 5,000-entry session with forks, every entry on the page", async () => {
		const dir = tempDir();
		const lines = [JSON.stringify(FIXTURE_HEADER)];
		let parent: string | null = null;
		const base = Date.parse("2025-01-15T10:00:00.000Z");
		for (let i = 0; i < 5000; i++) {
			const id = `n${i}`;
			const isUser = i % 2 === 0;
			// Every 50th entry starts an abandoned sibling of the previous one.
			const parentId: string | null = i % 50 === 49 ? `n${i - 2}` : parent;
			const message = isUser
				? { role: "user", content: [{ type: "text", text: `question ${i}` }], timestamp: base + i }
				: {
						role: "assistant",
						content: [{ type: "text", text: `answer ${i}` }],
						stopReason: "stop",
						timestamp: base + i,
					};
			lines.push(
				JSON.stringify({
					type: "message",
					id,
					parentId,
					timestamp: new Date(base + i * 1000).toISOString(),
					message,
				}),
			);
			if (i % 50 !== 49) parent = id;
		}
		const input = writeSessionFile(dir, "big.jsonl", lines);
		const output = await exportSessionToHtml(input, join(dir, "big.html"));
		const page = readPage(readFileSync(output, "utf8"));
		expect(page.blocks.filter((block) => block.startsWith('<article class="entry ')).length).toBe(5000);
		expect(blockOf(page, "n4999")).toContain("answer 4999");
	});
});

describe("exportAgentSessionToHtml", () => {
	const tempDir = useTempDirs("agent-export-html-");

	it("refuses an in-memory session", async () => {
		await expect(exportAgentSessionToHtml({ sessionFile: undefined })).rejects.toThrow(
			"Cannot export in-memory session to HTML",
		);
	});

	it("refuses a session whose file is not written yet", async () => {
		const dir = tempDir();
		await expect(exportAgentSessionToHtml({ sessionFile: join(dir, "new.jsonl") })).rejects.toThrow(
			"Nothing to export yet - start a conversation first",
		);
	});

	it("exports the session file following the session's in-memory leaf, with its system prompt and active tools", async () => {
		const dir = tempDir();
		const sessionFile = writeSessionFile(dir, "live.jsonl", everyKindSessionLines());
		const tool = (name: string) => ({ name, description: `The ${name} tool.`, parameters: {} });
		const session = {
			sessionFile,
			sessionManager: { getLeafId: () => "a2" },
			systemPrompt: "Be brief.",
			getActiveToolNames: () => ["write", "read"],
			getAllTools: () => [tool("read"), tool("bash"), tool("write")],
		};
		const written = await exportAgentSessionToHtml(session, undefined, { cwd: dir });
		expect(written).toBe("agent-session-live.html");
		const page = readPage(readFileSync(join(dir, written), "utf8"));
		expect(page.shell).toContain("Be brief.");
		expect(page.data.nodes[page.data.leaf]?.id).toBe("a2");
		expect(page.shell).toContain("Tools (2)");
		expect(page.shell.indexOf("The write tool.")).toBeLessThan(page.shell.indexOf("The read tool."));
		expect(page.shell).not.toContain("The bash tool.");
	});
});
