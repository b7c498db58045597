// How our tool calls look to an editor (ACP "tool calls"): a kind for the icon, a title, the files they touch
// (for follow-along), and the content of their result: text, images, or a diff for edit and write. Pure.
import type { ContentBlock, ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { resolveToCwd } from "../../core/tools/path-utils.js";

const TOOL_KINDS: Readonly<Record<string, ToolKind>> = {
	read: "read",
	edit: "edit",
	write: "edit",
	bash: "execute",
	grep: "search",
	find: "search",
	ls: "search",
};

/** The ACP kind of a tool; extension and unknown tools are `other`. */
export function toolKindOf(toolName: string): ToolKind {
	return TOOL_KINDS[toolName] ?? "other";
}

function stringArg(args: Record<string, unknown>, key: string): string | undefined {
	const value = args[key];
	return typeof value === "string" && value.length > 0 ? value : undefined;
}

function numberArg(args: Record<string, unknown>, key: string): number | undefined {
	const value = args[key];
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

const MAX_TITLE_LENGTH = 200;

/** The first line, at most MAX_TITLE_LENGTH characters; "…" marks anything left out. */
function clip(text: string): string {
	const firstLine = text.split("\n", 1)[0] ?? "";
	const shortened = firstLine.slice(0, MAX_TITLE_LENGTH);
	return shortened === text ? text : `${shortened}…`;
}

/** A short, human-readable line saying what the call does ("Read src/a.ts (10-20)", "grep foo in src"). */
export function toolTitleOf(toolName: string, args: Record<string, unknown>): string {
	const path = stringArg(args, "path");
	switch (toolName) {
		case "read": {
			if (!path) return "Read";
			const offset = numberArg(args, "offset");
			const limit = numberArg(args, "limit");
			if (offset === undefined && limit === undefined) return `Read ${path}`;
			const from = offset ?? 1;
			return limit === undefined ? `Read ${path} (from line ${from})` : `Read ${path} (${from}-${from + limit - 1})`;
		}
		case "edit":
			return path ? `Edit ${path}` : "Edit";
		case "write":
			return path ? `Write ${path}` : "Write";
		case "bash": {
			const command = stringArg(args, "command");
			return command ? clip(command) : "bash";
		}
		case "grep": {
			const pattern = stringArg(args, "pattern");
			if (!pattern) return "grep";
			return `grep ${JSON.stringify(pattern)}${path ? ` in ${path}` : ""}`;
		}
		case "find": {
			const pattern = stringArg(args, "pattern");
			if (!pattern) return "find";
			return `Find ${pattern}${path ? ` in ${path}` : ""}`;
		}
		case "ls":
			return `List ${path ?? "."}`;
		default:
			return toolName;
	}
}

/** The files a call touches, absolute, with the line where that is known (read's offset). */
export function toolLocationsOf(toolName: string, args: Record<string, unknown>, cwd: string): ToolCallLocation[] {
	const path = stringArg(args, "path");
	switch (toolName) {
		case "read": {
			if (!path) return [];
			const offset = numberArg(args, "offset");
			return [{ path: resolveToCwd(path, cwd), ...(offset !== undefined ? { line: Math.max(1, offset) } : {}) }];
		}
		case "edit":
		case "write":
			return path ? [{ path: resolveToCwd(path, cwd) }] : [];
		case "grep":
		case "find":
		case "ls":
			return [{ path: path ? resolveToCwd(path, cwd) : cwd }];
		default:
			return [];
	}
}

/** Text and image blocks of a tool result (or of a message), as ACP content blocks. */
export function toAcpContentBlocks(content: unknown): ContentBlock[] {
	if (typeof content === "string") return content.length > 0 ? [{ type: "text", text: content }] : [];
	if (!Array.isArray(content)) return [];
	const blocks: ContentBlock[] = [];
	for (const part of content as unknown[]) {
		if (typeof part !== "object" || part === null) continue;
		const block = part as { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown };
		if (block.type === "text" && typeof block.text === "string") blocks.push({ type: "text", text: block.text });
		else if (block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string")
			blocks.push({ type: "image", data: block.data, mimeType: block.mimeType });
	}
	return blocks;
}

/** A file's content before and after an edit or write (`before` null for a new file). */
export interface FileChange {
	path: string;
	before: string | null;
	after: string;
}

/** What an edit's details tell an editor: where the first change is. */
export function firstChangedLineOf(details: unknown): number | undefined {
	if (typeof details !== "object" || details === null) return undefined;
	const line = (details as { firstChangedLine?: unknown }).firstChangedLine;
	return typeof line === "number" && line > 0 ? line : undefined;
}

/**
 * The content a finished call shows. A successful edit or write shows a diff: the whole file before and after
 * when the change was recorded, else (a tool replaced by an extension) the replaced text and its replacement.
 */
export function toolResultContent(
	toolName: string,
	args: Record<string, unknown>,
	result: { content?: unknown; isError: boolean },
	cwd: string,
	change: FileChange | undefined,
): ToolCallContent[] {
	if (!result.isError && (toolName === "edit" || toolName === "write")) {
		if (change) return [{ type: "diff", path: change.path, oldText: change.before, newText: change.after }];
		const path = stringArg(args, "path");
		if (path && toolName === "edit" && typeof args.newText === "string") {
			const oldText = typeof args.oldText === "string" ? args.oldText : null;
			return [{ type: "diff", path: resolveToCwd(path, cwd), oldText, newText: args.newText }];
		}
		if (path && toolName === "write" && typeof args.content === "string") {
			return [{ type: "diff", path: resolveToCwd(path, cwd), oldText: null, newText: args.content }];
		}
	}
	return toAcpContentBlocks(result.content).map((content) => ({ type: "content", content }));
}
