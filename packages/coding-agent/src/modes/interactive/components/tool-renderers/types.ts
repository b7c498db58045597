// How a tool call is drawn: a header (what was called) and a body (what came back), both as styled logical
// lines that the tool component wraps to the width. One renderer per built-in tool; others get the generic one.
import type { AgentToolResult } from "@agent/agent-core";
import type { ImageContent, TextContent } from "@agent/ai";
import type { Theme } from "../../theme/theme.js";

export interface ToolView {
	toolName: string;
	args: Record<string, unknown>;
	/** The model finished streaming the arguments. */
	argsComplete: boolean;
	/** The latest partial result while running, the final one after. */
	result?: AgentToolResult<unknown>;
	isError: boolean;
	/** Running (or not started): `result` is partial or absent. */
	isPartial: boolean;
	expanded: boolean;
}

export interface ToolRenderContext {
	theme: Theme;
	cwd: string;
	/** The expand key, e.g. "ctrl+o". */
	expandKey: string;
	/**
	 * Syntax-highlighted lines of `code` (plain when colour is off or the language is unknown). The tool
	 * component remembers them, so toggling Ctrl+O or a resize does not highlight the same code again.
	 */
	highlight(code: string, language: string | undefined): string[];
}

export interface ToolRenderer {
	header(view: ToolView, context: ToolRenderContext): string;
	body(view: ToolView, context: ToolRenderContext): string[];
}

/** The text blocks of a result joined by newlines; images as a short marker. */
export function resultText(result: AgentToolResult<unknown> | undefined): string {
	if (!result) return "";
	return result.content
		.map((block: TextContent | ImageContent) => (block.type === "text" ? block.text : `[image: ${block.mimeType}]`))
		.join("\n");
}

export function stringArg(args: Record<string, unknown>, name: string): string | undefined {
	const value = args[name];
	return typeof value === "string" ? value : undefined;
}

export function numberArg(args: Record<string, unknown>, name: string): number | undefined {
	const value = args[name];
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * At most `max` lines while collapsed (the first ones, or the last with `fromEnd`), plus a hint naming how many
 * were left out and the key that shows them.
 */
export function collapseLines(
	lines: string[],
	max: number,
	view: ToolView,
	context: ToolRenderContext,
	options: { fromEnd?: boolean } = {},
): string[] {
	if (view.expanded || lines.length <= max) return lines;
	const hidden = lines.length - max;
	const hint = context.theme.fg(
		"muted",
		options.fromEnd
			? `... (${hidden} earlier line${hidden === 1 ? "" : "s"}, ${context.expandKey} to expand)`
			: `... (${hidden} more line${hidden === 1 ? "" : "s"}, ${context.expandKey} to expand)`,
	);
	return options.fromEnd ? [hint, ...lines.slice(lines.length - max)] : [...lines.slice(0, max), hint];
}

/** Drops trailing empty lines (tool output usually ends with a newline). */
export function trimTrailingEmpty(lines: string[]): string[] {
	let end = lines.length;
	while (end > 0 && lines[end - 1].trim() === "") end--;
	return end === lines.length ? lines : lines.slice(0, end);
}

/** Splits a trailing `[...]` notice (truncation, "Use offset=…") off tool output. */
export function splitTrailingNotice(text: string): { body: string; notice?: string } {
	const match = /\n\n(\[[^\n]*\])\s*$/.exec(text);
	if (!match) return { body: text };
	return { body: text.slice(0, match.index), notice: match[1] };
}
