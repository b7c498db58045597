import { DEFAULT_BASH_OUTPUT_FILE_BYTES } from "../config/settings-manager.js";
import { type BashOutputFiles, FullOutputFile, processBashOutputFiles } from "./bash-output-files.js";
import { DEFAULT_MAX_BYTES, type TruncationResult, truncateTail } from "./truncate.js";
import { incompleteTailLength } from "./utf8.js";

/**
 * Recent output kept in memory: twice what the model is shown. The reference dropped chunks while the window
 * exceeded this size, which could leave less than 50KB — and then the final result looked untruncated
 * although most of the output had been dropped. Ours always keeps this much (the oldest chunk cut to fit),
 * so the tail shown is cut from 100KB and marked truncated.
 */
export const ROLLING_WINDOW_BYTES = DEFAULT_MAX_BYTES * 2;

/** Where a command's full output goes: settings `limits.bashOutputFileBytes` and the session's registry. */
export interface BashOutputFileOptions {
	/** Size at which the full-output file stops growing; 0 = no limit. Default 256 MiB. */
	maxFileBytes?: number;
	/** Default: the process-wide registry, emptied when the process exits. */
	files?: BashOutputFiles;
}

function countNewlines(data: Buffer): number {
	let count = 0;
	let index = data.indexOf(10);
	while (index !== -1) {
		count++;
		index = data.indexOf(10, index + 1);
	}
	return count;
}

export interface BashOutputSnapshot {
	truncation: TruncationResult;
	/** Lines of the whole output so far (a trailing newline counts one empty line). */
	totalLines: number;
	totalBytes: number;
	/**
	 * Bytes of the output's last line with content (trailing empty lines skipped), which may be longer than
	 * the in-memory window: the line a partial-line notice is about.
	 */
	lastLineBytes: number;
}

/**
 * Bytes of the last non-empty line that `data` ends (terminates with a newline), given the bytes of the
 * unterminated line before it; undefined when every line it ends is empty.
 */
function lastEndedContentLineBytes(data: Buffer, bytesBeforeChunk: number): number | undefined {
	let lineEnd = data.lastIndexOf(10);
	while (lineEnd !== -1) {
		const previous = lineEnd === 0 ? -1 : data.lastIndexOf(10, lineEnd - 1);
		const length = lineEnd - (previous + 1) + (previous === -1 ? bytesBeforeChunk : 0);
		if (length > 0) return length;
		lineEnd = previous;
	}
	return undefined;
}

/**
 * Collects a command's output: a rolling window of the most recent ROLLING_WINDOW_BYTES in memory (never
 * more, however large the chunks: this is what keeps a command printing 400 MB within a few MB, well inside
 * `limits.bashMemoryBytes`) and, once the output passes 50KB (or whenever the model is told to look there),
 * the complete output in a temp file registered in `files`, up to `maxFileBytes`.
 */
export class BashOutputCollector {
	private chunks: Buffer[] = [];
	private windowBytes = 0;
	private droppedBytes = 0;
	private newlines = 0;
	private bytesSinceNewline = 0;
	private lastEndedContentLineBytes = 0;
	private readonly window = ROLLING_WINDOW_BYTES;
	private readonly file: FullOutputFile;
	private closed = false;
	totalBytes = 0;

	constructor(options: BashOutputFileOptions = {}) {
		this.file = new FullOutputFile(
			options.files ?? processBashOutputFiles(),
			options.maxFileBytes ?? DEFAULT_BASH_OUTPUT_FILE_BYTES,
		);
	}

	get fullOutputPath(): string | undefined {
		return this.file.path;
	}

	get maxFileBytes(): number {
		return this.file.maxBytes;
	}

	/** The full-output file reached `maxFileBytes` and holds only the start of the output. */
	get fullOutputCapped(): boolean {
		return this.file.capped;
	}

	/** Output bytes held in memory. */
	get retainedBytes(): number {
		return this.windowBytes;
	}

	append(data: Buffer): void {
		if (this.closed) return;
		this.totalBytes += data.length;
		const newlinesInChunk = countNewlines(data);
		this.newlines += newlinesInChunk;
		if (newlinesInChunk > 0) {
			this.lastEndedContentLineBytes =
				lastEndedContentLineBytes(data, this.bytesSinceNewline) ?? this.lastEndedContentLineBytes;
		}
		this.bytesSinceNewline =
			newlinesInChunk > 0 ? data.length - data.lastIndexOf(10) - 1 : this.bytesSinceNewline + data.length;
		// The file exists before the window first drops anything, so it can be given everything.
		if (this.totalBytes > DEFAULT_MAX_BYTES || this.windowBytes + data.length > this.window) this.ensureTempFile();
		this.file.write(data);
		// A chunk larger than the window (custom operations may deliver everything at once): keep its end.
		const kept = data.length > this.window ? Buffer.from(data.subarray(data.length - this.window)) : data;
		this.droppedBytes += data.length - kept.length;
		this.chunks.push(kept);
		this.windowBytes += kept.length;
		while (this.windowBytes > this.window) {
			const excess = this.windowBytes - this.window;
			const oldest = this.chunks[0];
			if (oldest.length <= excess) {
				this.chunks.shift();
				this.windowBytes -= oldest.length;
				this.droppedBytes += oldest.length;
			} else {
				// Copy the part kept, so the dropped part of the chunk is freed.
				this.chunks[0] = Buffer.from(oldest.subarray(excess));
				this.windowBytes -= excess;
				this.droppedBytes += excess;
			}
		}
	}

	/** Creates the temp file with everything collected so far; later chunks are appended as they arrive. */
	ensureTempFile(): string {
		if (this.file.path !== undefined) return this.file.path;
		if (this.droppedBytes > 0) throw new Error("bash output window dropped chunks before the temp file existed");
		const path = this.file.open();
		for (const chunk of this.chunks) this.file.write(chunk);
		return path;
	}

	/** Ends collection; output that arrives later (from custom operations) is ignored. */
	close(): void {
		this.closed = true;
		this.file.close();
	}

	/** The window decoded and tail-truncated. `partial` leaves out an incomplete character at the end. */
	snapshot(partial: boolean): BashOutputSnapshot {
		let window = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
		if (this.droppedBytes > 0) {
			// The window may start inside a character of a dropped chunk.
			let start = 0;
			while (start < window.length && start < 3 && (window[start] & 0xc0) === 0x80) start++;
			window = window.subarray(start);
		}
		if (partial) window = window.subarray(0, window.length - incompleteTailLength(window));
		return {
			truncation: truncateTail(window.toString("utf8")),
			totalLines: this.newlines + 1,
			totalBytes: this.totalBytes,
			lastLineBytes: this.bytesSinceNewline > 0 ? this.bytesSinceNewline : this.lastEndedContentLineBytes,
		};
	}
}
