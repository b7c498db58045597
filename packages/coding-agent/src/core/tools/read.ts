import { accessSync, closeSync, constants, fstatSync } from "node:fs";
import type { AgentTool } from "@agent/agent-core";
import { type ImageContent, LeanType, type Static, type TextContent } from "@agent/ai";
import { runAbortable, throwIfAborted } from "./abort.js";
import { detectImageMimeTypeFromFile, IMAGE_SNIFF_BYTES, sniffImageMimeType } from "./image-mime.js";
import { formatDimensionNote, resizeImage } from "./image-resize.js";
import { resolveReadPath } from "./path-utils.js";
import { isNotRegularFileError, openRegularFileSync, readChunk, readRegularFile } from "./regular-file.js";
import { type TextPage, TextPageScanner } from "./text-page-scanner.js";
import { optionalNumber, requireString } from "./tool-arguments.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, type TruncationResult, truncateHead } from "./truncate.js";
import { assertInsideWorkspace } from "./workspace-confinement.js";

export const READ_TOOL_DESCRIPTION = `Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as attachments. For text files, output is truncated to ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.`;

export const readSchema = LeanType.Object({
	path: LeanType.String({ description: "Path to the file to read (relative or absolute)" }),
	offset: LeanType.Optional(LeanType.Number({ description: "Line number to start reading from (1-indexed)" })),
	limit: LeanType.Optional(LeanType.Number({ description: "Maximum number of lines to read" })),
});

export type ReadToolInput = Static<typeof readSchema>;

export interface ReadToolDetails {
	truncation?: TruncationResult;
}

/** A file opened by `ReadOperations.open`, read in pieces. */
export interface ReadableFile {
	/** Reads into `buffer` from byte `position`; resolves the bytes read, 0 at the end of the file. */
	read(buffer: Buffer, position: number): Promise<number>;
	/** Current size in bytes. */
	size(): Promise<number>;
	close(): Promise<void>;
}

/** File access of the read tool; replace it to read from a remote machine, a container or an editor. */
export interface ReadOperations {
	readFile: (absolutePath: string) => Promise<Buffer>;
	/** Throws if the file is not readable. */
	access: (absolutePath: string) => Promise<void>;
	/** When absent, the type is sniffed from the bytes `readFile` returns. */
	detectImageMimeType?: (absolutePath: string) => Promise<string | null | undefined>;
	/**
	 * Ours: opens the file for reading in pieces. When present it is used instead of `readFile` and
	 * `detectImageMimeType`, so a text file is paged without being loaded whole (a 2 GB log costs a scan, not
	 * 2 GB of memory) and the image type is sniffed from the first bytes.
	 */
	open?: (absolutePath: string) => Promise<ReadableFile>;
}

export interface ReadToolOptions {
	/** Fit images into 2000×2000 and 4.5MB before sending them (default true). */
	autoResizeImages?: boolean;
	operations?: ReadOperations;
	/** Refuse paths outside the working directory (after resolving `..` and symlinks). Default false. */
	confineToCwd?: boolean;
}

/** Bytes read at a time when paging a text file. */
const READ_CHUNK_BYTES = 64 * 1024;
/** Largest image file the read tool loads to send or resize. */
export const MAX_IMAGE_FILE_BYTES = 64 * 1024 * 1024;

/** Model-facing: the path is a device, FIFO, socket or directory (symlinks followed). */
export function readNotRegularFileMessage(path: string, fileType: string): string {
	const hint =
		fileType === "a directory"
			? "List a directory with ls or bash instead."
			: "If you need data from it, use bash with a byte limit and a timeout (e.g. head -c 4096).";
	return `Cannot read ${path}: it is ${fileType}, not a regular file. ${hint}`;
}

/** Model-facing: an image file too large to load. */
export function imageTooLargeMessage(path: string, bytes: number): string {
	return `Cannot read ${path}: the image is ${formatSize(bytes)}, more than the ${formatSize(MAX_IMAGE_FILE_BYTES)} the read tool loads. Make a smaller copy with bash (e.g. ImageMagick's convert) and read that.`;
}

/**
 * A local regular file opened for paging (see `openRegularFileSync`), read by `readChunk`. A short read that reaches
 * the size the file had when opened is its end: reading there again answers 0 without asking.
 */
export async function openLocalReadableFile(absolutePath: string): Promise<ReadableFile> {
	const { fd, stats } = openRegularFileSync(absolutePath);
	const sizeAtOpen = stats.size;
	let end = Number.POSITIVE_INFINITY;
	let closed = false;
	// A closed descriptor's number may already belong to another file: never read or close it again.
	const assertOpen = () => {
		if (closed) throw new Error(`${absolutePath} was closed`);
	};
	return {
		read: async (buffer, position) => {
			assertOpen();
			if (position >= end) return 0;
			const bytesRead = await readChunk(fd, buffer, position);
			if (bytesRead < buffer.length && position + bytesRead >= sizeAtOpen) end = position + bytesRead;
			return bytesRead;
		},
		size: async () => {
			assertOpen();
			return fstatSync(fd).size;
		},
		close: async () => {
			if (closed) return;
			closed = true;
			closeSync(fd);
		},
	};
}

// The access check is one system call: made synchronously, as opening is.
export const localReadOperations: ReadOperations = {
	readFile: (absolutePath) => readRegularFile(absolutePath),
	access: async (absolutePath) => accessSync(absolutePath, constants.R_OK),
	detectImageMimeType: detectImageMimeTypeFromFile,
	open: openLocalReadableFile,
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

/** The page of a whole decoded text: what `TextPageScanner` computes from a stream of bytes. */
function pageOfText(text: string, offset: number | undefined, limit: number | undefined): TextPage {
	const lines = text.split("\n");
	const startLine = offset ? Math.max(0, Math.floor(offset) - 1) : 0;
	if (startLine >= lines.length) {
		throw new Error(`Offset ${offset} is beyond end of file (${lines.length} lines total)`);
	}
	const endLine =
		limit !== undefined ? Math.min(startLine + Math.max(0, Math.floor(limit)), lines.length) : lines.length;
	return {
		fileLines: lines.length,
		startLine,
		endLine,
		truncation: truncateHead(lines.slice(startLine, endLine).join("\n")),
		firstLineBytes: endLine > startLine ? Buffer.byteLength(lines[startLine], "utf8") : 0,
	};
}

/** The text the model gets for a page, with the notice that says how to continue. */
export function renderTextPage(
	page: TextPage,
	displayPath: string,
): { text: string; details: ReadToolDetails | undefined } {
	const { truncation, fileLines, endLine } = page;
	const start = page.startLine + 1;
	if (truncation.firstLineExceedsLimit) {
		return {
			text: `[Line ${start} is ${formatSize(page.firstLineBytes)}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${start}p' ${displayPath} | head -c ${DEFAULT_MAX_BYTES}]`,
			details: { truncation },
		};
	}
	if (truncation.truncated) {
		const end = start + truncation.outputLines - 1;
		const limitNote = truncation.truncatedBy === "bytes" ? ` (${formatSize(DEFAULT_MAX_BYTES)} limit)` : "";
		return {
			text: `${truncation.content}\n\n[Showing lines ${start}-${end} of ${fileLines}${limitNote}. Use offset=${end + 1} to continue.]`,
			details: { truncation },
		};
	}
	if (endLine < fileLines) {
		const remaining = fileLines - endLine;
		return {
			text: `${truncation.content}\n\n[${remaining} more lines in file. Use offset=${endLine + 1} to continue.]`,
			details: undefined,
		};
	}
	return { text: truncation.content, details: undefined };
}

/** Pages a text file: offset/limit selection, head truncation, and the notice that says how to continue. */
export function formatTextPage(
	text: string,
	displayPath: string,
	offset: number | undefined,
	limit: number | undefined,
): { text: string; details: ReadToolDetails | undefined } {
	return renderTextPage(pageOfText(text, offset, limit), displayPath);
}

/**
 * Reads through `ops.open`: the first bytes decide image or text; an image is loaded whole (up to
 * MAX_IMAGE_FILE_BYTES), a text file streams through the page scanner. Stops at the next chunk when the
 * signal fires, and always closes the file.
 */
async function readOpenedFile(
	file: ReadableFile,
	path: string,
	request: { offset: number | undefined; limit: number | undefined; autoResize: boolean },
	signal: AbortSignal | undefined,
): Promise<{ content: ReadContent; details: ReadToolDetails | undefined }> {
	const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
	// The first chunk is both the image sniff's head and the text's start.
	let bytesRead = await file.read(buffer, 0);
	throwIfAborted(signal);
	const mimeType = sniffImageMimeType(buffer.subarray(0, Math.min(bytesRead, IMAGE_SNIFF_BYTES)));
	if (mimeType && SUPPORTED_IMAGE_TYPES.has(mimeType)) {
		const image = await readWholeImage(file, path, signal);
		return { content: await readImage(image, mimeType, request.autoResize), details: undefined };
	}
	const scanner = new TextPageScanner({ offset: request.offset, limit: request.limit });
	let position = 0;
	while (bytesRead > 0) {
		scanner.push(buffer.subarray(0, bytesRead));
		position += bytesRead;
		bytesRead = await file.read(buffer, position);
		throwIfAborted(signal);
	}
	const page = renderTextPage(scanner.end(), path);
	return { content: [{ type: "text", text: page.text }], details: page.details };
}

async function readWholeImage(file: ReadableFile, path: string, signal: AbortSignal | undefined): Promise<Buffer> {
	const size = await file.size();
	if (size > MAX_IMAGE_FILE_BYTES) throw new Error(imageTooLargeMessage(path, size));
	const chunks: Buffer[] = [];
	let total = 0;
	for (;;) {
		const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
		const bytesRead = await file.read(chunk, total);
		throwIfAborted(signal);
		if (bytesRead === 0) break;
		total += bytesRead;
		if (total > MAX_IMAGE_FILE_BYTES) throw new Error(imageTooLargeMessage(path, total));
		chunks.push(chunk.subarray(0, bytesRead));
	}
	return Buffer.concat(chunks, total);
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
				try {
					return await readThrough(ops, absolutePath, path, { offset, limit, autoResize }, signal);
				} catch (error) {
					if (isNotRegularFileError(error)) throw new Error(readNotRegularFileMessage(path, error.fileType));
					throw error;
				}
			});
		},
	};
}

async function readThrough(
	ops: ReadOperations,
	absolutePath: string,
	path: string,
	request: { offset: number | undefined; limit: number | undefined; autoResize: boolean },
	signal: AbortSignal | undefined,
): Promise<{ content: ReadContent; details: ReadToolDetails | undefined }> {
	if (ops.open) {
		const file = await ops.open(absolutePath);
		try {
			return await readOpenedFile(file, path, request, signal);
		} finally {
			await file.close();
		}
	}
	const declaredType = ops.detectImageMimeType ? await ops.detectImageMimeType(absolutePath) : undefined;
	const buffer = await ops.readFile(absolutePath);
	throwIfAborted(signal);
	const mimeType = ops.detectImageMimeType ? declaredType : sniffImageMimeType(buffer);
	if (mimeType && SUPPORTED_IMAGE_TYPES.has(mimeType)) {
		return { content: await readImage(buffer, mimeType, request.autoResize), details: undefined };
	}
	const page = formatTextPage(buffer.toString("utf8"), path, request.offset, request.limit);
	return { content: [{ type: "text", text: page.text }], details: page.details };
}

/** The read tool for the process's working directory. */
export const readTool = createReadTool(process.cwd());
