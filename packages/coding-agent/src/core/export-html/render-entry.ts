// One session entry as one block of the page, by kind. Unknown kinds and roles render as nothing.
import type { SessionEntry } from "../session/entries.js";
import type { EntryKind } from "./entry-outline.js";
import { escapeHtml, formatNumber, formatTimestamp } from "./html-text.js";
import {
	describeAssistantModel,
	renderAssistantMessage,
	renderBashExecution,
	renderContent,
	renderSummary,
} from "./render-message.js";
import { renderToolResult, renderToolResultHead, type ToolCallInfo } from "./render-tool.js";
import { asNumber, asRecord, asString, displayJson, type UnknownRecord } from "./untrusted.js";

export interface EntryRenderContext {
	labels: ReadonlyMap<string, string>;
	toolCalls: ReadonlyMap<string, ToolCallInfo>;
}

/** The HTML id of an entry's block; links to `#entry-<id>` (labels, compactions, results) navigate to it. */
export function entryAnchor(id: string): string {
	return `entry-${escapeHtml(id)}`;
}

function frame(entry: SessionEntry, kind: EntryKind, title: string, body: string, context: EntryRenderContext): string {
	const label = context.labels.get(entry.id);
	const badge = label === undefined ? "" : ` <span class="badge label">${escapeHtml(label)}</span>`;
	const time = asString(entry.timestamp) ?? "";
	return (
		`<article class="entry ${kind}" id="${entryAnchor(entry.id)}"><header class="entry-head">` +
		`<span class="entry-title">${title}</span>${badge}` +
		`<a class="entry-time" href="#${entryAnchor(entry.id)}" title="${escapeHtml(time)}">${escapeHtml(formatTimestamp(time))}</a>` +
		`</header>${body}</article>`
	);
}

/** A one-line block for state changes (model, thinking level, labels, name). */
function event(entry: SessionEntry, text: string, context: EntryRenderContext): string {
	const label = context.labels.get(entry.id);
	const badge = label === undefined ? "" : ` <span class="badge label">${escapeHtml(label)}</span>`;
	return (
		`<div class="entry event" id="${entryAnchor(entry.id)}">${text}${badge}` +
		` <span class="entry-time">${escapeHtml(formatTimestamp(entry.timestamp))}</span></div>`
	);
}

function renderMessageEntry(entry: SessionEntry, message: UnknownRecord, context: EntryRenderContext): string {
	switch (message.role) {
		case "user":
			return frame(entry, "user", "User", renderContent(message.content), context);
		case "assistant": {
			const model = describeAssistantModel(message);
			const title = `Assistant${model ? ` <span class="muted">${escapeHtml(model)}</span>` : ""}`;
			return frame(entry, "assistant", title, renderAssistantMessage(message), context);
		}
		case "toolResult":
			return frame(
				entry,
				"tool",
				renderToolResultHead(message, context.toolCalls),
				renderToolResult(message, context.toolCalls),
				context,
			);
		case "bashExecution": {
			const excluded =
				message.excludeFromContext === true ? ' <span class="badge">not sent to the model</span>' : "";
			return frame(entry, "bash", `User bash${excluded}`, renderBashExecution(message), context);
		}
		case "custom":
			return renderCustomMessage(entry, message, context);
		case "branchSummary":
			return frame(entry, "summary", "Branch summary", renderSummary(message.summary, undefined), context);
		case "compactionSummary":
			return frame(entry, "summary", "Compaction summary", renderSummary(message.summary, undefined), context);
		default:
			return "";
	}
}

function renderCustomMessage(entry: SessionEntry, source: UnknownRecord, context: EntryRenderContext): string {
	const customType = asString(source.customType) ?? "custom";
	const body = renderContent(source.content);
	const title = `Message from <span class="muted">${escapeHtml(customType)}</span>`;
	if (source.display === false) {
		const hidden = `<details class="collapsible"><summary>Hidden from the conversation view</summary>${body}</details>`;
		return frame(entry, "custom", title, hidden, context);
	}
	return frame(entry, "custom", title, body, context);
}

function linkTo(targetId: string): string {
	return `<a href="#${entryAnchor(targetId)}"><code>${escapeHtml(targetId)}</code></a>`;
}

export function renderEntry(entry: SessionEntry, context: EntryRenderContext): string {
	const record = entry as unknown as UnknownRecord;
	switch (entry.type) {
		case "message": {
			const message = asRecord(record.message);
			return message ? renderMessageEntry(entry, message, context) : "";
		}
		case "custom_message":
			return renderCustomMessage(entry, record, context);
		case "thinking_level_change":
			return event(
				entry,
				`Thinking level: <strong>${escapeHtml(asString(record.thinkingLevel) ?? "?")}</strong>`,
				context,
			);
		case "model_change": {
			const model = `${asString(record.provider) ?? "?"}/${asString(record.modelId) ?? "?"}`;
			return event(entry, `Model: <strong>${escapeHtml(model)}</strong>`, context);
		}
		case "compaction": {
			const tokens = asNumber(record.tokensBefore);
			const title = `Compaction${tokens === undefined ? "" : ` <span class="muted">${escapeHtml(formatNumber(tokens))} tokens before</span>`}`;
			const kept = asString(record.firstKeptEntryId);
			const keptNote = kept === undefined ? "" : `<div class="muted">Kept from ${linkTo(kept)} on.</div>`;
			return frame(entry, "summary", title, keptNote + renderSummary(record.summary, record.details), context);
		}
		case "branch_summary":
			return frame(entry, "summary", "Branch summary", renderSummary(record.summary, record.details), context);
		case "custom": {
			const customType = asString(record.customType) ?? "custom";
			const data =
				record.data === undefined ? "" : `<pre class="arguments">${escapeHtml(displayJson(record.data))}</pre>`;
			return event(
				entry,
				`<details class="collapsible"><summary>Extension data: ${escapeHtml(customType)}</summary>${data}</details>`,
				context,
			);
		}
		case "label": {
			const targetId = asString(record.targetId) ?? "";
			const label = asString(record.label);
			return label
				? event(entry, `Label <strong>${escapeHtml(label)}</strong> on ${linkTo(targetId)}`, context)
				: event(entry, `Label cleared on ${linkTo(targetId)}`, context);
		}
		case "session_info": {
			const name = asString(record.name)?.trim();
			return name
				? event(entry, `Session name: <strong>${escapeHtml(name)}</strong>`, context)
				: event(entry, "Session name cleared", context);
		}
		default:
			return "";
	}
}
