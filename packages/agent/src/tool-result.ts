import type { ImageContent, TextContent, ToolCall, ToolResultMessage } from "@agent/ai";
import type { AgentToolResult } from "./types.js";

// Model-facing texts of results the loop produces itself.
/** The result of a call left unrun because the user queued a steering message while the reply's calls ran. */
export const SKIPPED_FOR_STEERING_TEXT = "Skipped due to queued user message.";
/** The result of a call a `beforeToolCall` hook blocked without giving a reason. */
export const TOOL_BLOCKED_TEXT = "Tool execution was blocked";
/** The result of a call to a tool the agent does not have. */
export function toolNotFoundText(toolName: string): string {
	return `Tool ${toolName} not found`;
}
// Ours: the reference has no such result; see tool-execution.ts (abort) and agent.ts (failed runs).
/** The result of a call left unrun because the run was aborted. */
export const SKIPPED_FOR_ABORT_TEXT = "Skipped because the operation was aborted.";
// Ours: calls of a reply that did not end normally are answered without running them (the reference runs
// them with whatever partial JSON parsing recovered: a cut-off `rm -rf keep/tmp` ran as `rm -rf keep/`).
/** The result of every call of a reply that stopped at the output token limit: none of them runs. */
export const CUT_OFF_AT_LENGTH_TEXT =
	"Tool call not executed: the reply reached the output token limit before it was complete, so this call's " +
	"arguments may be cut off. Nothing was run. Send the call again with smaller arguments: split large " +
	"content into parts (e.g. write the first part of a file, then add the rest with further edits).";
/** The result of a call whose arguments did not parse or did not match the tool's schema (`reason` says how). */
export function invalidArgumentsText(reason: string): string {
	return (
		`Tool call not executed: its arguments did not arrive complete (${reason}). Nothing was run. ` +
		"Send the call again with complete arguments; split large content into parts."
	);
}
/** The result of the other calls of a reply in which one call had incomplete arguments: none of them runs. */
export const SIBLING_INVALID_TEXT =
	"Tool call not executed: another call in the same reply had incomplete arguments, so none of the reply's " +
	"calls were run. Send the calls again.";
/** The result recorded for each open call of the last reply when a run fails while its tools execute. */
export const INTERRUPTED_TOOL_CALL_TEXT = "Tool execution was interrupted before it returned a result.";

export function errorMessageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

export function textResult(text: string): AgentToolResult<Record<string, never>> {
	return { content: [{ type: "text", text }], details: {} };
}

function isContentBlock(value: unknown): value is TextContent | ImageContent {
	if (typeof value !== "object" || value === null) return false;
	const block = value as { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown };
	if (block.type === "text") return typeof block.text === "string";
	return block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string";
}

function toContentBlock(value: unknown): TextContent | ImageContent {
	if (isContentBlock(value)) return value;
	if (typeof value === "string") return { type: "text", text: value };
	return { type: "text", text: JSON.stringify(value) ?? String(value) };
}

/**
 * Tools are plug-ins (extensions, JS code without types) and may return content that is a string, a
 * single block, nothing at all, or an array with stray values. The result that reaches the model and the
 * session must be a block array, so it is repaired here instead of crashing a provider's converter later.
 */
export function normalizeToolResult(value: unknown): AgentToolResult {
	if (typeof value !== "object" || value === null) {
		return { content: value === undefined || value === null ? [] : [toContentBlock(value)], details: {} };
	}
	const result = value as { content?: unknown; details?: unknown };
	const content = result.content;
	if (Array.isArray(content) && content.every(isContentBlock)) return value as AgentToolResult;
	let blocks: (TextContent | ImageContent)[];
	if (Array.isArray(content)) blocks = content.map(toContentBlock);
	else if (content === undefined || content === null) blocks = [];
	else blocks = [toContentBlock(content)];
	return { content: blocks, details: result.details };
}

export function createToolResultMessage(
	toolCall: ToolCall,
	result: AgentToolResult,
	isError: boolean,
): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		content: result.content,
		details: result.details,
		isError,
		timestamp: Date.now(),
	};
}
