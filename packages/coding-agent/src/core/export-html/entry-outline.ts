// What the page needs to know of an entry besides its HTML: its kind (styles and filters), a title and a one-line
// preview for the tree, and flags for the blocks an assistant message holds. All plain text: the page script
// inserts these with textContent.
import type { SessionEntry } from "../session/entries.js";
import { formatNumber, previewText } from "./html-text.js";
import type { ToolCallInfo } from "./render-tool.js";
import { asArray, asNumber, asRecord, asString, contentText, type UnknownRecord } from "./untrusted.js";

/** Kinds of entry blocks: the CSS class of the block and what the page's filters act on. */
export const ENTRY_KINDS = ["user", "assistant", "tool", "bash", "custom", "summary", "event", "other"] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** Bits of `EntryOutline.flags`: which blocks an assistant message holds. */
export const ENTRY_FLAGS = { text: 1, thinking: 2, toolCalls: 4, error: 8 } as const;

export interface EntryOutline {
	kind: EntryKind;
	title: string;
	preview: string;
	flags: number;
}

const PREVIEW_LENGTH = 100;
const NOT_BLANK = /\S/;

/** The gist of a tool call's arguments: the command, path or pattern of a built-in tool, else compact JSON. */
export function summarizeToolCall(name: string, args: unknown): string {
	const record = asRecord(args);
	const pick = (key: string) => asString(record?.[key]);
	switch (name) {
		case "bash":
			return previewText(pick("command") ?? "", PREVIEW_LENGTH);
		case "read":
		case "write":
		case "edit":
		case "ls":
			return pick("path") ?? "";
		case "find":
		case "grep": {
			const pattern = pick("pattern") ?? "";
			const path = pick("path");
			return path === undefined ? pattern : `${pattern} in ${path}`;
		}
		default: {
			if (args === undefined) return "";
			let json: string | undefined;
			try {
				json = JSON.stringify(args);
			} catch {
				json = undefined;
			}
			return previewText(json ?? "", PREVIEW_LENGTH);
		}
	}
}

function outlineAssistant(message: UnknownRecord): EntryOutline {
	let flags = 0;
	let text = "";
	const calls: string[] = [];
	for (const block of asArray(message.content)) {
		const record = asRecord(block);
		if (record?.type === "text" && typeof record.text === "string" && NOT_BLANK.test(record.text)) {
			flags |= ENTRY_FLAGS.text;
			if (!text) text = record.text;
		} else if (record?.type === "thinking") {
			if (record.redacted === true || NOT_BLANK.test(asString(record.thinking) ?? "")) flags |= ENTRY_FLAGS.thinking;
		} else if (record?.type === "toolCall") {
			flags |= ENTRY_FLAGS.toolCalls;
			const name = asString(record.name) ?? "tool";
			const summary = summarizeToolCall(name, record.arguments);
			calls.push(summary ? `${name} ${summary}` : name);
		}
	}
	const stopReason = asString(message.stopReason);
	if (stopReason === "error" || stopReason === "aborted") flags |= ENTRY_FLAGS.error;
	let preview = previewText(text, PREVIEW_LENGTH);
	if (!preview && calls.length > 0) preview = previewText(`→ ${calls.join(" · ")}`, PREVIEW_LENGTH);
	if (!preview && flags & ENTRY_FLAGS.error) {
		const fallback = stopReason === "error" ? "Error" : "Aborted";
		preview = previewText(asString(message.errorMessage) ?? fallback, PREVIEW_LENGTH);
	}
	return { kind: "assistant", title: "assistant", preview, flags };
}

function outlineContent(content: unknown): string {
	const text = previewText(contentText(content), PREVIEW_LENGTH);
	if (text) return text;
	return asArray(content).some((block) => asRecord(block)?.type === "image") ? "[image]" : "";
}

function outlineMessage(message: UnknownRecord, toolCalls: ReadonlyMap<string, ToolCallInfo>): EntryOutline {
	const plain = (kind: EntryKind, title: string, preview: string): EntryOutline => ({
		kind,
		title,
		preview,
		flags: 0,
	});
	switch (message.role) {
		case "user":
			return plain("user", "user", outlineContent(message.content));
		case "assistant":
			return outlineAssistant(message);
		case "toolResult": {
			const id = asString(message.toolCallId);
			const call = id === undefined ? undefined : toolCalls.get(id);
			const name = asString(message.toolName) ?? call?.name ?? "tool";
			const summary = call ? summarizeToolCall(call.name, call.arguments) : "";
			const flags = message.isError === true ? ENTRY_FLAGS.error : 0;
			return { kind: "tool", title: name, preview: summary || outlineContent(message.content), flags };
		}
		case "bashExecution":
			return plain("bash", "user bash", previewText(`$ ${asString(message.command) ?? ""}`, PREVIEW_LENGTH));
		case "custom":
			return plain("custom", asString(message.customType) ?? "custom", outlineContent(message.content));
		case "branchSummary":
		case "compactionSummary":
			return plain("summary", "summary", previewText(asString(message.summary) ?? "", PREVIEW_LENGTH));
		default:
			return plain("other", String(message.role ?? "message"), "");
	}
}

export function outlineEntry(entry: SessionEntry, toolCalls: ReadonlyMap<string, ToolCallInfo>): EntryOutline {
	const record = entry as unknown as UnknownRecord;
	const event = (title: string, preview: string): EntryOutline => ({ kind: "event", title, preview, flags: 0 });
	switch (entry.type) {
		case "message": {
			const message = asRecord(record.message);
			return message
				? outlineMessage(message, toolCalls)
				: { kind: "other", title: "message", preview: "", flags: 0 };
		}
		case "custom_message":
			return {
				kind: "custom",
				title: asString(record.customType) ?? "custom",
				preview: outlineContent(record.content),
				flags: 0,
			};
		case "compaction": {
			const tokens = asNumber(record.tokensBefore);
			const preview = tokens === undefined ? "" : `${formatNumber(tokens)} tokens before`;
			return { kind: "summary", title: "compaction", preview, flags: 0 };
		}
		case "branch_summary":
			return {
				kind: "summary",
				title: "branch summary",
				preview: previewText(asString(record.summary) ?? "", PREVIEW_LENGTH),
				flags: 0,
			};
		case "model_change":
			return event("model", `${asString(record.provider) ?? "?"}/${asString(record.modelId) ?? "?"}`);
		case "thinking_level_change":
			return event("thinking level", asString(record.thinkingLevel) ?? "?");
		case "label": {
			const label = asString(record.label);
			return event("label", label ? `${label} → ${asString(record.targetId) ?? ""}` : "cleared");
		}
		case "session_info":
			return event("name", previewText(asString(record.name) ?? "", PREVIEW_LENGTH) || "cleared");
		case "custom":
			return event("extension data", asString(record.customType) ?? "custom");
		default:
			return { kind: "other", title: String(record.type), preview: "", flags: 0 };
	}
}
