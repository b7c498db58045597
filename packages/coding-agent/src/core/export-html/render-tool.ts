// Tool calls (inside assistant messages) and their results (separate entries), with views for the built-in tools.
import { escapeHtml, formatNumber, renderImage } from "./html-text.js";
import { countDiffLines, renderDiff, renderReplacement } from "./render-diff.js";
import { asArray, asNumber, asRecord, asString, contentText, displayJson, type UnknownRecord } from "./untrusted.js";

/** Outputs longer than this many lines start folded (the first lines show, a button reveals the rest). */
const OPEN_OUTPUT_MAX_LINES = 20;

export interface ToolCallInfo {
	name: string;
	arguments: unknown;
	/** The assistant entry that holds the call. */
	entryId: string;
}

function countLines(text: string): number {
	let count = 1;
	for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count++;
	return count;
}

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A long block, folded to its first lines; the page script toggles `open`. */
export function renderFold(bodyHtml: string, lineCount: number): string {
	if (lineCount <= OPEN_OUTPUT_MAX_LINES) return bodyHtml;
	return (
		`<div class="fold"><div class="fold-body">${bodyHtml}</div>` +
		`<button type="button" class="fold-toggle">Show all ${formatNumber(lineCount)} lines</button></div>`
	);
}

/** Preformatted text, highlighted as `language` when given; long texts folded. */
export function renderPreformatted(text: string, className: string, language?: string): string {
	if (text.length === 0) return '<div class="muted">(no output)</div>';
	const languageClass = language ? ` class="language-${escapeHtml(language)}"` : "";
	return renderFold(
		`<pre class="${className}"><code${languageClass}>${escapeHtml(text)}</code></pre>`,
		countLines(text),
	);
}

const LANGUAGE_TOKEN = /^[a-z0-9+#-]{1,20}$/;
const LANGUAGE_BY_FILE_NAME: Record<string, string> = {
	dockerfile: "dockerfile",
	makefile: "makefile",
	gnumakefile: "makefile",
	"cmakelists.txt": "cmake",
};

/** The highlighting language of a file, by name or extension (the page resolves aliases such as `ts`). */
export function languageForPath(path: string): string | undefined {
	const name = (path.split(/[\\/]/).pop() ?? "").toLowerCase();
	const byName = LANGUAGE_BY_FILE_NAME[name];
	if (byName) return byName;
	const dot = name.lastIndexOf(".");
	if (dot <= 0) return undefined;
	const extension = name.slice(dot + 1);
	return LANGUAGE_TOKEN.test(extension) ? extension : undefined;
}

function field(args: UnknownRecord, name: string): string | undefined {
	const value = args[name];
	if (typeof value === "string") return value;
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	return undefined;
}

/** A shell command, highlighted as bash; the prompt sign is drawn by the stylesheet. */
export function renderCommand(command: string): string {
	return `<pre class="command"><code class="language-bash">${escapeHtml(command)}</code></pre>`;
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
				body: renderCommand(command),
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
			return { summary: code(path), body: renderPreformatted(content, "file-content", languageForPath(path)) };
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
				? `<details class="collapsible replacement"><summary>Replacement</summary>${edits.join("")}</details>`
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
		(block.arguments === undefined ? "" : renderPreformatted(displayJson(block.arguments), "arguments", "json"));
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

/** The language a result's text is highlighted in: a file read shows the file's language. */
function resultLanguage(call: ToolCallInfo | undefined): string | undefined {
	if (call?.name !== "read") return undefined;
	const path = asString(asRecord(call.arguments)?.path);
	return path === undefined ? undefined : languageForPath(path);
}

/** What a result answers, in its head: the tool's name, an error badge and a link to the call. */
export function renderToolResultHead(message: UnknownRecord, toolCalls: ReadonlyMap<string, ToolCallInfo>): string {
	const toolCallId = asString(message.toolCallId);
	const call = toolCallId === undefined ? undefined : toolCalls.get(toolCallId);
	const toolName = asString(message.toolName) ?? call?.name ?? "tool";
	const link = call === undefined ? "" : ` <a class="call-link" href="#entry-${escapeHtml(call.entryId)}">call</a>`;
	const error = message.isError === true ? ' <span class="badge error">error</span>' : "";
	return `<span class="tool-name">${escapeHtml(toolName)}</span> result${error}${link}`;
}

/** The body of a toolResult message: its output (a diff for edits), images and truncation notice. */
export function renderToolResult(message: UnknownRecord, toolCalls: ReadonlyMap<string, ToolCallInfo>): string {
	const toolCallId = asString(message.toolCallId);
	const call = toolCallId === undefined ? undefined : toolCalls.get(toolCallId);
	const isError = message.isError === true;
	const details = asRecord(message.details);
	const text = contentText(message.content);
	const parts: string[] = [];
	const diff = asString(details?.diff);
	if (diff !== undefined && !isError) {
		parts.push(renderFold(renderDiff(diff), countDiffLines(diff)));
		if (text) parts.push(`<div class="muted">${escapeHtml(text)}</div>`);
	} else {
		const hasImages = asArray(message.content).some((block) => asRecord(block)?.type === "image");
		if (text || !hasImages) {
			parts.push(renderPreformatted(text, isError ? "output error-text" : "output", resultLanguage(call)));
		}
	}
	for (const block of asArray(message.content)) {
		const record = asRecord(block);
		if (record?.type === "image") parts.push(renderImage(record.mimeType, record.data));
	}
	parts.push(renderTruncationNotice(details));
	return `<div class="tool-result${isError ? " is-error" : ""}">${parts.join("")}</div>`;
}
