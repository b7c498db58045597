// The read tool's page of a text file computed from the file's bytes as they stream past, holding at most the
// page itself (50KB) plus one chunk: a 2 GB log paged with offset/limit costs a scan, not 2 GB of memory.
// The result is exactly what `formatTextPage` computes from the whole decoded text (a property test checks).
import { isUtf8 } from "node:buffer";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type TruncationResult } from "./truncate.js";
import { incompleteTailLength } from "./utf8.js";

const NEWLINE = 0x0a;

/**
 * UTF-8 byte length of bytes once decoded (invalid sequences become U+FFFD, three bytes each), fed in pieces.
 * Pieces are cut only before a character's first byte, where decoding restarts anyway, so the sum equals
 * the length of decoding everything at once.
 */
class DecodedLength {
	private carry: Buffer | undefined;
	bytes = 0;

	add(piece: Buffer): void {
		if (piece.length === 0) return;
		const data = this.carry ? Buffer.concat([this.carry, piece]) : piece;
		const cut = data.length - incompleteTailLength(data);
		const body = data.subarray(0, cut);
		this.carry = cut < data.length ? Buffer.from(data.subarray(cut)) : undefined;
		this.bytes += isUtf8(body) ? body.length : Buffer.byteLength(body.toString("utf8"), "utf8");
	}

	end(): number {
		if (this.carry) this.bytes += Buffer.byteLength(this.carry.toString("utf8"), "utf8");
		this.carry = undefined;
		return this.bytes;
	}
}

export interface TextPageRequest {
	/** 1-based first line, as the model passes it. */
	offset?: number;
	/** Lines wanted. */
	limit?: number;
	maxLines?: number;
	maxBytes?: number;
}

/** What `formatTextPage` derives from a file: the selected lines head-truncated, and the file's line count. */
export interface TextPage {
	/** Lines of the whole file (a trailing newline counts one empty line). */
	fileLines: number;
	/** 0-based first selected line. */
	startLine: number;
	/** 0-based end (exclusive) of the selection. */
	endLine: number;
	truncation: TruncationResult;
	/** Decoded bytes of the first selected line (what the "Line N is …" notice reports); 0 for an empty selection. */
	firstLineBytes: number;
}

/**
 * Consumes a file's bytes in order (`push`), then `end()` gives the page. Throws from `end()` the same
 * `Offset … is beyond end of file` error as `formatTextPage`.
 */
export class TextPageScanner {
	private readonly startLine: number;
	/** Exclusive end of the selection when `limit` was given; otherwise the selection runs to the end. */
	private readonly limitEnd: number | undefined;
	private readonly maxLines: number;
	private readonly maxBytes: number;

	/** 0-based index of the line the next byte belongs to. */
	private line = 0;
	// The page being collected: lines kept whole while they fit the budget, as truncateHead keeps them.
	private readonly kept: string[] = [];
	private keptBytes = 0;
	private collecting = true;
	private truncatedBy: "lines" | "bytes" | null = null;
	// The selected line in progress while collecting: its raw bytes (while it may still fit) and decoded size.
	private pending: Buffer[] = [];
	private pendingRaw = 0;
	private pendingFits = true;
	private pendingLength = new DecodedLength();
	// Totals of the selection (for details.truncation), counted after collecting stops.
	private selectedLines = 0;
	private selectedBytes = 0;
	private selectedWhenStopped = 0;
	private readonly rest = new DecodedLength();
	private firstLineBytes = 0;
	/** As the model passed it, for the error message. */
	private readonly offset: number | undefined;

	constructor(request: TextPageRequest = {}) {
		const { offset, limit } = request;
		this.offset = offset;
		this.startLine = offset ? Math.max(0, Math.floor(offset) - 1) : 0;
		this.limitEnd = limit !== undefined ? this.startLine + Math.max(0, Math.floor(limit)) : undefined;
		this.maxLines = request.maxLines ?? DEFAULT_MAX_LINES;
		this.maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
	}

	/** Bytes of file content held right now: the lines kept for the page and the line in progress. */
	get retainedBytes(): number {
		return this.keptBytes + this.pending.reduce((sum, piece) => sum + piece.length, 0);
	}

	private inSelection(line: number): boolean {
		return line >= this.startLine && (this.limitEnd === undefined || line < this.limitEnd);
	}

	push(chunk: Buffer): void {
		let position = 0;
		while (position < chunk.length) {
			const newline = chunk.indexOf(NEWLINE, position);
			const end = newline === -1 ? chunk.length : newline;
			if (this.inSelection(this.line)) {
				// A whole run of selected lines after collecting stopped only needs its decoded size and line count.
				if (!this.collecting) {
					position = this.countSelectedRun(chunk, position);
					continue;
				}
				this.addToLine(chunk.subarray(position, end));
			}
			if (newline === -1) return;
			this.endLine();
			position = newline + 1;
		}
	}

	/**
	 * Counts selected lines from `position` without keeping them: up to the selection's end (or the chunk's),
	 * the newlines inside the selection included in its decoded size. Returns where counting stopped.
	 */
	private countSelectedRun(chunk: Buffer, position: number): number {
		let end = chunk.length;
		let cursor = position;
		if (this.limitEnd !== undefined) {
			// Find the newline that ends the selection's last line.
			while (this.line < this.limitEnd) {
				const newline = chunk.indexOf(NEWLINE, cursor);
				if (newline === -1) break;
				cursor = newline + 1;
				if (this.line + 1 === this.limitEnd) {
					end = newline;
					break;
				}
				this.line++;
				this.selectedLines++;
			}
			this.rest.add(chunk.subarray(position, end));
			if (end < chunk.length) {
				// `end` is the newline after the selection: close the last selected line.
				this.line++;
				this.selectedLines++;
				return end + 1;
			}
			return chunk.length;
		}
		let newlines = 0;
		for (let index = chunk.indexOf(NEWLINE, cursor); index !== -1; index = chunk.indexOf(NEWLINE, index + 1)) {
			newlines++;
		}
		this.line += newlines;
		this.selectedLines += newlines;
		this.rest.add(chunk.subarray(position));
		return chunk.length;
	}

	private addToLine(piece: Buffer): void {
		if (piece.length === 0) return;
		this.pendingLength.add(piece);
		if (!this.pendingFits) return;
		this.pendingRaw += piece.length;
		// Decoding never shrinks bytes (an invalid sequence becomes a 3-byte U+FFFD), so a line whose raw bytes
		// exceed the budget left cannot fit: stop holding it.
		const separator = this.kept.length > 0 ? 1 : 0;
		if (this.keptBytes + separator + this.pendingRaw > this.maxBytes) {
			this.pendingFits = false;
			this.pending = [];
			return;
		}
		this.pending.push(Buffer.from(piece));
	}

	/** The current line ended (a newline, or the end of the file). */
	private endLine(): void {
		const line = this.line;
		this.line++;
		if (!this.inSelection(line) || !this.collecting) return;
		const index = this.selectedLines;
		const bytes = this.pendingLength.end();
		const separator = index > 0 ? 1 : 0;
		if (index === 0) this.firstLineBytes = bytes;
		this.selectedLines++;
		this.selectedBytes += bytes + separator;
		if (index >= this.maxLines) {
			this.stopCollecting("lines");
		} else if (this.keptBytes + separator + bytes > this.maxBytes) {
			this.stopCollecting("bytes");
		} else {
			this.kept.push(Buffer.concat(this.pending).toString("utf8"));
			this.keptBytes += bytes + separator;
		}
		this.pending = [];
		this.pendingRaw = 0;
		this.pendingFits = true;
		this.pendingLength = new DecodedLength();
	}

	private stopCollecting(by: "lines" | "bytes"): void {
		this.collecting = false;
		this.selectedWhenStopped = this.selectedLines;
		this.truncatedBy = by;
		this.pending = [];
	}

	end(): TextPage {
		// The last line has no newline after it (possibly empty: a file ending in "\n" has an empty last line).
		if (this.collecting) {
			this.endLine();
		} else {
			if (this.inSelection(this.line)) this.selectedLines++;
			this.line++;
		}
		const fileLines = this.line;
		if (this.startLine >= fileLines) {
			throw new Error(`Offset ${this.offset} is beyond end of file (${fileLines} lines total)`);
		}
		// Lines counted after collecting stopped: their bytes and the newlines between them are in `rest`; the
		// newline before the first of them is not.
		const countedLater = this.collecting ? 0 : this.selectedLines - this.selectedWhenStopped;
		const totalBytes = this.selectedBytes + this.rest.end() + (countedLater > 0 ? 1 : 0);
		// An empty selection (limit 0) is one empty line to truncateHead, as "".split("\n") is.
		const totalLines = Math.max(1, this.selectedLines);
		const endLine = this.limitEnd !== undefined ? Math.min(this.limitEnd, fileLines) : fileLines;
		const base = { totalLines, totalBytes, lastLinePartial: false, maxLines: this.maxLines, maxBytes: this.maxBytes };
		let truncation: TruncationResult;
		if (totalLines <= this.maxLines && totalBytes <= this.maxBytes) {
			truncation = {
				...base,
				content: this.kept.join("\n"),
				truncated: false,
				truncatedBy: null,
				outputLines: totalLines,
				outputBytes: totalBytes,
				firstLineExceedsLimit: false,
			};
		} else if (this.firstLineBytes > this.maxBytes) {
			truncation = {
				...base,
				content: "",
				truncated: true,
				truncatedBy: "bytes",
				outputLines: 0,
				outputBytes: 0,
				firstLineExceedsLimit: true,
			};
		} else {
			truncation = {
				...base,
				content: this.kept.join("\n"),
				truncated: true,
				truncatedBy: this.truncatedBy ?? "lines",
				outputLines: this.kept.length,
				outputBytes: this.keptBytes,
				firstLineExceedsLimit: false,
			};
		}
		return { fileLines, startLine: this.startLine, endLine, truncation, firstLineBytes: this.firstLineBytes };
	}
}
