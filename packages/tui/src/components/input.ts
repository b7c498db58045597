import { CachedComponent, CURSOR_MARKER, type Focusable } from "../component.js";
import {
	nextGraphemeBoundary,
	nextWordBoundary,
	previousGraphemeBoundary,
	previousWordBoundary,
} from "../editor/text-boundaries.js";
import { decodeKittyPrintable, matchesKey } from "../keys/key-matching.js";
import { getEditorKeybindings } from "../keys/keybindings.js";
import { PASTE_END, PASTE_START } from "../terminal/stdin-buffer.js";
import { segmentGraphemes, visibleWidth } from "../text/width.js";

const PROMPT = "> ";

/** Printable text in `data` (plain characters or a Kitty-encoded key), or undefined for other keys. */
export function printableText(data: string): string | undefined {
	if (data.startsWith("\x1b")) return decodeKittyPrintable(data);
	for (const char of data) {
		const code = char.codePointAt(0) ?? 0;
		if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return undefined;
	}
	return data;
}

/**
 * A single-line text input with horizontal scrolling. Enter submits, Escape calls `onEscape`; the usual
 * editing keys (line start/end, word movement, kill to start/end, delete word) work as in the editor.
 */
export class Input extends CachedComponent implements Focusable {
	private value = "";
	private cursor = 0;
	private isFocused = false;
	onSubmit?: (value: string) => void;
	onEscape?: () => void;
	onChange?: (value: string) => void;

	get focused(): boolean {
		return this.isFocused;
	}

	set focused(focused: boolean) {
		if (focused === this.isFocused) return;
		this.isFocused = focused;
		this.markChanged();
	}

	getValue(): string {
		return this.value;
	}

	setValue(value: string): void {
		this.value = value.replace(/[\r\n]+/g, " ");
		this.cursor = this.value.length;
		this.markChanged();
	}

	handleInput(data: string): void {
		const keys = getEditorKeybindings();
		if (data.startsWith(PASTE_START)) {
			const pasted = data.slice(PASTE_START.length, data.endsWith(PASTE_END) ? -PASTE_END.length : undefined);
			this.insert(pasted.replace(/[\r\n\t]+/g, " "));
			return;
		}
		if (keys.matches(data, "submit")) {
			this.onSubmit?.(this.value);
			return;
		}
		if (matchesKey(data, "escape")) {
			this.onEscape?.();
			return;
		}
		const before = this.value;
		if (keys.matches(data, "cursorLeft")) this.cursor = previousGraphemeBoundary(this.value, this.cursor);
		else if (keys.matches(data, "cursorRight")) this.cursor = nextGraphemeBoundary(this.value, this.cursor);
		else if (keys.matches(data, "cursorWordLeft")) this.cursor = previousWordBoundary(this.value, this.cursor);
		else if (keys.matches(data, "cursorWordRight")) this.cursor = nextWordBoundary(this.value, this.cursor);
		else if (keys.matches(data, "cursorLineStart")) this.cursor = 0;
		else if (keys.matches(data, "cursorLineEnd")) this.cursor = this.value.length;
		else if (keys.matches(data, "deleteCharBackward"))
			this.deleteRange(previousGraphemeBoundary(this.value, this.cursor), this.cursor);
		else if (keys.matches(data, "deleteCharForward"))
			this.deleteRange(this.cursor, nextGraphemeBoundary(this.value, this.cursor));
		else if (keys.matches(data, "deleteWordBackward"))
			this.deleteRange(previousWordBoundary(this.value, this.cursor), this.cursor);
		else if (keys.matches(data, "deleteWordForward"))
			this.deleteRange(this.cursor, nextWordBoundary(this.value, this.cursor));
		else if (keys.matches(data, "deleteToLineStart")) this.deleteRange(0, this.cursor);
		else if (keys.matches(data, "deleteToLineEnd")) this.deleteRange(this.cursor, this.value.length);
		else {
			const text = printableText(data);
			if (text !== undefined) this.insert(text);
			return;
		}
		this.markChanged();
		if (this.value !== before) this.onChange?.(this.value);
	}

	protected renderLines(width: number): string[] {
		const available = Math.max(1, width - PROMPT.length);
		const graphemes = [...segmentGraphemes(this.value)];
		let cursorIndex = graphemes.findIndex((g) => g.index >= this.cursor);
		if (cursorIndex === -1) cursorIndex = graphemes.length;
		// Scroll so the cursor stays visible, keeping it about two thirds along when scrolling is needed.
		const widths = graphemes.map((g) => visibleWidth(g.segment));
		let start = 0;
		let widthBeforeCursor = widths.slice(0, cursorIndex).reduce((a, b) => a + b, 0);
		while (widthBeforeCursor > available - 1 - Math.floor(available / 3) && start < cursorIndex) {
			widthBeforeCursor -= widths[start];
			start++;
		}
		let line = "";
		let used = 0;
		for (let i = start; i <= graphemes.length; i++) {
			const isCursor = i === cursorIndex;
			const segment = i < graphemes.length ? graphemes[i].segment : " ";
			const segmentWidth = i < graphemes.length ? widths[i] : 1;
			if (used + segmentWidth > available) break;
			if (isCursor && this.isFocused) line += `${CURSOR_MARKER}\x1b[7m${segment}\x1b[27m`;
			else if (i < graphemes.length) line += segment;
			used += segmentWidth;
		}
		return [PROMPT + line];
	}

	private insert(text: string): void {
		if (text.length === 0) return;
		this.value = this.value.slice(0, this.cursor) + text + this.value.slice(this.cursor);
		this.cursor += text.length;
		this.markChanged();
		this.onChange?.(this.value);
	}

	private deleteRange(from: number, to: number): void {
		if (to <= from) return;
		this.value = this.value.slice(0, from) + this.value.slice(to);
		this.cursor = from;
	}
}
