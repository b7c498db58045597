// Line framing shared by the JSON Lines protocols (RPC mode, its client) and the bash launcher's control lines: LF is
// the only separator. Node's `readline` also splits on U+2028/U+2029, which JSON strings may contain unescaped.
import { StringDecoder } from "node:string_decoder";

/**
 * Splits a byte stream into lines: decodes UTF-8 incrementally (a character split across chunks is kept
 * whole), splits on `\n` only, and strips one trailing `\r` per line. `end()` delivers a final line without a
 * newline, if it is non-empty.
 */
export class JsonlLineSplitter {
	private readonly decoder = new StringDecoder("utf8");
	// Text after the last newline, as received. Kept as pieces and joined once per line: appending to one
	// string and searching it flattens the whole buffer on every chunk, quadratic in a long line's length.
	private pending: string[] = [];

	constructor(private readonly onLine: (line: string) => void) {}

	push(chunk: Buffer | string): void {
		const text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
		if (text.length === 0) return;
		let start = 0;
		for (;;) {
			const newline = text.indexOf("\n", start);
			if (newline < 0) break;
			const piece = text.slice(start, newline);
			const line = this.pending.length > 0 ? this.pending.join("") + piece : piece;
			this.pending = [];
			this.emit(line);
			start = newline + 1;
		}
		if (start < text.length) this.pending.push(start === 0 ? text : text.slice(start));
	}

	end(): void {
		const rest = this.pending.join("") + this.decoder.end();
		this.pending = [];
		if (rest.length > 0) this.emit(rest);
	}

	private emit(line: string): void {
		this.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
	}
}
