import { PASTE_END, PASTE_START, StdinBuffer } from "./stdin-buffer.js";
import { type Terminal, TerminalOutput } from "./terminal.js";

/** One row of an emulator's buffer (the subset of @xterm/headless's IBufferLine used here). */
export interface EmulatorLine {
	readonly isWrapped: boolean;
	translateToString(trimRight?: boolean, startColumn?: number, endColumn?: number): string;
}

export interface EmulatorBuffer {
	readonly length: number;
	readonly baseY: number;
	readonly viewportY: number;
	readonly cursorX: number;
	readonly cursorY: number;
	getLine(y: number): EmulatorLine | undefined;
}

/**
 * A terminal emulator that parses output into a screen buffer. `@xterm/headless`'s `Terminal` fits this
 * interface as is; the library does not depend on it, tests and embedders pass one in.
 */
export interface TerminalEmulator {
	readonly cols: number;
	readonly rows: number;
	readonly buffer: { readonly active: EmulatorBuffer };
	write(data: string, callback?: () => void): void;
	resize(columns: number, rows: number): void;
	reset(): void;
	clear(): void;
}

/**
 * A `Terminal` backed by an in-memory emulator, for tests and for rendering without a TTY. It records
 * every write so tests can assert how many bytes an update cost.
 */
export class VirtualTerminal<E extends TerminalEmulator = TerminalEmulator> extends TerminalOutput implements Terminal {
	private onInput: ((data: string) => void) | undefined;
	private onResize: (() => void) | undefined;
	private readonly stdinBuffer: StdinBuffer;
	private writes: string[] = [];
	private isStarted = false;
	readonly kittyProtocolActive = true;
	title = "";

	constructor(readonly emulator: E) {
		super();
		this.stdinBuffer = new StdinBuffer({
			onSequence: (sequence) => this.onInput?.(sequence),
			onPaste: (text) => this.onInput?.(PASTE_START + text + PASTE_END),
		});
	}

	get columns(): number {
		return this.emulator.cols;
	}

	get rows(): number {
		return this.emulator.rows;
	}

	get started(): boolean {
		return this.isStarted;
	}

	start(onInput: (data: string) => void, onResize: () => void): void {
		this.onInput = onInput;
		this.onResize = onResize;
		this.isStarted = true;
	}

	stop(): void {
		this.isStarted = false;
		this.stdinBuffer.destroy();
	}

	async drainInput(): Promise<void> {}

	override write(data: string): void {
		if (data.length === 0) return;
		this.writes.push(data);
		this.emulator.write(data);
	}

	override setTitle(title: string): void {
		this.title = title;
		super.setTitle(title);
	}

	/**
	 * Simulates typing: `data` goes through the same sequence splitting as real stdin. With
	 * `isComplete` (default) anything left pending (a lone ESC) is delivered at once instead of after
	 * the escape timeout; pass false to feed a sequence in several chunks.
	 */
	sendInput(data: string, isComplete = true): void {
		this.stdinBuffer.process(data);
		if (isComplete) this.stdinBuffer.flush();
	}

	/** Resizes the emulator and notifies the TUI, as a terminal window resize would. */
	resize(columns: number, rows: number): void {
		this.emulator.resize(columns, rows);
		this.onResize?.();
	}

	/** Resolves once the emulator has processed everything written so far. */
	flush(): Promise<void> {
		return new Promise((resolve) => this.emulator.write("", resolve));
	}

	/** The visible rows, right-trimmed. */
	getViewport(): string[] {
		const buffer = this.emulator.buffer.active;
		const rows: string[] = [];
		for (let y = 0; y < this.emulator.rows; y++) {
			rows.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
		}
		return rows;
	}

	/** Every row of the buffer, scrollback included, right-trimmed. */
	getScrollBuffer(): string[] {
		const buffer = this.emulator.buffer.active;
		const rows: string[] = [];
		for (let y = 0; y < buffer.length; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? "");
		return rows;
	}

	/** Cursor position in the visible screen (0-based). */
	getCursorPosition(): { x: number; y: number } {
		const buffer = this.emulator.buffer.active;
		return { x: buffer.cursorX, y: buffer.cursorY };
	}

	/** Everything written since the last call. */
	takeWrites(): string {
		const all = this.writes.join("");
		this.writes = [];
		return all;
	}

	clear(): void {
		this.emulator.clear();
	}

	reset(): void {
		this.emulator.reset();
		this.writes = [];
	}
}
