// An MCP tool result as the model sees it: text and images passed on, other content described in a line,
// the text bounded by the same head truncation as `read` (2000 lines or 50KB) with the whole text in a temp
// file the notice names, and at most a few images.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentToolResult } from "@agent/agent-core";
import type { ImageContent, TextContent } from "@agent/ai";
import {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	type TruncationResult,
	truncateHead,
} from "../tools/truncate.js";
import type { CallToolResult } from "./client-handle.js";

/** Images of one result passed to the model; the rest are named in a line. */
export const MAX_RESULT_IMAGES = 8;
export const NO_OUTPUT_TEXT = "(no output)";

export interface McpToolDetails {
	server: string;
	/** The tool's name on its server. */
	tool: string;
	truncation?: TruncationResult;
	/** Set when the text was truncated: the whole text is in this file. */
	fullOutputPath?: string;
}

type McpContent = CallToolResult["content"][number];

function kilobytesOfBase64(data: string): string {
	return formatSize(Math.floor((data.length * 3) / 4));
}

/** One content block as text or an image; content the model cannot take becomes a line saying what it was. */
function convertBlock(block: McpContent): TextContent | ImageContent {
	switch (block.type) {
		case "text":
			return { type: "text", text: block.text };
		case "image":
			return { type: "image", data: block.data, mimeType: block.mimeType };
		case "audio":
			return { type: "text", text: `[audio (${block.mimeType}, ${kilobytesOfBase64(block.data)}) not shown]` };
		case "resource_link": {
			const about = [block.name, block.description].filter(Boolean).join(": ");
			return { type: "text", text: `[resource ${block.uri}${about ? ` (${about})` : ""}]` };
		}
		case "resource": {
			const resource = block.resource;
			if ("text" in resource && typeof resource.text === "string")
				return { type: "text", text: `[resource ${resource.uri}]\n${resource.text}` };
			const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
			if (resource.mimeType?.startsWith("image/") && blob) {
				return { type: "image", data: blob, mimeType: resource.mimeType };
			}
			return {
				type: "text",
				text: `[resource ${resource.uri} (${resource.mimeType ?? "binary"}, ${kilobytesOfBase64(blob)}) not shown]`,
			};
		}
		default:
			return { type: "text", text: JSON.stringify(block) };
	}
}

/** Cuts text that is one huge line (minified JSON is common) to its first `maxBytes` bytes. */
function cutFirstLine(text: string, maxBytes: number): string {
	const cut = Buffer.from(text, "utf8").subarray(0, maxBytes).toString("utf8");
	return cut.endsWith("\uFFFD") ? cut.slice(0, -1) : cut;
}

export interface BoundedText {
	text: string;
	truncation?: TruncationResult;
	fullOutputPath?: string;
}

/** Keeps the head of `text` within 2000 lines / 50KB; the whole text goes to a temp file named in the notice. */
export function boundToolText(text: string, writeFullOutput: (text: string) => string = writeTempOutput): BoundedText {
	const truncation = truncateHead(text, { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES });
	if (!truncation.truncated) return { text };
	const fullOutputPath = writeFullOutput(text);
	if (truncation.firstLineExceedsLimit) {
		const kept = cutFirstLine(text, DEFAULT_MAX_BYTES);
		return {
			text: `${kept}\n\n[Showing the first ${formatSize(DEFAULT_MAX_BYTES)} of line 1 (${formatSize(truncation.totalBytes)} in all). Full output: ${fullOutputPath}]`,
			truncation,
			fullOutputPath,
		};
	}
	const limit = truncation.truncatedBy === "bytes" ? ` (${formatSize(DEFAULT_MAX_BYTES)} limit)` : "";
	return {
		text: `${truncation.content}\n\n[Showing lines 1-${truncation.outputLines} of ${truncation.totalLines}${limit}. Full output: ${fullOutputPath}]`,
		truncation,
		fullOutputPath,
	};
}

function writeTempOutput(text: string): string {
	const path = join(tmpdir(), `agent-mcp-${randomBytes(8).toString("hex")}.log`);
	writeFileSync(path, text, { mode: 0o600 });
	return path;
}

export interface ConvertedMcpResult {
	result: AgentToolResult<McpToolDetails>;
	isError: boolean;
	/** The bounded text alone (what an error result says). */
	text: string;
}

/**
 * The model's view of a `tools/call` result: every text part (and description of other content) joined into
 * one bounded text block, then the images. `structuredContent` stands in for empty content.
 */
export function convertMcpToolResult(
	result: CallToolResult,
	origin: { server: string; tool: string },
	writeFullOutput?: (text: string) => string,
): ConvertedMcpResult {
	const texts: string[] = [];
	const images: ImageContent[] = [];
	let skippedImages = 0;
	for (const block of result.content ?? []) {
		const converted = convertBlock(block);
		if (converted.type === "text") texts.push(converted.text);
		else if (images.length < MAX_RESULT_IMAGES) images.push(converted);
		else skippedImages++;
	}
	if (texts.length === 0 && images.length === 0 && result.structuredContent !== undefined) {
		texts.push(JSON.stringify(result.structuredContent, null, 2));
	}
	if (skippedImages > 0) texts.push(`[${skippedImages} more image(s) not shown]`);
	const joined = texts.join("\n");
	const bounded = boundToolText(joined === "" && images.length === 0 ? NO_OUTPUT_TEXT : joined, writeFullOutput);
	const details: McpToolDetails = {
		...origin,
		...(bounded.truncation ? { truncation: bounded.truncation } : {}),
		...(bounded.fullOutputPath ? { fullOutputPath: bounded.fullOutputPath } : {}),
	};
	const content: (TextContent | ImageContent)[] = bounded.text === "" ? [] : [{ type: "text", text: bounded.text }];
	content.push(...images);
	return { result: { content, details }, isError: result.isError === true, text: bounded.text };
}
