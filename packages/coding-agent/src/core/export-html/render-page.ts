// The whole page: head (inline styles, a policy that allows only the page's own scripts and no remote loads), the
// sidebar (search, filters, theme, tree), the session header (system prompt, tools), the transcript the script
// fills, usage totals, the session data and the script. Built as a list of parts joined once.
import { APP_NAME, VERSION } from "../../config.js";
import { escapeHtml, formatNumber, formatTimestamp, jsonForScriptElement, previewText } from "./html-text.js";
import { buildPageContent } from "./page-data.js";
import { pageScripts, SESSION_DATA_ELEMENT_ID, SESSION_ENTRIES_ELEMENT_ID } from "./page-script.js";
import { PAGE_STYLES } from "./page-styles.js";
import type { SessionView, UsageTotals } from "./session-view.js";
import { asArray, asRecord, asString, contentText } from "./untrusted.js";

/** A tool as the header lists it; `parameters` is its JSON schema. */
export interface ExportedTool {
	name: string;
	description: string;
	parameters?: unknown;
}

export interface SessionPageOptions {
	/** The system prompt of a live session, shown collapsed in the header. */
	systemPrompt?: string;
	/** The active tools of a live session, shown collapsed in the header. */
	tools?: readonly ExportedTool[];
}

/** The filter toggles of the sidebar: the key the page script knows them by, and their label. */
export const PAGE_FILTERS = [
	{ key: "messages", label: "Messages", title: "User and assistant text, custom messages and summaries" },
	{ key: "tools", label: "Tools", title: "Tool calls, tool results and user shell commands" },
	{ key: "thinking", label: "Thinking", title: "The model's thinking" },
	{ key: "events", label: "Events", title: "Model and thinking-level changes, labels, names, extension data" },
] as const;

function contentSecurityPolicy(scriptSources: string): string {
	return `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src ${scriptSources}`;
}

function pageTitle(view: SessionView): string {
	if (view.name) return view.name;
	for (const entry of view.currentPath) {
		if (entry.type !== "message") continue;
		const message = asRecord(entry.message);
		if (message?.role !== "user") continue;
		const text = previewText(contentText(message.content), 60);
		if (text) return text;
	}
	return `Session ${view.header.id}`;
}

function metaRow(title: string, valueHtml: string): string {
	return `<dt>${title}</dt><dd>${valueHtml}</dd>`;
}

function renderSidebar(title: string, parts: string[]): void {
	parts.push(
		'<aside class="sidebar"><div class="sidebar-head">',
		`<div class="sidebar-title"><strong title="${escapeHtml(title)}">${escapeHtml(title)}</strong>`,
		'<button type="button" class="chip" id="theme-toggle">Theme</button></div>',
		'<input type="search" class="search" id="search" placeholder="Search (press /)" aria-label="Search the session" autocomplete="off">',
		'<div class="filters" role="group" aria-label="Show">',
	);
	for (const filter of PAGE_FILTERS) {
		parts.push(
			`<button type="button" class="chip" data-filter="${filter.key}" aria-pressed="true" title="${filter.title}">${filter.label}</button>`,
		);
	}
	parts.push(
		"</div></div>",
		'<div class="tree" id="tree" role="tree" aria-label="Session tree"><div class="tree-rows" id="tree-rows"></div></div>',
		'<div class="tree-status" id="tree-status"></div></aside>',
	);
}

/** A JSON schema's properties as `name type (required) — description` lines. */
function renderToolParameters(parameters: unknown): string {
	const schema = asRecord(parameters);
	const properties = asRecord(schema?.properties);
	if (!properties) return "";
	const required = new Set(asArray(schema?.required).filter((name): name is string => typeof name === "string"));
	const items = Object.entries(properties).map(([name, value]) => {
		const property = asRecord(value);
		const type = asString(property?.type) ?? "";
		const description = asString(property?.description);
		return (
			`<li><code>${escapeHtml(name)}</code> <span class="muted">${escapeHtml(type)}` +
			`${required.has(name) ? ", required" : ""}</span>${description ? ` — ${escapeHtml(description)}` : ""}</li>`
		);
	});
	return items.length > 0 ? `<ul class="tool-params">${items.join("")}</ul>` : "";
}

function renderHeader(view: SessionView, title: string, options: SessionPageOptions, parts: string[]): void {
	const header = view.header;
	parts.push(`<header class="session-header"><h1>${escapeHtml(title)}</h1><dl class="meta">`);
	if (view.name) parts.push(metaRow("Name", escapeHtml(view.name)));
	parts.push(metaRow("Session", `<code>${escapeHtml(String(header.id))}</code>`));
	parts.push(metaRow("Directory", `<code>${escapeHtml(String(header.cwd ?? ""))}</code>`));
	parts.push(metaRow("Created", escapeHtml(formatTimestamp(header.timestamp))));
	if (typeof header.parentSession === "string") {
		parts.push(metaRow("Forked from", `<code>${escapeHtml(header.parentSession)}</code>`));
	}
	const leaf =
		view.leafId === undefined
			? ""
			: ' · <button type="button" class="link-button" id="jump-leaf">jump to the end</button>';
	parts.push(metaRow("Entries", `${view.entries.length}${leaf}`));
	parts.push(metaRow("Branches", String(view.branchCount)));
	parts.push(metaRow("This branch", '<span id="branch-stats"></span>'), "</dl>");
	if (options.systemPrompt) {
		parts.push(
			'<details class="collapsible"><summary>System prompt</summary>',
			`<pre class="system-prompt">${escapeHtml(options.systemPrompt)}</pre></details>`,
		);
	}
	if (options.tools && options.tools.length > 0) {
		parts.push(
			`<details class="collapsible"><summary>Tools (${options.tools.length})</summary><ul class="tool-list">`,
		);
		for (const tool of options.tools) {
			parts.push(
				`<li><span class="tool-name">${escapeHtml(tool.name)}</span> — ${escapeHtml(tool.description)}`,
				renderToolParameters(tool.parameters),
				"</li>",
			);
		}
		parts.push("</ul></details>");
	}
	parts.push("</header>");
}

function totalsCells(totals: UsageTotals): number[] {
	const tokens = totals.input + totals.output + totals.cacheRead + totals.cacheWrite;
	return [totals.assistantMessages, totals.input, totals.output, totals.cacheRead, totals.cacheWrite, tokens];
}

function renderFooter(view: SessionView, parts: string[]): void {
	// The current branch's cells carry data-branch-total: the script recomputes them for the branch on screen.
	const branchCells = totalsCells(view.totals.currentBranch)
		.map((value, index) => `<td data-branch-total="${index}">${formatNumber(value)}</td>`)
		.join("");
	const allCells = totalsCells(view.totals.all)
		.map((value) => `<td>${formatNumber(value)}</td>`)
		.join("");
	parts.push(
		'<footer class="session-footer"><table class="totals"><thead><tr><th>Usage</th><th>Responses</th>',
		"<th>Input</th><th>Output</th><th>Cache read</th><th>Cache write</th><th>Total tokens</th><th>Cost</th>",
		"</tr></thead><tbody>",
		`<tr><td>This branch</td>${branchCells}<td data-branch-total="cost">$${view.totals.currentBranch.cost.toFixed(4)}</td></tr>`,
		`<tr><td>All branches</td>${allCells}<td>$${view.totals.all.cost.toFixed(4)}</td></tr>`,
		"</tbody></table>",
		`<p class="muted">Exported by ${escapeHtml(APP_NAME)} ${escapeHtml(VERSION)}.</p></footer>`,
	);
}

/** A complete, self-contained HTML document for a session. */
export function renderSessionPage(view: SessionView, options: SessionPageOptions = {}): string {
	const title = pageTitle(view);
	const scripts = pageScripts();
	const content = buildPageContent(view);
	const parts: string[] = [
		'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		`<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(scripts.scriptSources)}">`,
		'<link rel="icon" href="data:,">',
		`<title>${escapeHtml(`${title} - ${APP_NAME} session`)}</title>`,
		`<script>${scripts.theme}</script>`,
		`<style>${PAGE_STYLES}</style></head><body><div class="app">`,
	];
	renderSidebar(title, parts);
	parts.push('<main class="content">');
	renderHeader(view, title, options, parts);
	parts.push(
		'<section class="transcript" id="transcript" aria-label="Conversation">',
		'<button type="button" class="more" id="more-before" hidden></button><div id="entries"></div>',
		'<button type="button" class="more" id="more-after" hidden></button>',
		'<p class="empty" id="empty" hidden>No entries of this branch match the search and filters.</p>',
		'<noscript><p class="empty">The conversation is shown by the page\'s script; enable JavaScript to read it.</p></noscript>',
		"</section>",
	);
	renderFooter(view, parts);
	parts.push(
		"</main></div>",
		`<script type="application/json" id="${SESSION_DATA_ELEMENT_ID}">${jsonForScriptElement(content.data)}</script>`,
		`<script type="application/json" id="${SESSION_ENTRIES_ELEMENT_ID}">${JSON.stringify(content.segments)}</script>`,
		`<script>${scripts.app}</script>`,
		"</body></html>\n",
	);
	return parts.join("");
}
