// Tool calls (inside assistant messages) and their results (separate entries), with views for the built-in tools.
import { escapeHtml, renderImage } from "./html-text.js";
import { asArray, asNumber, asRecord, asString, contentText, displayJson, type UnknownRecord } from "./untrusted.js";

/** Outputs longer than this many lines start collapsed. */
const OPEN_OUTPUT_MAX_LINES = 20;

export interface ToolCallInfo {
	name: string;
	arguments: unknown;
}

function countLines(text: string): number {
	let count = 1;
	for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count++;
	return count;
}

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Preformatted text; long texts in a collapsed section that says how long they are. */
export function renderPreformatted(text: string, className: string, label: string): string {
	if (text.length === 0) return '<div class="muted">(no output)</div>';
	const lines = countLines(text);
	const pre = `<pre class="${className}">${escapeHtml(text)}</pre>`;
	if (lines <= OPEN_OUTPUT_MAX_LINES) return pre;
	return `<details class="collapsible"><summary>${escapeHtml(label)} (${plural(lines, "line")})</summary>${pre}</details>`;
}

/** A line diff as the edit tool writes it (`+`/`-`/space prefixes), each line coloured by its prefix. */
export function renderDiff(diff: string): string {
	const lines = diff.split("\n").map((line) => {
		const kind = line.startsWith("+") ? "diff-add" : line.startsWith("-") ? "diff-del" : "diff-ctx";
		return `<span class="${kind}">${escapeHtml(line)}</span>`;
	});
	return `<pre class="diff">${lines.join("\n")}</pre>`;
}

/** Old and new text of an edit call, shown as removed and added lines. */
function renderReplacement(oldText: string, newText: string): string {
	const removed = oldText.split("\n").map((line) => `<span class="diff-del">-${escapeHtml(line)}</span>`);
	const added = newText.split("\n").map((line) => `<span class="diff-add">+${escapeHtml(line)}</span>`);
	return `<pre class="diff">${[...removed, ...added].join("\n")}</pre>`;
}

function field(args: UnknownRecord, name: string): string | undefined {
	const value = args[name];
	if (typeof value === "string") return value;
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	return undefined;
}

function code(text: string): string {
	return `<code>${escapeHtml(text)}</code>`;
}

/** One-line summary and optional body for a built-in tool's arguments; undefined for other tools. */
function describeBuiltinCall(name: string, args: UnknownRecord): { summary: string; body: string } | undefined {
	const path = field(args, "path");
	switch (name) {
		case "bash": {
			const command = field(args, "command");
			if (command === undefined) return undefined;
			const timeout = field(args, "timeout");
			return {
				summary: timeout === undefined ? "" : `<span class="muted">timeout ${escapeHtml(timeout)}s</span>`,
				body: `<pre class="command">$ ${escapeHtml(command)}</pre>`,
			};
		}
		case "read": {
			if (path === undefined) return undefined;
			const offset = field(args, "offset");
			const limit = field(args, "limit");
			const range = [offset === undefined ? "" : `offset ${offset}`, limit === undefined ? "" : `limit ${limit}`]
				.filter(Boolean)
				.join(", ");
			return { summary: code(path) + (range ? ` <span class="muted">${escapeHtml(range)}</span>` : ""), body: "" };
		}
		case "write": {
			const content = field(args, "content");
			if (path === undefined || content === undefined) return undefined;
			return { summary: code(path), body: renderPreformatted(content, "file-content", "Content") };
		}
		case "edit": {
			if (path === undefined) return undefined;
			const edits: string[] = [];
			const oldText = field(args, "oldText");
			const newText = field(args, "newText");
			if (oldText !== undefined && newText !== undefined) edits.push(renderReplacement(oldText, newText));
			for (const edit of asArray(args.edits)) {
				const record = asRecord(edit);
				const editOld = record && field(record, "oldText");
				const editNew = record && field(record, "newText");
				if (editOld !== undefined && editNew !== undefined) edits.push(renderReplacement(editOld, editNew));
			}
			const body = edits.length
				? `<details class="collapsible"><summary>Replacement</summary>${edits.join("")}</details>`
				: "";
			return { summary: code(path), body };
		}
		case "ls":
		case "find":
		case "grep": {
			const pattern = field(args, "pattern");
			const parts = [
				pattern === undefined ? "" : code(pattern),
				path === undefined ? "" : `in ${code(path)}`,
				...["glob", "limit", "context", "ignoreCase", "literal"].map((key) => {
					const value = field(args, key);
					return value === undefined ? "" : `<span class="muted">${escapeHtml(`${key} ${value}`)}</span>`;
				}),
			];
			return { summary: parts.filter(Boolean).join(" "), body: "" };
		}
		default:
			return undefined;
	}
}

/** A toolCall block of an assistant message. */
export function renderToolCall(block: UnknownRecord): string {
	const name = asString(block.name) ?? "(unnamed tool)";
	const id = asString(block.id);
	const args = asRecord(block.arguments);
	const builtin = args ? describeBuiltinCall(name, args) : undefined;
	const summary = builtin?.summary ?? "";
	const body =
		builtin?.body ??
		(block.arguments === undefined ? "" : `<pre class="arguments">${escapeHtml(displayJson(block.arguments))}</pre>`);
	const anchor = id === undefined ? "" : ` id="call-${escapeHtml(id)}"`;
	return (
		`<div class="tool-call"${anchor}><div class="tool-head"><span class="tool-name">${escapeHtml(name)}</span>` +
		`${summary ? ` ${summary}` : ""}</div>${body}</div>`
	);
}

function renderTruncationNotice(details: UnknownRecord | undefined): string {
	if (!details) return "";
	const truncation = asRecord(details.truncation);
	const fullOutputPath = asString(details.fullOutputPath);
	if (truncation?.truncated !== true && fullOutputPath === undefined) return "";
	const parts: string[] = [];
	if (truncation?.truncated === true) {
		const shown = asNumber(truncation.outputLines);
		const total = asNumber(truncation.totalLines);
		parts.push(
			shown !== undefined && total !== undefined
				? `Output truncated: showing ${shown} of ${plural(total, "line")}.`
				: "Output truncated.",
		);
	}
	if (fullOutputPath !== undefined) parts.push(`Full output: ${code(fullOutputPath)}`);
	return `<div class="notice">${parts.join(" ")}</div>`;
}

/** A toolResult message, titled by the call it answers. */
export function renderToolResult(message: UnknownRecord, toolCalls: ReadonlyMap<string, ToolCallInfo>): string {
	const toolCallId = asString(message.toolCallId);
	const call = toolCallId === undefined ? undefined : toolCalls.get(toolCallId);
	const toolName = asString(message.toolName) ?? call?.name ?? "tool";
	const isError = message.isError === true;
	const details = asRecord(message.details);
	const text = contentText(message.content);
	const parts: string[] = [];
	const link =
		toolCallId !== undefined && call !== undefined
			? ` <a class="muted" href="#call-${escapeHtml(toolCallId)}">call</a>`
			: "";
	parts.push(
		`<div class="tool-head"><span class="tool-name">${escapeHtml(toolName)}</span>` +
			`${isError ? ' <span class="badge error">error</span>' : ""}${link}</div>`,
	);
	const diff = asString(details?.diff);
	if (diff !== undefined && !isError) {
		parts.push(renderDiff(diff));
		if (text) parts.push(`<div class="muted">${escapeHtml(text)}</div>`);
	} else {
		parts.push(renderPreformatted(text, isError ? "output error-text" : "output", "Output"));
	}
	for (const block of asArray(message.content)) {
		const record = asRecord(block);
		if (record?.type === "image") parts.push(renderImage(record.mimeType, record.data));
	}
	parts.push(renderTruncationNotice(details));
	return `<div class="tool-result${isError ? " is-error" : ""}">${parts.join("")}</div>`;
}
