/**
 * Scanning of terminal escape sequences inside rendered strings, and tracking of the SGR (colour and
 * attribute) state so that styles can be carried across line breaks and cuts.
 */

const ESC = 0x1b;
const BEL = 0x07;

/**
 * Length of the escape sequence that starts at `index` (CSI, OSC, APC, DCS, PM, SOS, or a two-byte
 * escape), or 0 when no escape sequence starts there. An unterminated string sequence runs to the end.
 */
export function escapeSequenceLength(text: string, index: number): number {
	if (text.charCodeAt(index) !== ESC || index + 1 >= text.length) return 0;
	const kind = text.charCodeAt(index + 1);
	if (kind === 0x5b /* [ */) {
		let i = index + 2;
		while (i < text.length) {
			const c = text.charCodeAt(i);
			if (c >= 0x40 && c <= 0x7e) return i - index + 1;
			if (c < 0x20 || c > 0x3f) {
				// Parameter and intermediate bytes are 0x20-0x3F; anything else is malformed: stop before it.
				return i - index;
			}
			i++;
		}
		return text.length - index;
	}
	// OSC ], DCS P, SOS X, PM ^, APC _: strings terminated by BEL or ST (ESC \).
	if (kind === 0x5d || kind === 0x50 || kind === 0x58 || kind === 0x5e || kind === 0x5f) {
		let i = index + 2;
		while (i < text.length) {
			const c = text.charCodeAt(i);
			if (c === BEL) return i - index + 1;
			if (c === ESC && text.charCodeAt(i + 1) === 0x5c) return i - index + 2;
			i++;
		}
		return text.length - index;
	}
	return 2;
}

/** Removes every escape sequence from `text`. */
export function stripAnsi(text: string): string {
	if (!text.includes("\x1b")) return text;
	let out = "";
	let i = 0;
	while (i < text.length) {
		const len = escapeSequenceLength(text, i);
		if (len > 0) {
			i += len;
			continue;
		}
		const next = text.indexOf("\x1b", i + 1);
		const end = next === -1 ? text.length : next;
		out += text.slice(i, end);
		i = end;
	}
	return out;
}

export const SGR_RESET = "\x1b[0m";
/** Closes an OSC 8 hyperlink. */
export const HYPERLINK_CLOSE = "\x1b]8;;\x07";

/**
 * The SGR attributes and the OSC 8 hyperlink in effect at some point of a styled string. Feed it the
 * escape sequences in order with `apply`; `openSequence()` re-creates the state at the start of a new line.
 */
export class StyleState {
	private bold = false;
	private dim = false;
	private italic = false;
	private underline: string | undefined;
	private blink = false;
	private inverse = false;
	private hidden = false;
	private strikethrough = false;
	private overline = false;
	private foreground: string | undefined;
	private background: string | undefined;
	private underlineColor: string | undefined;
	private hyperlink: string | undefined;

	/** Updates the state with one escape sequence; sequences other than SGR and OSC 8 are ignored. */
	apply(sequence: string): void {
		if (sequence.startsWith("\x1b[") && sequence.endsWith("m")) {
			this.applySgr(sequence.slice(2, -1));
		} else if (sequence.startsWith("\x1b]8;")) {
			const body = sequence.replace(/^\x1b\]8;[^;]*;/, "").replace(/(\x07|\x1b\\)$/, "");
			this.hyperlink = body.length > 0 ? sequence : undefined;
		}
	}

	get isActive(): boolean {
		return this.hasSgr || this.hyperlink !== undefined;
	}

	get hasSgr(): boolean {
		return (
			this.bold ||
			this.dim ||
			this.italic ||
			this.underline !== undefined ||
			this.blink ||
			this.inverse ||
			this.hidden ||
			this.strikethrough ||
			this.overline ||
			this.foreground !== undefined ||
			this.background !== undefined ||
			this.underlineColor !== undefined
		);
	}

	/** Escape sequences that re-establish this state from a reset terminal ("" when nothing is active). */
	openSequence(): string {
		const codes: string[] = [];
		if (this.bold) codes.push("1");
		if (this.dim) codes.push("2");
		if (this.italic) codes.push("3");
		if (this.underline !== undefined) codes.push(this.underline);
		if (this.blink) codes.push("5");
		if (this.inverse) codes.push("7");
		if (this.hidden) codes.push("8");
		if (this.strikethrough) codes.push("9");
		if (this.overline) codes.push("53");
		if (this.foreground !== undefined) codes.push(this.foreground);
		if (this.background !== undefined) codes.push(this.background);
		if (this.underlineColor !== undefined) codes.push(this.underlineColor);
		const sgr = codes.length > 0 ? `\x1b[${codes.join(";")}m` : "";
		return sgr + (this.hyperlink ?? "");
	}

	/** Sequences that end this state (reset SGR, close a hyperlink); "" when nothing is active. */
	closeSequence(): string {
		return (this.hasSgr ? SGR_RESET : "") + (this.hyperlink !== undefined ? HYPERLINK_CLOSE : "");
	}

	reset(): void {
		this.bold = this.dim = this.italic = this.blink = this.inverse = this.hidden = false;
		this.strikethrough = this.overline = false;
		this.underline = this.foreground = this.background = this.underlineColor = undefined;
	}

	clone(): StyleState {
		const copy = new StyleState();
		Object.assign(copy, this);
		return copy;
	}

	private applySgr(params: string): void {
		if (params === "") {
			this.reset();
			return;
		}
		const parts = params.split(";");
		for (let i = 0; i < parts.length; i++) {
			const part = parts[i];
			// Colon sub-parameters (4:3 curly underline, 38:2::r:g:b) arrive as one part.
			if (part.includes(":")) {
				const head = part.split(":")[0];
				if (head === "4") this.underline = part === "4:0" ? undefined : part;
				else if (head === "38") this.foreground = part;
				else if (head === "48") this.background = part;
				else if (head === "58") this.underlineColor = part;
				continue;
			}
			const code = part === "" ? 0 : Number(part);
			if (code === 38 || code === 48 || code === 58) {
				// Extended colour: 5;n or 2;r;g;b follow as separate parameters.
				const mode = parts[i + 1];
				const count = mode === "5" ? 2 : mode === "2" ? 4 : 1;
				const value = parts.slice(i, i + 1 + count).join(";");
				i += count;
				if (code === 38) this.foreground = value;
				else if (code === 48) this.background = value;
				else this.underlineColor = value;
				continue;
			}
			this.applySimpleCode(code);
		}
	}

	private applySimpleCode(code: number): void {
		if (code === 0) this.reset();
		else if (code === 1) this.bold = true;
		else if (code === 2) this.dim = true;
		else if (code === 3) this.italic = true;
		else if (code === 4 || code === 21) this.underline = String(code);
		else if (code === 5 || code === 6) this.blink = true;
		else if (code === 7) this.inverse = true;
		else if (code === 8) this.hidden = true;
		else if (code === 9) this.strikethrough = true;
		else if (code === 22) this.bold = this.dim = false;
		else if (code === 23) this.italic = false;
		else if (code === 24) this.underline = undefined;
		else if (code === 25) this.blink = false;
		else if (code === 27) this.inverse = false;
		else if (code === 28) this.hidden = false;
		else if (code === 29) this.strikethrough = false;
		else if (code === 53) this.overline = true;
		else if (code === 55) this.overline = false;
		else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) this.foreground = String(code);
		else if (code === 39) this.foreground = undefined;
		else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) this.background = String(code);
		else if (code === 49) this.background = undefined;
		else if (code === 59) this.underlineColor = undefined;
	}
}
