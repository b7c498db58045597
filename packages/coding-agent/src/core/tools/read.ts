import { constants } from "node:fs";
import { access as fsAccess, readFile as fsReadFile } from "node:fs/promises";
import type { AgentTool } from "@agent/agent-core";
import { type ImageContent, type Static, type TextContent, Type } from "@agent/ai";
import { runAbortable, throwIfAborted } from "./abort.js";
import { detectImageMimeTypeFromFile, sniffImageMimeType } from "./image-mime.js";
import { formatDimensionNote, resizeImage } from "./image-resize.js";
import { resolveReadPath } from "./path-utils.js";
import { optionalNumber, requireString } from "./tool-arguments.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, type TruncationResult, truncateHead } from "./truncate.js";
import { assertInsideWorkspace } from "./workspace-confinement.js";

export const READ_TOOL_DESCRIPTION = `Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as attachments. For text files, output is truncated to ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.`;

export const readSchema = Type.Object({
	path: Type.String({ description: "Path to the file to read (relative or absolute)" }),
	offset: Type.Optional(Type.Number({ description: "Line number to start reading from (1-indexed)" })),
	limit: Type.Optional(Type.Number({ description: "Maximum number of lines to read" })),
});

export type ReadToolInput = Static<typeof readSchema>;

export interface ReadToolDetails {
	truncation?: TruncationResult;
}

/** File access of the read tool; replace it to read from a remote machine, a container or an editor. */
export interface ReadOperations {
	readFile: (absolutePath: string) => Promise<Buffer>;
	/** Throws if the file is not readable. */
	access: (absolutePath: string) => Promise<void>;
	/** When absent, the type is sniffed from the bytes `readFile` returns. */
	detectImageMimeType?: (absolutePath: string) => Promise<string | null | undefined>;
}

export interface ReadToolOptions {
	/** Fit images into 2000×2000 and 4.5MB before sending them (default true). */
	autoResizeImages?: boolean;
	operations?: ReadOperations;
	/** Refuse paths outside the working directory (after resolving `..` and symlinks). Default false. */
	confineToCwd?: boolean;
}

export const localReadOperations: ReadOperations = {
	readFile: (absolutePath) => fsReadFile(absolutePath),
	access: (absolutePath) => fsAccess(absolutePath, constants.R_OK),
	detectImageMimeType: detectImageMimeTypeFromFile,
};

const SUPPORTED_IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

type ReadContent = (TextContent | ImageContent)[];

async function readImage(buffer: Buffer, mimeType: string, autoResize: boolean): Promise<ReadContent> {
	const header = `Read image file [${mimeType}]`;
	if (autoResize) {
		const resized = await resizeImage(buffer, mimeType);
		if (resized) {
			const note = formatDimensionNote(resized);
			return [
				{ type: "text", text: note ? `${header}\n${note}` : header },
				{ type: "image", data: resized.data, mimeType: resized.mimeType },
			];
		}
	}
	return [
		{ type: "text", text: header },
		{ type: "image", data: buffer.toString("base64"), mimeType },
	];
}

/** Pages a text file: offset/limit selection, head truncation, and the notice that says how to continue. */
export function formatTextPage(
	text: string,
	displayPath: string,
	offset: number | undefined,
	limit: number | undefined,
): { text: string; details: ReadToolDetails | undefined } {
	const lines = text.split("\n");
	const startLine = offset ? Math.max(0, Math.floor(offset) - 1) : 0;
	if (startLine >= lines.length) {
		throw new Error(`Offset ${offset} is beyond end of file (${lines.length} lines total)`);
	}
	const endLine =
		limit !== undefined ? Math.min(startLine + Math.max(0, Math.floor(limit)), lines.length) : lines.length;
	const truncation = truncateHead(lines.slice(startLine, endLine).join("\n"));
	const start = startLine + 1;

	if (truncation.firstLineExceedsLimit) {
		const lineBytes = Buffer.byteLength(lines[startLine], "utf8");
		return {
			text: `[Line ${start} is ${formatSize(lineBytes)}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${start}p' ${displayPath} | head -c ${DEFAULT_MAX_BYTES}]`,
			details: { truncation },
		};
	}
	if (truncation.truncated) {
		const end = start + truncation.outputLines - 1;
		const limitNote = truncation.truncatedBy === "bytes" ? ` (${formatSize(DEFAULT_MAX_BYTES)} limit)` : "";
		return {
			text: `${truncation.content}\n\n[Showing lines ${start}-${end} of ${lines.length}${limitNote}. Use offset=${end + 1} to continue.]`,
			details: { truncation },
		};
	}
	if (endLine < lines.length) {
		const remaining = lines.length - endLine;
		return {
			text: `${truncation.content}\n\n[${remaining} more lines in file. Use offset=${endLine + 1} to continue.]`,
			details: undefined,
		};
	}
	return { text: truncation.content, details: undefined };
}

export function createReadTool(
	cwd: string,
	options: ReadToolOptions = {},
): AgentTool<typeof readSchema, ReadToolDetails | undefined> {
	const ops = options.operations ?? localReadOperations;
	const autoResize = options.autoResizeImages ?? true;
	return {
		name: "read",
		label: "read",
		description: READ_TOOL_DESCRIPTION,
		parameters: readSchema,
		async execute(_toolCallId, params, signal) {
			const path = requireString(params, "read", "path");
			const offset = optionalNumber(params, "read", "offset");
			const limit = optionalNumber(params, "read", "limit");
			throwIfAborted(signal);
			const absolutePath = resolveReadPath(path, cwd);
			if (options.confineToCwd) assertInsideWorkspace(absolutePath, cwd, path);

			return runAbortable(signal, async () => {
				await ops.access(absolutePath);
				const declaredType = ops.detectImageMimeType ? await ops.detectImageMimeType(absolutePath) : undefined;
				const buffer = await ops.readFile(absolutePath);
				throwIfAborted(signal);
				const mimeType = ops.detectImageMimeType ? declaredType : sniffImageMimeType(buffer);
				if (mimeType && SUPPORTED_IMAGE_TYPES.has(mimeType)) {
					return { content: await readImage(buffer, mimeType, autoResize), details: undefined };
				}
				const page = formatTextPage(buffer.toString("utf8"), path, offset, limit);
				return { content: [{ type: "text", text: page.text }], details: page.details };
			});
		},
	};
}

/** The read tool for the process's working directory. */
export const readTool = createReadTool(process.cwd());
