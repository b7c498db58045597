// Runs a command in a detached tmux session on a private server socket, so end-to-end tests drive the real
// `agent` binary in a real terminal: send keys, poll `capture-pane` until text appears, read the exit status.
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childrenOf, isRunning } from "./processes.js";

const TMUX = "tmux";

/** Whether tmux can be run here (tests skip with a reason when it cannot). */
export function isTmuxAvailable(): boolean {
	const result = spawnSync(TMUX, ["-V"], { stdio: "ignore" });
	return !result.error && result.status === 0;
}

function shellQuote(value: string): string {
	return `'${value.replace(/'/g, "'\\''")}'`;
}

export interface TmuxSessionOptions {
	command: string[];
	cwd: string;
	env: NodeJS.ProcessEnv;
	columns?: number;
	rows?: number;
}

export class TmuxSession {
	private readonly exitFile: string;
	private isClosed = false;

	private constructor(
		private readonly socket: string,
		readonly name: string,
		exitFile: string,
	) {
		this.exitFile = exitFile;
	}

	static start(options: TmuxSessionOptions): TmuxSession {
		const id = randomBytes(4).toString("hex");
		const socket = `agent-test-${id}`;
		const name = `agent-${id}`;
		const exitFile = join(tmpdir(), `agent-tmux-exit-${id}`);
		const env = Object.entries({ TERM: "xterm-256color", ...options.env })
			.filter((entry): entry is [string, string] => entry[1] !== undefined)
			.map(([key, value]) => `${key}=${shellQuote(value)}`)
			.join(" ");
		// The terminal's modes after the command (to check it restored them), then its exit status, go to files so
		// tests can read them after the pane is gone.
		const script = `cd ${shellQuote(options.cwd)} && env -i ${env} ${options.command.map(shellQuote).join(" ")}; status=$?; stty -a > ${shellQuote(`${exitFile}.tty`)} 2>&1; echo $status > ${shellQuote(exitFile)}`;
		execFileSync(TMUX, [
			"-L",
			socket,
			"-f",
			"/dev/null",
			"new-session",
			"-d",
			"-s",
			name,
			"-x",
			String(options.columns ?? 120),
			"-y",
			String(options.rows ?? 40),
			"sh",
			"-c",
			script,
		]);
		// Keep the window's size fixed whatever clients attach.
		spawnSync(TMUX, ["-L", socket, "set-option", "-t", name, "remain-on-exit", "off"], { stdio: "ignore" });
		return new TmuxSession(socket, name, exitFile);
	}

	private tmux(args: string[]): string {
		return execFileSync(TMUX, ["-L", this.socket, ...args], { encoding: "utf8" });
	}

	/** Types `text` literally. */
	type(text: string): void {
		this.tmux(["send-keys", "-t", this.name, "-l", text]);
	}

	/** Sends tmux key names (`Enter`, `Escape`, `C-c`, `M-Enter`, `Up`, …). */
	press(...keys: string[]): void {
		this.tmux(["send-keys", "-t", this.name, ...keys]);
	}

	/** Types `text` and presses Enter. */
	submit(text: string): void {
		this.type(text);
		this.press("Enter");
	}

	/** Resizes the window, as a user resizing the terminal would. */
	resize(columns: number, rows: number): void {
		this.tmux(["resize-window", "-t", this.name, "-x", String(columns), "-y", String(rows)]);
	}

	/** Whether the program switched the pane to the alternate screen. */
	isAlternateScreen(): boolean {
		return this.tmux(["display-message", "-p", "-t", this.name, "#{alternate_on}"]).trim() === "1";
	}

	/** The visible screen, or with `history` also the scrollback. */
	capture(options: { history?: boolean } = {}): string {
		if (this.isClosed) return "";
		try {
			return this.tmux(["capture-pane", "-p", "-J", "-t", this.name, ...(options.history ? ["-S", "-"] : [])]);
		} catch {
			return "";
		}
	}

	get isRunning(): boolean {
		const result = spawnSync(TMUX, ["-L", this.socket, "has-session", "-t", this.name], { stdio: "ignore" });
		return result.status === 0;
	}

	/** Polls the screen until `pattern` appears; fails with the screen's content after `timeoutMs`. */
	async waitFor(
		pattern: string | RegExp | ((screen: string) => boolean),
		options: { timeoutMs?: number; history?: boolean } = {},
	): Promise<string> {
		const deadline = Date.now() + (options.timeoutMs ?? 10_000);
		let screen = "";
		for (;;) {
			screen = this.capture({ history: options.history ?? true });
			const found =
				typeof pattern === "string"
					? screen.includes(pattern)
					: pattern instanceof RegExp
						? pattern.test(screen)
						: pattern(screen);
			if (found) return screen;
			if (Date.now() > deadline) {
				throw new Error(`Timed out waiting for ${String(pattern)}. Screen:\n${screen}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 25));
		}
	}

	/** Polls until the command has exited; returns its exit status. */
	async waitForExit(timeoutMs = 10_000): Promise<number> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (existsSync(this.exitFile)) {
				const text = readFileSync(this.exitFile, "utf8").trim();
				if (text !== "") return Number(text);
			}
			if (Date.now() > deadline) throw new Error(`Timed out waiting for exit. Screen:\n${this.capture()}`);
			await new Promise((resolve) => setTimeout(resolve, 25));
		}
	}

	/** `stty -a` of the pane's terminal right after the command exited. */
	terminalModesAfterExit(): string {
		const path = `${this.exitFile}.tty`;
		return existsSync(path) ? readFileSync(path, "utf8") : "";
	}

	/** The pid of the process running in the pane (the shell wrapper's child is the command). */
	panePid(): number {
		return Number(this.tmux(["display-message", "-p", "-t", this.name, "#{pane_pid}"]).trim());
	}

	/**
	 * Ends the session (the command gets SIGHUP) and resolves once the command has exited: an agent writes its caches
	 * as it exits, into a sandbox the test is about to remove.
	 */
	async kill(): Promise<void> {
		if (this.isClosed) return;
		this.isClosed = true;
		const commands = this.commandPids();
		spawnSync(TMUX, ["-L", this.socket, "kill-server"], { stdio: "ignore" });
		rmSync(this.exitFile, { force: true });
		rmSync(`${this.exitFile}.tty`, { force: true });
		const deadline = Date.now() + 10_000;
		while (commands.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
	}

	/** The processes the pane's shell runs (none once the command has exited, or where there is no /proc). */
	private commandPids(): number[] {
		let shell: number;
		try {
			shell = this.panePid();
		} catch {
			return [];
		}
		return childrenOf(shell);
	}
}
