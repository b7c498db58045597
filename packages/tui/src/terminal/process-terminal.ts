import { appendFileSync, writeSync } from "node:fs";
import { setKittyProtocolActive } from "../keys/kitty-state.js";
import { PASTE_END, PASTE_START, StdinBuffer } from "./stdin-buffer.js";
import { KITTY_QUERY_REPLY, TerminalSequences as Seq, type Terminal, TerminalOutput } from "./terminal.js";

/** How long to wait for the Kitty query reply before falling back to xterm modifyOtherKeys. */
const KITTY_REPLY_TIMEOUT_MS = 150;
const RESTORE_SIGNALS = ["SIGTERM", "SIGHUP"] as const;

type InputStream = NodeJS.ReadStream;
type OutputStream = NodeJS.WriteStream;

/**
 * The real terminal: stdin in raw mode, bracketed paste, the Kitty keyboard protocol when the terminal
 * answers the query (xterm modifyOtherKeys otherwise), resize events, and a terminal restored on stop,
 * on exit, on a crash and on SIGTERM/SIGHUP.
 *
 * Windows: the reference enables VT input through kernel32 so Shift+Tab and similar keys arrive as
 * sequences; that needs a native FFI module, so here Windows relies on the console's default VT input.
 */
export class ProcessTerminal extends TerminalOutput implements Terminal {
	private stdinBuffer: StdinBuffer | undefined;
	private onInput: ((data: string) => void) | undefined;
	private onResize: (() => void) | undefined;
	private isKittyActive = false;
	private isModifyOtherKeysActive = false;
	private isKittyQueryPending = false;
	private kittyTimer: ReturnType<typeof setTimeout> | undefined;
	private wasRaw = false;
	private isStarted = false;
	private readonly writeLogPath: string | undefined;

	constructor(
		private readonly stdin: InputStream = process.stdin,
		private readonly stdout: OutputStream = process.stdout,
		env: Record<string, string | undefined> = process.env,
	) {
		super();
		this.writeLogPath = env.AGENT_TUI_WRITE_LOG || undefined;
	}

	get columns(): number {
		return this.stdout.columns || 80;
	}

	get rows(): number {
		return this.stdout.rows || 24;
	}

	get kittyProtocolActive(): boolean {
		return this.isKittyActive;
	}

	start(onInput: (data: string) => void, onResize: () => void): void {
		if (this.isStarted) return;
		this.isStarted = true;
		this.onInput = onInput;
		this.onResize = onResize;
		if (this.stdin.isTTY) {
			this.wasRaw = this.stdin.isRaw;
			this.stdin.setRawMode(true);
		}
		this.stdin.setEncoding("utf8");
		this.stdin.resume();
		this.write(Seq.bracketedPasteOn);
		this.stdout.on("resize", this.handleResize);
		if (process.platform !== "win32") {
			// Node refreshes stdout.columns/rows on SIGWINCH; ask for one so the first frame has the real size.
			process.kill(process.pid, "SIGWINCH");
		}
		this.stdinBuffer = new StdinBuffer({
			timeoutMs: 10,
			onSequence: (sequence) => this.handleSequence(sequence),
			onPaste: (text) => this.onInput?.(PASTE_START + text + PASTE_END),
		});
		this.stdin.on("data", this.handleData);
		process.on("exit", this.restoreOnExit);
		for (const signal of RESTORE_SIGNALS) process.on(signal, this.restoreOnSignal);
		this.isKittyQueryPending = true;
		this.write(Seq.kittyQuery);
		this.kittyTimer = setTimeout(() => {
			this.kittyTimer = undefined;
			if (this.isKittyActive || !this.isStarted) return;
			this.write(Seq.modifyOtherKeysOn);
			this.isModifyOtherKeysActive = true;
		}, KITTY_REPLY_TIMEOUT_MS);
	}

	stop(): void {
		if (!this.isStarted) return;
		this.isStarted = false;
		if (this.kittyTimer) clearTimeout(this.kittyTimer);
		this.kittyTimer = undefined;
		this.write(this.disableSequences());
		this.isKittyActive = false;
		this.isModifyOtherKeysActive = false;
		setKittyProtocolActive(false);
		this.stdinBuffer?.destroy();
		this.stdinBuffer = undefined;
		this.stdin.off("data", this.handleData);
		this.stdout.off("resize", this.handleResize);
		process.off("exit", this.restoreOnExit);
		for (const signal of RESTORE_SIGNALS) process.off(signal, this.restoreOnSignal);
		this.stdin.pause();
		if (this.stdin.isTTY) this.stdin.setRawMode(this.wasRaw);
	}

	async drainInput(maxMs = 1000, idleMs = 50): Promise<void> {
		const disable =
			(this.isKittyActive ? Seq.kittyDisable : "") + (this.isModifyOtherKeysActive ? Seq.modifyOtherKeysOff : "");
		if (disable) this.write(disable);
		this.isKittyActive = false;
		this.isModifyOtherKeysActive = false;
		setKittyProtocolActive(false);
		const previousHandler = this.onInput;
		this.onInput = undefined;
		await new Promise<void>((resolve) => {
			let idleTimer: ReturnType<typeof setTimeout>;
			const finish = () => {
				clearTimeout(idleTimer);
				clearTimeout(maxTimer);
				this.stdin.off("data", onData);
				resolve();
			};
			const onData = () => {
				clearTimeout(idleTimer);
				idleTimer = setTimeout(finish, idleMs);
			};
			const maxTimer = setTimeout(finish, maxMs);
			idleTimer = setTimeout(finish, idleMs);
			this.stdin.on("data", onData);
		});
		this.stdinBuffer?.flush();
		this.onInput = previousHandler;
	}

	override write(data: string): void {
		if (data.length === 0) return;
		this.stdout.write(data);
		if (this.writeLogPath) {
			try {
				appendFileSync(this.writeLogPath, data);
			} catch {
				// The write log is a debugging aid; failing to write it must not break the UI.
			}
		}
	}

	private disableSequences(): string {
		return (
			Seq.bracketedPasteOff +
			(this.isKittyActive ? Seq.kittyDisable : "") +
			(this.isModifyOtherKeysActive ? Seq.modifyOtherKeysOff : "")
		);
	}

	private readonly handleData = (chunk: string | Buffer): void => {
		this.stdinBuffer?.process(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
	};

	private readonly handleResize = (): void => {
		this.onResize?.();
	};

	private handleSequence(sequence: string): void {
		if (this.isKittyQueryPending && KITTY_QUERY_REPLY.test(sequence)) {
			this.isKittyQueryPending = false;
			// A late reply after the modifyOtherKeys fallback: switch protocols.
			if (this.isModifyOtherKeysActive) this.write(Seq.modifyOtherKeysOff);
			this.isModifyOtherKeysActive = false;
			this.write(Seq.kittyEnable);
			this.isKittyActive = true;
			setKittyProtocolActive(true);
			return;
		}
		this.onInput?.(sequence);
	}

	/** Synchronous restore for process exit (including after an uncaught exception). */
	private readonly restoreOnExit = (): void => {
		const sequences = `${Seq.syncEnd}${this.disableSequences()}${Seq.showCursor}`;
		try {
			const fd = (this.stdout as unknown as { fd?: unknown }).fd;
			if (this.stdout.isTTY && typeof fd === "number") writeSync(fd, sequences);
			if (this.stdin.isTTY) this.stdin.setRawMode(this.wasRaw);
		} catch {
			// The terminal may already be gone.
		}
	};

	private readonly restoreOnSignal = (signal: NodeJS.Signals): void => {
		this.restoreOnExit();
		// When nobody else handles the signal, keep its default meaning (terminate) after restoring.
		if (process.listenerCount(signal) === 1) {
			this.stop();
			process.kill(process.pid, signal);
		}
	};
}
