/**
 * Output bounding shared by the tools: keep the head (read, grep, find, ls) or the tail (bash) of a text
 * within a line and a byte budget, and cut single long lines (grep). Pure functions; byte counts are UTF-8.
 */

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
/** Characters kept of one grep output line. */
export const GREP_MAX_LINE_LENGTH = 500;

export interface TruncationResult {
	content: string;
	truncated: boolean;
	truncatedBy: "lines" | "bytes" | null;
	totalLines: number;
	totalBytes: number;
	outputLines: number;
	outputBytes: number;
	/** Tail only: the kept text starts inside the last line, which alone exceeded the byte budget. */
	lastLinePartial: boolean;
	/** Head only: the first line alone exceeded the byte budget, so nothing was kept. */
	firstLineExceedsLimit: boolean;
	maxLines: number;
	maxBytes: number;
}

export interface TruncationOptions {
	maxLines?: number;
	maxBytes?: number;
}

/** `512B`, `50.0KB`, `1.5MB`. */
export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes}B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** The budget (defaults filled in), the content's lines and size, and whether it fits as it is. */
function measure(content: string, options: TruncationOptions) {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const totalBytes = Buffer.byteLength(content, "utf8");
	const lines = content.split("\n");
	const totalLines = lines.length;
	return { lines, totalLines, totalBytes, maxLines, maxBytes, fits: totalLines <= maxLines && totalBytes <= maxBytes };
}

function untruncated(content: string, totalLines: number, totalBytes: number, maxLines: number, maxBytes: number) {
	return {
		content,
		truncated: false,
		truncatedBy: null,
		totalLines,
		totalBytes,
		outputLines: totalLines,
		outputBytes: totalBytes,
		lastLinePartial: false,
		firstLineExceedsLimit: false,
		maxLines,
		maxBytes,
	} satisfies TruncationResult;
}

/**
 * Keeps whole lines from the start while within `maxLines` and `maxBytes` (a newline counts one byte for
 * every line after the first). Never returns a partial line: if the first line alone is too large, the
 * content is empty and `firstLineExceedsLimit` is set.
 */
export function truncateHead(content: string, options: TruncationOptions = {}): TruncationResult {
	const { lines, totalLines, totalBytes, maxLines, maxBytes, fits } = measure(content, options);
	if (fits) return untruncated(content, totalLines, totalBytes, maxLines, maxBytes);

	const base = { truncated: true, totalLines, totalBytes, lastLinePartial: false, maxLines, maxBytes };
	if (Buffer.byteLength(lines[0], "utf8") > maxBytes) {
		return {
			...base,
			content: "",
			truncatedBy: "bytes",
			outputLines: 0,
			outputBytes: 0,
			firstLineExceedsLimit: true,
		};
	}

	let outputBytes = 0;
	let outputLines = 0;
	let truncatedBy: "lines" | "bytes" = "lines";
	const limit = Math.min(totalLines, maxLines);
	for (let i = 0; i < limit; i++) {
		const lineBytes = Buffer.byteLength(lines[i], "utf8") + (i > 0 ? 1 : 0);
		if (outputBytes + lineBytes > maxBytes) {
			truncatedBy = "bytes";
			break;
		}
		outputBytes += lineBytes;
		outputLines++;
	}
	return {
		...base,
		content: lines.slice(0, outputLines).join("\n"),
		truncatedBy,
		outputLines,
		outputBytes,
		firstLineExceedsLimit: false,
	};
}

/** Index of the first byte at or after `start` that begins a UTF-8 character. */
function nextCharBoundary(bytes: Buffer, start: number): number {
	let index = start;
	while (index < bytes.length && (bytes[index] & 0xc0) === 0x80) index++;
	return index;
}

/**
 * Keeps whole lines from the end while within `maxLines` and `maxBytes`. If the last line alone exceeds the
 * byte budget, its final `maxBytes` bytes are kept, starting at a UTF-8 character boundary
 * (`lastLinePartial`).
 */
export function truncateTail(content: string, options: TruncationOptions = {}): TruncationResult {
	const { lines, totalLines, totalBytes, maxLines, maxBytes, fits } = measure(content, options);
	if (fits) return untruncated(content, totalLines, totalBytes, maxLines, maxBytes);

	const base = { truncated: true, totalLines, totalBytes, firstLineExceedsLimit: false, maxLines, maxBytes };
	let outputBytes = 0;
	let outputLines = 0;
	let truncatedBy: "lines" | "bytes" = "lines";
	// Whether every line kept so far is empty (e.g. the trailing newline of `cat big-line.txt`).
	let onlyEmptyLinesKept = true;
	for (let i = totalLines - 1; i >= 0 && outputLines < maxLines; i--) {
		const separator = outputLines > 0 ? 1 : 0;
		const lineBytes = Buffer.byteLength(lines[i], "utf8") + separator;
		if (outputBytes + lineBytes > maxBytes) {
			truncatedBy = "bytes";
			// The reference keeps the end of the last line when it alone is too long. Ours differs: also when only
			// empty lines follow it, or output ending in a newline after one huge line would show nothing at all.
			const budget = maxBytes - outputBytes - separator;
			if (onlyEmptyLinesKept && budget > 0) {
				const bytes = Buffer.from(lines[i], "utf8");
				const kept = bytes.subarray(nextCharBoundary(bytes, bytes.length - budget));
				const after = lines.slice(totalLines - outputLines);
				return {
					...base,
					content: [kept.toString("utf8"), ...after].join("\n"),
					truncatedBy,
					outputLines: outputLines + 1,
					outputBytes: outputBytes + separator + kept.length,
					lastLinePartial: true,
				};
			}
			break;
		}
		outputBytes += lineBytes;
		outputLines++;
		if (lines[i] !== "") onlyEmptyLinesKept = false;
	}
	return {
		...base,
		content: lines.slice(totalLines - outputLines).join("\n"),
		truncatedBy,
		outputLines,
		outputBytes,
		lastLinePartial: false,
	};
}

/**
 * Cuts a line longer than `maxChars` characters to its first `maxChars` followed by `... [truncated]`,
 * never splitting a surrogate pair.
 */
export function truncateLine(
	line: string,
	maxChars: number = GREP_MAX_LINE_LENGTH,
): { text: string; wasTruncated: boolean } {
	if (line.length <= maxChars) return { text: line, wasTruncated: false };
	let end = maxChars;
	const last = line.charCodeAt(end - 1);
	if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
	return { text: `${line.slice(0, end)}... [truncated]`, wasTruncated: true };
}
