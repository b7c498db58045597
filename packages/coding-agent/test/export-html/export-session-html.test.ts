import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { APP_NAME } from "../../src/config.js";
import {
	defaultHtmlExportPath,
	exportAgentSessionToHtml,
	exportSessionToHtml,
	HTML_EXPORT_FILE_PREFIX,
	renderSessionTextToHtml,
} from "../../src/core/export-html/index.js";
import { useTempDirs } from "../helpers/session-fixtures.js";
import { everyKindSessionLines, FIXTURE_HEADER, PNG_BASE64, writeSessionFile } from "./export-fixture.js";

function renderFixture(options: Parameters<typeof renderSessionTextToHtml>[2] = {}): string {
	return renderSessionTextToHtml(`${everyKindSessionLines().join("\n")}\n`, "/tmp/fixture.jsonl", options);
}

/** Position of a text in the page; fails the test when it is missing. */
function positionOf(html: string, text: string): number {
	const index = html.indexOf(text);
	expect(index, `"${text}" is on the page`).toBeGreaterThanOrEqual(0);
	return index;
}

describe("exported page content", () => {
	const html = renderFixture();

	it("shows the session header: name, id, cwd and creation time", () => {
		expect(html).toContain("<h1>Refactor auth</h1>");
		expect(html).toContain(FIXTURE_HEADER.id);
		expect(html).toContain("/home/alice/proj");
		expect(html).toContain("2025-01-15 09:30:12");
	});

	it("renders user text and images as data URIs", () => {
		expect(html).toContain("List the files please");
		expect(html).toContain(`src="data:image/png;base64,${PNG_BASE64}"`);
	});

	it("renders assistant Markdown, collapsed thinking, and the model", () => {
		expect(html).toContain("I&#39;ll <strong>list</strong> them.");
		expect(html).toMatch(/<details class="thinking"><summary>Thinking<\/summary>[\s\S]*The user wants a listing\./);
		expect(html).toContain("anthropic/claude-sonnet-4-5");
		expect(html).toContain("Final answer with <code>code</code>");
	});

	it("renders tool calls with their arguments and results: bash output, edit diffs, errors, truncation", () => {
		expect(html).toContain('<pre class="command">$ ls -la</pre>');
		expect(html).toContain('<span class="diff-add">+1 new line</span>');
		expect(html).toContain('<span class="diff-del">-1 old line</span>');
		expect(html).toContain("README.md\nsrc");
		expect(html).toContain("Output truncated: showing 2 of 3000 lines.");
		expect(html).toContain("/tmp/agent-bash-0a1b.log");
		expect(html).toContain("&quot;target&quot;: &quot;staging&quot;");
		expect(html).toContain("deploy failed: no credentials");
		expect(html).toContain('<span class="badge error">error</span>');
		expect(html).toContain('href="#call-call_bash"');
	});

	it("renders errored and aborted responses with their messages", () => {
		expect(html).toContain("Error: Rate limit exceeded");
		expect(html).toContain("Aborted: Request aborted");
	});

	it("renders bash executions, custom messages, extension data, summaries and state changes", () => {
		expect(html).toContain("$ npm test");
		expect(html).toContain("1 failing");
		expect(html).toContain("Command exited with code 1.");
		expect(html).toContain("not sent to the model");
		expect(html).toContain("Injected context from the extension");
		expect(html).toContain("Extension data: my-extension");
		expect(html).toContain("&quot;count&quot;: 42");
		expect(html).toContain("Explored approach A; it hit a rate limit.");
		expect(html).toContain("<code>src/b.ts</code>");
		expect(html).toContain("50,000 tokens before");
		expect(html).toContain("<h2>Goal</h2>");
		expect(html).toContain("Model: <strong>anthropic/claude-sonnet-4-5</strong>");
		expect(html).toContain("Thinking level: <strong>high</strong>");
		expect(html).toContain("Session name: <strong>Refactor auth</strong>");
	});

	it("shows labels as a badge on their target and as an event linking to it", () => {
		const target = html.slice(positionOf(html, 'id="entry-b2"'));
		expect(target.slice(0, 400)).toContain('<span class="badge label">checkpoint-1</span>');
		expect(html).toContain('Label <strong>checkpoint-1</strong> on <a href="#entry-b2">');
	});

	it("reads the current branch top to bottom and folds the other branch where it forks", () => {
		const order = ["entry-e3", "entry-e4", "entry-e7", "entry-b1", "entry-b2", "entry-b7", "entry-b11"].map((id) =>
			positionOf(html, `id="${id}"`),
		);
		expect(order).toEqual([...order].sort((a, b) => a - b));
		const fork = positionOf(html, 'id="fork-e7"');
		const branchA = positionOf(html, 'id="entry-a1"');
		expect(fork).toBeGreaterThan(order[2] as number);
		expect(branchA).toBeGreaterThan(fork);
		expect(branchA).toBeLessThan(order[3] as number);
		expect(html.slice(fork, branchA)).toContain('<details class="branch">');
		expect(html).toContain("1 other branch");
	});

	it("adds usage totals for the current branch and for all branches", () => {
		expect(html).toMatch(/Current branch<\/td><td>4<\/td><td>400<\/td><td>80<\/td>/);
		expect(html).toMatch(/All branches<\/td><td>5<\/td><td>450<\/td><td>80<\/td>/);
		expect(html).toContain("$0.5400");
	});

	it("skips unknown entry kinds and corrupt lines", () => {
		expect(html).not.toContain("from a newer program");
		expect(html).not.toContain('id="entry-b10"');
		expect(html).not.toContain("broken");
	});

	it("is self-contained: inline styles, no scripts, nothing loaded from elsewhere", () => {
		expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
		expect(html).toContain("<style>");
		expect(html).not.toMatch(/<script|<link|src="http|url\(/i);
		expect(html).toContain("Content-Security-Policy");
	});

	it("follows a given leaf instead of the file's last entry", () => {
		const branchA = renderFixture({ leafId: "a2" });
		// Now the branch through b2 is the one folded at the fork, and a1 continues the transcript after it.
		const fork = positionOf(branchA, 'id="fork-e7"');
		const folded = positionOf(branchA, 'id="entry-b2"');
		expect(folded).toBeGreaterThan(fork);
		expect(positionOf(branchA, 'id="entry-a1"')).toBeGreaterThan(folded);
		expect(branchA.slice(fork, folded)).toContain('<details class="branch">');
		expect(branchA).toContain('<a href="#entry-a2">jump to the current leaf</a>');
	});

	it("shows a live session's system prompt and tools when given", () => {
		const page = renderFixture({
			systemPrompt: "You are a helper.",
			tools: [{ name: "read", description: "Reads." }],
		});
		expect(page).toContain("You are a helper.");
		expect(page).toContain("Tools (1)");
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
		expect(readFileSync(join(dir, written), "utf8")).toContain("Refactor auth");
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
		const html = readFileSync(output, "utf8");
		expect(html.match(/<article class="entry /g)?.length).toBe(5000);
		expect(html).toContain("answer 4999");
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

	it("exports the session file following the session's in-memory leaf and showing its system prompt", async () => {
		const dir = tempDir();
		const sessionFile = writeSessionFile(dir, "live.jsonl", everyKindSessionLines());
		const session = { sessionFile, sessionManager: { getLeafId: () => "a2" }, systemPrompt: "Be brief." };
		const written = await exportAgentSessionToHtml(session, undefined, { cwd: dir });
		expect(written).toBe("agent-session-live.html");
		const html = readFileSync(join(dir, written), "utf8");
		expect(html).toContain("Be brief.");
		expect(html).toContain('<a href="#entry-a2">jump to the current leaf</a>');
	});
});
