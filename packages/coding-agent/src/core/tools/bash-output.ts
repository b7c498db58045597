import { randomBytes } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_BYTES, type TruncationResult, truncateTail } from "./truncate.js";

/**
 * Recent output kept in memory: at least twice what the model is shown (plus up to one chunk). The reference
 * dropped chunks while the window exceeded this size, which could leave less than 50KB — and then the final
 * result looked untruncated although most of the output had been dropped. Ours drops a chunk only while the
 * rest still holds this much, so the tail shown is always cut from at least 100KB and marked truncated.
 */
const ROLLING_WINDOW_BYTES = DEFAULT_MAX_BYTES * 2;

export function createBashTempFilePath(): string {
	return join(tmpdir(), `agent-bash-${randomBytes(8).toString("hex")}.log`);
}

/** Number of bytes at the end of `bytes` that form an incomplete UTF-8 character. */
function incompleteTailLength(bytes: Buffer): number {
	for (let back = 1; back <= Math.min(3, bytes.length); back++) {
		const byte = bytes[bytes.length - back];
		if ((byte & 0xc0) === 0x80) continue;
		const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
		return needed > back ? back : 0;
	}
	return 0;
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
 * Collects a command's output: a rolling window of recent chunks in memory and, once the output passes
 * 50KB (or whenever the model is told to look there), the complete output in a temp file.
 */
export class BashOutputCollector {
	private chunks: Buffer[] = [];
	private windowBytes = 0;
	private droppedBytes = 0;
	private newlines = 0;
	private bytesSinceNewline = 0;
	private lastEndedContentLineBytes = 0;
	private fd: number | undefined;
	private closed = false;
	totalBytes = 0;
	fullOutputPath: string | undefined;

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
		if (this.totalBytes > DEFAULT_MAX_BYTES) this.ensureTempFile();
		if (this.fd !== undefined) writeSync(this.fd, data);
		this.chunks.push(data);
		this.windowBytes += data.length;
		while (this.chunks.length > 1 && this.windowBytes - this.chunks[0].length >= ROLLING_WINDOW_BYTES) {
			const dropped = this.chunks.shift()!;
			this.windowBytes -= dropped.length;
			this.droppedBytes += dropped.length;
		}
	}

	/** Creates the temp file with everything collected so far; later chunks are appended as they arrive. */
	ensureTempFile(): string {
		if (this.fullOutputPath && this.fd !== undefined) return this.fullOutputPath;
		if (this.droppedBytes > 0) throw new Error("bash output window dropped chunks before the temp file existed");
		this.fullOutputPath = createBashTempFilePath();
		this.fd = openSync(this.fullOutputPath, "w", 0o600);
		for (const chunk of this.chunks) writeSync(this.fd, chunk);
		return this.fullOutputPath;
	}

	/** Ends collection; output that arrives later (from custom operations) is ignored. */
	close(): void {
		this.closed = true;
		if (this.fd !== undefined) closeSync(this.fd);
		this.fd = undefined;
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
