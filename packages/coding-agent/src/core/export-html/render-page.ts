// The whole page: head (inline styles, a policy that forbids scripts and remote loads), session header,
// transcript and usage totals. Built as a list of parts joined once, so the cost is linear in the output.
import { APP_NAME, VERSION } from "../../config.js";
import { escapeHtml, formatTimestamp, previewText } from "./html-text.js";
import { PAGE_STYLES } from "./page-styles.js";
import { entryAnchor } from "./render-entry.js";
import { renderTranscript } from "./render-transcript.js";
import type { SessionView, UsageTotals } from "./session-view.js";
import { asRecord, contentText } from "./untrusted.js";

/** Even if a renderer ever let markup through, the page could not run scripts or fetch anything. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

export interface SessionPageOptions {
	/** The system prompt of a live session, shown collapsed in the header. */
	systemPrompt?: string;
	/** The active tools of a live session, shown collapsed in the header. */
	tools?: readonly { name: string; description: string }[];
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
		view.leafId === undefined ? "" : ` · <a href="#${entryAnchor(view.leafId)}">jump to the current leaf</a>`;
	parts.push(metaRow("Entries", `${view.entries.length}${leaf}`));
	const branches =
		view.branchCount > 1
			? `${view.branchCount} (the current branch is shown in full; others are folded where they fork)`
			: "1";
	parts.push(metaRow("Branches", branches), "</dl>");
	if (options.systemPrompt) {
		parts.push(
			'<details class="collapsible"><summary>System prompt</summary>',
			`<pre>${escapeHtml(options.systemPrompt)}</pre></details>`,
		);
	}
	if (options.tools && options.tools.length > 0) {
		parts.push(`<details class="collapsible"><summary>Tools (${options.tools.length})</summary><dl class="meta">`);
		for (const tool of options.tools) {
			parts.push(metaRow(`<code>${escapeHtml(tool.name)}</code>`, escapeHtml(tool.description)));
		}
		parts.push("</dl></details>");
	}
	parts.push("</header>");
}

function totalsRow(name: string, totals: UsageTotals): string {
	const cells = [
		totals.assistantMessages,
		totals.input,
		totals.output,
		totals.cacheRead,
		totals.cacheWrite,
		totals.input + totals.output + totals.cacheRead + totals.cacheWrite,
	].map((value) => `<td>${value.toLocaleString("en-US")}</td>`);
	return `<tr><td>${name}</td>${cells.join("")}<td>$${totals.cost.toFixed(4)}</td></tr>`;
}

function renderFooter(view: SessionView, parts: string[]): void {
	parts.push(
		'<footer class="session-footer"><table class="totals"><thead><tr><th>Usage</th><th>Responses</th>',
		"<th>Input</th><th>Output</th><th>Cache read</th><th>Cache write</th><th>Total tokens</th><th>Cost</th>",
		"</tr></thead><tbody>",
		totalsRow("Current branch", view.totals.currentBranch),
	);
	if (view.branchCount > 1) parts.push(totalsRow("All branches", view.totals.all));
	parts.push(
		"</tbody></table>",
		`<p class="muted">Exported by ${escapeHtml(APP_NAME)} ${escapeHtml(VERSION)}.</p></footer>`,
	);
}

/** A complete, self-contained HTML document for a session. */
export function renderSessionPage(view: SessionView, options: SessionPageOptions = {}): string {
	const title = pageTitle(view);
	const parts: string[] = [
		'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`,
		`<title>${escapeHtml(`${title} - ${APP_NAME} session`)}</title>`,
		`<style>${PAGE_STYLES}</style></head><body><main>`,
	];
	renderHeader(view, title, options, parts);
	parts.push('<section class="transcript">');
	renderTranscript(view, parts);
	parts.push("</section>");
	renderFooter(view, parts);
	parts.push("</main></body></html>\n");
	return parts.join("");
}
