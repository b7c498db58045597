/** What the TUI needs from a terminal: input, size, output and a few cursor and screen operations. */
export interface Terminal {
	/** Starts raw input; `onInput` receives one key sequence (or one whole bracketed paste) per call. */
	start(onInput: (data: string) => void, onResize: () => void): void;
	/** Restores the terminal to the state it had before `start`. */
	stop(): void;
	/** Turns the keyboard protocols off and swallows input until it has been idle for `idleMs` (at most `maxMs`). */
	drainInput(maxMs?: number, idleMs?: number): Promise<void>;
	write(data: string): void;
	readonly columns: number;
	readonly rows: number;
	readonly kittyProtocolActive: boolean;
	/** Moves the cursor down (positive) or up (negative) by `lines`. */
	moveBy(lines: number): void;
	hideCursor(): void;
	showCursor(): void;
	clearLine(): void;
	clearFromCursor(): void;
	clearScreen(): void;
	setTitle(title: string): void;
}

/** Escape sequences shared by terminal implementations. */
export const TerminalSequences = {
	bracketedPasteOn: "\x1b[?2004h",
	bracketedPasteOff: "\x1b[?2004l",
	kittyQuery: "\x1b[?u",
	/** Push Kitty flags 1 (disambiguate) + 2 (event types) + 4 (alternate keys). */
	kittyEnable: "\x1b[>7u",
	kittyDisable: "\x1b[<u",
	modifyOtherKeysOn: "\x1b[>4;2m",
	modifyOtherKeysOff: "\x1b[>4;0m",
	showCursor: "\x1b[?25h",
	hideCursor: "\x1b[?25l",
	clearLine: "\x1b[K",
	clearFromCursor: "\x1b[J",
	clearScreen: "\x1b[2J\x1b[H",
	syncEnd: "\x1b[?2026l",
	cellSizeQuery: "\x1b[16t",
	moveBy(lines: number): string {
		if (lines > 0) return `\x1b[${lines}B`;
		if (lines < 0) return `\x1b[${-lines}A`;
		return "";
	},
	setTitle(title: string): string {
		return `\x1b]0;${title}\x07`;
	},
} as const;

/**
 * The output half of a `Terminal`: its cursor and screen operations, as escape sequences passed to
 * `write`. Terminals extend it and supply `write`, input and size.
 */
export abstract class TerminalOutput {
	abstract write(data: string): void;

	moveBy(lines: number): void {
		this.write(TerminalSequences.moveBy(lines));
	}

	hideCursor(): void {
		this.write(TerminalSequences.hideCursor);
	}

	showCursor(): void {
		this.write(TerminalSequences.showCursor);
	}

	clearLine(): void {
		this.write(TerminalSequences.clearLine);
	}

	clearFromCursor(): void {
		this.write(TerminalSequences.clearFromCursor);
	}

	clearScreen(): void {
		this.write(TerminalSequences.clearScreen);
	}

	setTitle(title: string): void {
		this.write(TerminalSequences.setTitle(title));
	}
}

/** Kitty's reply to the keyboard-protocol query: ESC [ ? flags u */
export const KITTY_QUERY_REPLY = /^\x1b\[\?(\d+)u$/;
