// Bodies of the message kinds: user, assistant, bash executions, custom messages and summaries.
import { escapeHtml, formatNumber, previewText, renderImage } from "./html-text.js";
import { renderMarkdown } from "./markdown.js";
import { renderCommand, renderPreformatted, renderToolCall } from "./render-tool.js";
import { asArray, asNumber, asRecord, asString, type UnknownRecord } from "./untrusted.js";

/** Shown when an errored or aborted assistant message carries no errorMessage (as print mode does). */
const DEFAULT_ERROR_TEXT = "Request error";
const DEFAULT_ABORTED_TEXT = "Request aborted";

/** User or custom message content: a string, or text and image blocks in order. */
export function renderContent(content: unknown): string {
	if (typeof content === "string") return `<div class="markdown">${renderMarkdown(content)}</div>`;
	const parts: string[] = [];
	for (const block of asArray(content)) {
		const record = asRecord(block);
		if (record?.type === "text" && typeof record.text === "string") {
			parts.push(`<div class="markdown">${renderMarkdown(record.text)}</div>`);
		} else if (record?.type === "image") {
			parts.push(renderImage(record.mimeType, record.data));
		}
	}
	return parts.join("");
}

function renderThinking(block: UnknownRecord): string {
	const thinking = asString(block.thinking) ?? "";
	if (block.redacted === true) return '<div class="thinking muted">Thinking (redacted)</div>';
	if (!/\S/.test(thinking)) return "";
	// Folded, with its first line as the summary: long reasoning would bury the answer.
	return (
		`<details class="thinking"><summary>Thinking <span class="thinking-preview">${escapeHtml(previewText(thinking, 120))}</span></summary>` +
		`<div class="thinking-text">${escapeHtml(thinking)}</div></details>`
	);
}

function formatCost(cost: number): string {
	return `$${cost.toFixed(4)}`;
}

/** `in 1,200 · out 80 · cache read 0 · cache write 1,100 · $0.0089` for one message's usage. */
export function formatUsage(usage: UnknownRecord): string {
	const number = (value: unknown) => formatNumber(asNumber(value) ?? 0);
	const parts = [`in ${number(usage.input)}`, `out ${number(usage.output)}`];
	if (asNumber(usage.cacheRead)) parts.push(`cache read ${number(usage.cacheRead)}`);
	if (asNumber(usage.cacheWrite)) parts.push(`cache write ${number(usage.cacheWrite)}`);
	const cost = asNumber(asRecord(usage.cost)?.total);
	if (cost !== undefined) parts.push(formatCost(cost));
	return parts.join(" · ");
}

export function renderAssistantMessage(message: UnknownRecord): string {
	const parts: string[] = [];
	for (const block of asArray(message.content)) {
		const record = asRecord(block);
		if (!record) continue;
		if (record.type === "text" && typeof record.text === "string") {
			if (record.text.trim() !== "") parts.push(`<div class="markdown">${renderMarkdown(record.text)}</div>`);
		} else if (record.type === "thinking") {
			parts.push(renderThinking(record));
		} else if (record.type === "toolCall") {
			parts.push(renderToolCall(record));
		}
	}
	const stopReason = asString(message.stopReason);
	const errorMessage = asString(message.errorMessage);
	if (stopReason === "error") {
		parts.push(`<div class="error-box">Error: ${escapeHtml(errorMessage ?? DEFAULT_ERROR_TEXT)}</div>`);
	} else if (stopReason === "aborted") {
		parts.push(`<div class="error-box">Aborted: ${escapeHtml(errorMessage ?? DEFAULT_ABORTED_TEXT)}</div>`);
	} else if (stopReason === "length") {
		parts.push('<div class="notice">Stopped: the output length limit was reached.</div>');
	}
	const usage = asRecord(message.usage);
	if (usage) parts.push(`<div class="usage muted">${escapeHtml(formatUsage(usage))}</div>`);
	return parts.join("");
}

/** Title suffix for an assistant message: `provider/model`. */
export function describeAssistantModel(message: UnknownRecord): string {
	const provider = asString(message.provider);
	const model = asString(message.model);
	if (provider && model) return `${provider}/${model}`;
	return model ?? provider ?? "";
}

/** A user `!command` (or `!!command`, kept out of the model's context). */
export function renderBashExecution(message: UnknownRecord): string {
	const command = asString(message.command) ?? "";
	const output = asString(message.output) ?? "";
	const parts = [renderCommand(command), renderPreformatted(output, "output")];
	const notices: string[] = [];
	const exitCode = asNumber(message.exitCode);
	if (message.cancelled === true) notices.push("Command cancelled.");
	else if (exitCode !== undefined && exitCode !== 0) notices.push(`Command exited with code ${exitCode}.`);
	if (message.truncated === true) notices.push("Output truncated.");
	const fullOutputPath = asString(message.fullOutputPath);
	const fullOutput = fullOutputPath === undefined ? "" : ` Full output: <code>${escapeHtml(fullOutputPath)}</code>`;
	if (notices.length > 0 || fullOutput) {
		parts.push(`<div class="notice">${escapeHtml(notices.join(" "))}${fullOutput}</div>`);
	}
	return parts.join("");
}

/** Compaction and branch summaries: the summary (Markdown, collapsed) and the files the summarizer tracked. */
export function renderSummary(summary: unknown, details: unknown): string {
	const parts = [
		'<details class="collapsible"><summary>Summary</summary>',
		`<div class="markdown">${renderMarkdown(asString(summary) ?? "")}</div>`,
	];
	const record = asRecord(details);
	for (const [key, title] of [
		["readFiles", "Read files"],
		["modifiedFiles", "Modified files"],
	] as const) {
		const files = asArray(record?.[key]).filter((file): file is string => typeof file === "string");
		if (files.length === 0) continue;
		parts.push(`<div class="files"><span class="muted">${title}:</span> `);
		parts.push(files.map((file) => `<code>${escapeHtml(file)}</code>`).join(", "), "</div>");
	}
	parts.push("</details>");
	return parts.join("");
}
