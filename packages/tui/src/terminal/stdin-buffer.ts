import { EventEmitter } from "node:events";
/**
 * Splits raw terminal input into single key sequences. Terminals deliver input in arbitrary chunks: a
 * chunk may hold several keys ("ab\r"), or an escape sequence may be split across two chunks. A
 * bracketed paste (ESC[200~ … ESC[201~) is collected whole, however many chunks it spans.
 */

export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";

export interface StdinBufferOptions {
	/** How long an incomplete escape sequence waits for the rest before it is emitted as is (ms). */
	timeoutMs?: number;
	/** Added as a listener of `data`. */
	onSequence?: (sequence: string) => void;
	/** Added as a listener of `paste`. */
	onPaste?: (text: string) => void;
}

/** The events of a StdinBuffer: `data`, one complete key or escape sequence; `paste`, a bracketed paste's text. */
export type StdinBufferEventMap = {
	data: [sequence: string];
	paste: [text: string];
};

const INCOMPLETE = -1;

/** Length of the complete sequence at the start of `data`, or INCOMPLETE when more input is needed. */
function sequenceLength(data: string, isFinal: boolean): number {
	const first = data.charCodeAt(0);
	if (first !== 0x1b) {
		const codePoint = data.codePointAt(0) ?? 0;
		return codePoint > 0xffff ? 2 : 1;
	}
	if (data.length === 1) return isFinal ? 1 : INCOMPLETE;
	const kind = data[1];
	if (kind === "[") {
		// Linux console function keys: ESC [ [ A..E
		if (data[2] === "[") return data.length >= 4 ? 4 : isFinal ? data.length : INCOMPLETE;
		for (let i = 2; i < data.length; i++) {
			const c = data.charCodeAt(i);
			if (c >= 0x40 && c <= 0x7e) return i + 1;
			// rxvt Shift+key suffix: ESC [ 3 $ (but "$" is also an intermediate byte, as in ESC [ ? 2026 ; 2 $ y)
			if (c === 0x24 && /^\d+$/.test(data.slice(2, i))) {
				const next = data.charCodeAt(i + 1);
				if (!(next >= 0x40 && next <= 0x7e)) return i + 1;
			}
			if (c < 0x20 || c > 0x3f) return i;
		}
		return isFinal ? data.length : INCOMPLETE;
	}
	if (kind === "O") return data.length >= 3 ? 3 : isFinal ? data.length : INCOMPLETE;
	if (kind === "]" || kind === "P" || kind === "_" || kind === "^" || kind === "X") {
		for (let i = 2; i < data.length; i++) {
			if (data[i] === "\x07") return i + 1;
			if (data[i] === "\x1b" && i + 1 < data.length && data[i + 1] === "\\") return i + 2;
		}
		return isFinal ? data.length : INCOMPLETE;
	}
	if (kind === "\x1b") {
		// ESC ESC ...: Alt with an escape sequence (e.g. ESC ESC [ A), or Alt+Escape.
		if (data.length === 2) return isFinal ? 2 : INCOMPLETE;
		const inner = sequenceLength(data.slice(1), isFinal);
		return inner === INCOMPLETE ? INCOMPLETE : inner + 1;
	}
	const codePoint = data.codePointAt(1) ?? 0;
	return codePoint > 0xffff ? 3 : 2;
}

function partialSuffixLength(text: string, marker: string): number {
	for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
		if (text.endsWith(marker.slice(0, length))) return length;
	}
	return 0;
}

export class StdinBuffer extends EventEmitter<StdinBufferEventMap> {
	private pending = "";
	private pasteBuffer: string | undefined;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private readonly timeoutMs: number;

	constructor(options: StdinBufferOptions = {}) {
		super();
		this.timeoutMs = options.timeoutMs ?? 10;
		if (options.onSequence) this.on("data", options.onSequence);
		if (options.onPaste) this.on("paste", options.onPaste);
	}

	/** Whether an incomplete sequence is waiting for more input. */
	get hasPending(): boolean {
		return this.pending.length > 0 || this.pasteBuffer !== undefined;
	}

	process(chunk: string): void {
		this.cancelTimer();
		this.pending += chunk;
		this.drain(false);
		if (this.pending.length > 0 && this.pasteBuffer === undefined) {
			this.timer = setTimeout(() => this.flush(), this.timeoutMs);
		}
	}

	/** Emits whatever is pending now (an incomplete escape sequence is taken as complete). */
	flush(): void {
		this.cancelTimer();
		this.drain(true);
	}

	destroy(): void {
		this.cancelTimer();
		this.pending = "";
		this.pasteBuffer = undefined;
	}

	private drain(isFinal: boolean): void {
		while (this.pending.length > 0) {
			if (this.pasteBuffer !== undefined) {
				const end = this.pending.indexOf(PASTE_END);
				if (end === -1) {
					// Keep a possible partial end marker for the next chunk.
					const keep = partialSuffixLength(this.pending, PASTE_END);
					this.pasteBuffer += this.pending.slice(0, this.pending.length - keep);
					this.pending = this.pending.slice(this.pending.length - keep);
					return;
				}
				const text = this.pasteBuffer + this.pending.slice(0, end);
				this.pasteBuffer = undefined;
				this.pending = this.pending.slice(end + PASTE_END.length);
				this.emit("paste", text);
				continue;
			}
			if (this.pending.startsWith(PASTE_START)) {
				this.pasteBuffer = "";
				this.pending = this.pending.slice(PASTE_START.length);
				continue;
			}
			if (!isFinal && PASTE_START.startsWith(this.pending)) return; // maybe a split paste start
			const length = sequenceLength(this.pending, isFinal);
			if (length === INCOMPLETE) return;
			const sequence = this.pending.slice(0, length);
			this.pending = this.pending.slice(length);
			this.emit("data", sequence);
		}
	}

	private cancelTimer(): void {
		if (this.timer !== undefined) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
	}
}
