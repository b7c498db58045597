/// <reference lib="dom" />
// The exported page as a reader uses it, in headless Chromium (Debian's chromium, driven by playwright-core):
// what is on screen after searching, clicking the tree, toggling filters and the theme; that nothing is fetched and
// nothing logs an error; and that session text never runs as script. Every wait is for a state of the page.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportSessionToHtml } from "../../src/core/export-html/index.js";
import { useTempDirs } from "../helpers/session-fixtures.js";
import { CHROMIUM_MISSING_MESSAGE, findChromium, launchChromium } from "./chromium.js";
import { EDIT_DIFF, everyKindSessionLines, TS_SNIPPET, writeSessionFile } from "./export-fixture.js";
import { ATTACK, hostileSessionText } from "./hostile-fixture.js";
import { largeSessionLines } from "./large-session-fixture.js";

const ARTIFACTS_DIR = join(import.meta.dirname, "..", "..", "test-artifacts");
const chromiumPath = findChromium();
if (!chromiumPath) console.warn(CHROMIUM_MISSING_MESSAGE);

interface OpenedPage {
	page: Page;
	context: BrowserContext;
	/** Console errors and uncaught exceptions. */
	errors: string[];
	/** Requests for anything but the page file itself. */
	requests: string[];
	dialogs: string[];
}

describe.skipIf(!chromiumPath)("exported page in Chromium", () => {
	let browser: Browser;
	const tempDir = useTempDirs("agent-export-browser-");
	const contexts: BrowserContext[] = [];

	beforeAll(async () => {
		browser = await launchChromium(chromiumPath as string);
	}, 120_000);
	afterAll(async () => {
		await browser?.close();
	});

	async function exportLines(lines: readonly string[] | string, name = "session"): Promise<string> {
		const dir = tempDir();
		const input = writeSessionFile(dir, `${name}.jsonl`, typeof lines === "string" ? [lines] : lines);
		return exportSessionToHtml(input, join(dir, `${name}.html`));
	}

	async function open(
		file: string,
		options: { colorScheme?: "light" | "dark"; hash?: string; context?: BrowserContext } = {},
	): Promise<OpenedPage> {
		const context =
			options.context ??
			(await browser.newContext({
				viewport: { width: 1280, height: 900 },
				colorScheme: options.colorScheme ?? "light",
			}));
		contexts.push(context);
		const page = await context.newPage();
		const url = pathToFileURL(file).href;
		const opened: OpenedPage = { page, context, errors: [], requests: [], dialogs: [] };
		page.on("console", (message) => {
			if (message.type() === "error") opened.errors.push(message.text());
		});
		page.on("pageerror", (error) => opened.errors.push(error.message));
		page.on("request", (request) => {
			if (!request.url().startsWith(url)) opened.requests.push(request.url());
		});
		page.on("dialog", (dialog) => {
			opened.dialogs.push(dialog.message());
			void dialog.dismiss();
		});
		await page.goto(url + (options.hash ?? ""));
		await page.waitForSelector("html[data-ready]");
		return opened;
	}

	afterAll(async () => {
		for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
	});

	/** Entry ids of the blocks in the transcript that are displayed. */
	function shownEntries(page: Page): Promise<string[]> {
		return page.$$eval("#entries .slot", (slots) =>
			slots.flatMap((slot) => {
				const block = slot.firstElementChild as HTMLElement | null;
				return block && block.offsetParent !== null ? [block.id.replace(/^entry-/, "")] : [];
			}),
		);
	}

	function treeRowTexts(page: Page): Promise<string[]> {
		return page.$$eval("#tree-rows .tree-row", (rows) => rows.map((row) => row.textContent ?? ""));
	}

	it("opens on the branch, with the tree and header, without console errors or network requests", async () => {
		const file = await exportLines(everyKindSessionLines());
		const { page, errors, requests } = await open(file);
		expect(await page.textContent("h1")).toBe("Refactor auth");
		const shown = await shownEntries(page);
		expect(shown.slice(0, 4)).toEqual(["e1", "e2", "e3", "e4"]);
		expect(shown).toContain("b11");
		expect(shown).not.toContain("a1");
		const rows = await treeRowTexts(page);
		expect(rows.some((row) => row.includes("user: Try approach A"))).toBe(true);
		expect(await page.textContent("#branch-stats")).toContain("2 user messages");
		mkdirSync(ARTIFACTS_DIR, { recursive: true });
		await page.screenshot({ path: join(ARTIFACTS_DIR, "export-html-light.png"), fullPage: true });
		const dark = await open(file, { colorScheme: "dark" });
		await dark.page.screenshot({ path: join(ARTIFACTS_DIR, "export-html-dark.png"), fullPage: true });
		expect([...errors, ...dark.errors]).toEqual([]);
		expect([...requests, ...dark.requests]).toEqual([]);
	});

	it("search narrows the transcript and the tree to matching entries, and Escape restores them", async () => {
		const { page, errors } = await open(await exportLines(everyKindSessionLines()));
		await page.fill("#search", "approach");
		await page.waitForFunction(() => document.querySelectorAll("#entries .slot").length === 2);
		expect(await shownEntries(page)).toEqual(["b1", "b2"]);
		expect(await page.$$eval("#entries mark", (marks) => marks.map((mark) => mark.textContent))).toContain(
			"approach",
		);
		// The tree lists matches on every branch, so the reader can go to the other one.
		const rows = await treeRowTexts(page);
		expect(rows).toHaveLength(3);
		expect(rows.some((row) => row.includes("Try approach A"))).toBe(true);
		expect(await page.textContent("#tree-status")).toBe("3 matches in the session, 2 on this branch");
		await page.press("#search", "Escape");
		await page.waitForFunction(() => document.querySelectorAll("#entries .slot").length > 2);
		expect(await page.$$("#entries mark")).toHaveLength(0);
		expect(errors).toEqual([]);
	});

	it("clicking a tree node shows that node's branch, and the fork bar leads back", async () => {
		const { page, errors } = await open(await exportLines(everyKindSessionLines()));
		await page.click("#tree-rows .tree-row:has-text('Try approach A')");
		await page.waitForSelector("#entry-a1");
		const shown = await shownEntries(page);
		expect(shown).toContain("a2");
		expect(shown).not.toContain("b2");
		expect(await page.getAttribute(".slot.target > article", "id")).toBe("entry-a1");
		expect(await page.textContent("#tree-rows .tree-row.active")).toContain("Try approach A");
		expect(new URL(page.url()).hash).toBe("#entry-a1");
		await page.click(".fork-bar .branch-button:has-text('branch summary')");
		await page.waitForSelector("#entry-b2");
		expect(await shownEntries(page)).not.toContain("a1");
		expect(errors).toEqual([]);
	});

	it("opens on the entry a link names (#entry-<id>), on that entry's branch", async () => {
		const { page } = await open(await exportLines(everyKindSessionLines()), { hash: "#entry-a2" });
		expect(await shownEntries(page)).toContain("a2");
		expect(await page.getAttribute(".slot.target > article", "id")).toBe("entry-a2");
	});

	it("filters hide tool calls and results, and thinking, in the transcript and the tree", async () => {
		const { page, errors } = await open(await exportLines(everyKindSessionLines()));
		expect(await page.isVisible("#entry-e4 .tool-call")).toBe(true);
		await page.click("[data-filter='tools']");
		await page.waitForSelector("#entry-e5", { state: "detached" });
		expect(await page.isVisible("#entry-e4 .tool-call")).toBe(false);
		expect(await page.isVisible("#entry-b3")).toBe(false);
		expect((await treeRowTexts(page)).some((row) => row.startsWith("bash:"))).toBe(false);
		expect(await page.isVisible("#entry-e4 .thinking")).toBe(true);
		await page.click("[data-filter='thinking']");
		await page.waitForSelector("#entry-e4 .thinking", { state: "hidden" });
		expect(await page.isVisible("#entry-e4 .markdown")).toBe(true);
		await page.click("[data-filter='tools']");
		await page.waitForSelector("#entry-e5");
		expect(errors).toEqual([]);
	});

	it("highlights code in Markdown and in file reads, and folds long output until asked", async () => {
		const { page, errors } = await open(await exportLines(everyKindSessionLines()));
		const snippet = page.locator("#entry-e7 pre.code code");
		await snippet.scrollIntoViewIfNeeded();
		await page.waitForSelector("#entry-e7 pre.code code.hljs .hljs-keyword");
		expect(await snippet.textContent()).toBe(TS_SNIPPET);
		expect(await page.$$eval("#entry-e7 .hljs-keyword", (spans) => spans.map((span) => span.textContent))).toContain(
			"export",
		);
		await page.locator("#entry-e6c").scrollIntoViewIfNeeded();
		await page.waitForSelector("#entry-e6c code.hljs .hljs-keyword");
		const fold = page.locator("#entry-e6c .fold");
		const folded = await fold.boundingBox();
		await page.click("#entry-e6c .fold-toggle");
		await page.waitForSelector("#entry-e6c .fold.open");
		expect((await fold.boundingBox())?.height).toBeGreaterThan((folded?.height ?? 0) + 50);
		expect(await page.textContent("#entry-e6c .fold-toggle")).toBe("Show less");
		expect(errors).toEqual([]);
	});

	it("renders a diff as one row per line, without blank lines or a literal ...", async () => {
		const { page } = await open(await exportLines(everyKindSessionLines()));
		const rows = await page.$$eval("#entry-e6 .diff > div", (elements) =>
			elements.map((element) => ({
				text: element.textContent,
				height: element.getBoundingClientRect().height,
				lineHeight: Number.parseFloat(getComputedStyle(element).lineHeight),
				kind: element.className,
			})),
		);
		const expected = EDIT_DIFF.split("\n").filter((line) => !line.endsWith("..."));
		expect(rows.map((row) => row.text)).toEqual(expected.map((line) => line.replace(/^[+\- ] *\d+ /, "")));
		for (const row of rows) expect(row.height).toBeLessThan(row.lineHeight * 1.5);
		expect(rows.map((row) => row.kind)).toEqual(["", "", "", "d-del", "d-add", "", ""]);
		expect(await page.$$("#entry-e6 .diff > hr")).toHaveLength(1);
		expect(await page.textContent("#entry-e6")).not.toContain("...");
	});

	it("follows the system's colour scheme, and the toggle switches it and is remembered", async () => {
		const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
		const dark = await open(await exportLines(everyKindSessionLines()), { colorScheme: "dark" });
		expect(await background(dark.page)).toBe("rgb(21, 23, 27)");
		expect(await dark.page.textContent("#theme-toggle")).toBe("Light");
		await dark.page.click("#theme-toggle");
		await dark.page.waitForSelector("html[data-theme='light']");
		expect(await background(dark.page)).toBe("rgb(246, 247, 249)");
		expect(await dark.page.textContent("#theme-toggle")).toBe("Dark");
		await dark.page.reload();
		await dark.page.waitForSelector("html[data-ready]");
		expect(await background(dark.page)).toBe("rgb(246, 247, 249)");
		expect(dark.errors).toEqual([]);
	});

	it("shows session text that holds </script>, <script> or <img onerror> as text, and runs none of it", async () => {
		const file = await exportLines(hostileSessionText(), "hostile");
		const { page, errors, requests, dialogs } = await open(file);
		expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
		expect(await page.$$("#entries img:not([src^='data:'])")).toHaveLength(0);
		expect(await page.$$("#entries script")).toHaveLength(0);
		expect(await page.textContent("#entries")).toContain(ATTACK.slice(0, 60));
		await page.fill("#search", "pwned");
		await page.waitForSelector("#entries mark");
		expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
		expect(dialogs).toEqual([]);
		expect(requests).toEqual([]);
		expect(errors).toEqual([]);
	});

	it("even markup that got past the escaping runs nothing: the page's policy blocks it", async () => {
		// Simulates an escaping bug: live markup inserted where the page inserts entry blocks.
		const file = await exportLines(everyKindSessionLines());
		const { page, errors, dialogs } = await open(file);
		const refused = page.waitForEvent("console", (message) => /Content Security Policy/i.test(message.text()));
		const injected = await page.evaluate(() => {
			const slot = document.querySelector("#entries .slot");
			if (!slot) return false;
			slot.insertAdjacentHTML(
				"beforeend",
				'<img src="x" onerror="window.__pwned=1"><a id="js" href="javascript:window.__pwned=2">x</a>',
			);
			return true;
		});
		expect(injected).toBe(true);
		await page.click("#js");
		await page.waitForFunction(() => document.querySelector("#js") !== null);
		expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
		expect(dialogs).toEqual([]);
		// Chromium reports each blocked attempt as a console error naming the policy, and nothing else went wrong.
		await refused;
		expect(errors.length).toBeGreaterThan(0);
		expect(errors.every((error) => /Content Security Policy/i.test(error))).toBe(true);
	});

	it("opens a 5,000-message session on a window of the transcript and grows it as the reader scrolls", async () => {
		const { page, errors, requests } = await open(await exportLines(largeSessionLines(5000), "large"));
		const initial = await page.$$eval("#entries .slot", (slots) => slots.length);
		expect(initial).toBeGreaterThan(10);
		expect(initial).toBeLessThanOrEqual(60);
		expect(await page.$$eval("#tree-rows .tree-row", (rows) => rows.length)).toBeLessThan(150);
		expect(await page.textContent("#tree-status")).toMatch(/^5,0\d\d entries of 5,0\d\d shown$/);
		await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
		await page.waitForFunction((count) => document.querySelectorAll("#entries .slot").length > count, initial);
		await page.click("#jump-leaf");
		await page.waitForSelector(".slot.target");
		const target = await page.getAttribute(".slot.target", "data-node");
		const lastNode = await page.evaluate(() => {
			const data = JSON.parse(document.getElementById("session-data")?.textContent ?? "{}") as { leaf: number };
			return data.leaf;
		});
		expect(Number(target)).toBe(lastNode);
		expect(await page.isVisible("#more-before")).toBe(true);
		// Search reads every entry: it unpacks the segments the page has not shown yet.
		await page.fill("#search", '"checkpoint-4750"');
		await page.waitForFunction(() => document.querySelector("#tree-status")?.textContent?.startsWith("2 matches"));
		expect(await page.$$eval("#entries .slot", (slots) => slots.length)).toBe(2);
		expect(errors).toEqual([]);
		expect(requests).toEqual([]);
	});
});
