import { existsSync } from "node:fs";
import { getShellEnv, resolveShell, type ShellConfig } from "./shell.js";
import { type CommandHandlers, killProcessTree, startShellCommand } from "./shell-launcher.js";

export { killProcessTree };

export interface BashExecOptions {
	/** stdout and stderr, interleaved as they arrive. */
	onData: (data: Buffer) => void;
	signal?: AbortSignal;
	/** Seconds; absent or ≤ 0 means no timeout. */
	timeout?: number;
	env?: NodeJS.ProcessEnv;
}

/** How the bash tool runs a command; replace it to run commands over SSH, in a container, … */
export interface BashOperations {
	/** Rejects `Error("aborted")` on abort and `Error("timeout:<secs>")` on timeout. */
	exec(command: string, cwd: string, options: BashExecOptions): Promise<{ exitCode: number | null }>;
}

export interface LocalBashOperationsOptions {
	/** Settings `shellPath`: the shell to use instead of the detected bash. */
	shellPath?: string;
}

// After the shell exits, output it wrote may still sit in the pipes: keep reading until they have been quiet
// this long. Background processes may hold the pipes open forever, so stop listening after DRAIN_MAX_MS.
const DRAIN_IDLE_MS = 25;
const DRAIN_MAX_MS = 1000;
// setTimeout fires at once for delays above 2^31-1 ms; longer timeouts mean "no timeout".
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs commands with the local shell (`<shell> -c <command>`), in their own process group, stdin closed so
 * interactive programs get end-of-file instead of waiting for a user; forked by a bash launcher where one can
 * (shell-launcher.ts).
 */
export function createLocalBashOperations(options: LocalBashOperationsOptions = {}): BashOperations {
	return {
		exec(command, cwd, { onData, signal, timeout, env }) {
			if (signal?.aborted) return Promise.reject(new Error("aborted"));
			if (!existsSync(cwd)) {
				return Promise.reject(new Error(`Working directory does not exist: ${cwd}\nCannot execute bash commands.`));
			}
			let shell: ShellConfig;
			try {
				shell = resolveShell(options.shellPath);
			} catch (error) {
				return Promise.reject(error);
			}
			return new Promise((resolve, reject) => {
				let settled = false;
				let timedOut = false;
				let aborted = false;
				let exited = false;
				let outputEnded = false;
				let exitCode: number | null = null;
				let dataEvents = 0;
				let timer: NodeJS.Timeout | undefined;
				let drainTimer: NodeJS.Timeout | undefined;

				const cleanup = () => {
					if (timer) clearTimeout(timer);
					if (drainTimer) clearTimeout(drainTimer);
					signal?.removeEventListener("abort", onAbort);
				};
				const settle = () => {
					settled = true;
					cleanup();
					started.release();
				};
				const finish = () => {
					if (settled) return;
					settle();
					if (aborted) reject(new Error("aborted"));
					else if (timedOut) reject(new Error(`timeout:${timeout}`));
					else resolve({ exitCode });
				};
				const waitForDrain = () => {
					if (outputEnded) return finish();
					const deadline = Date.now() + DRAIN_MAX_MS;
					let seen = dataEvents;
					const arm = () => {
						drainTimer = setTimeout(() => {
							// One more poll phase runs before the immediate, so data already in the pipe is read first.
							setImmediate(() => {
								if (settled) return;
								if (dataEvents !== seen && Date.now() < deadline) {
									seen = dataEvents;
									arm();
								} else {
									finish();
								}
							});
						}, DRAIN_IDLE_MS);
					};
					arm();
				};
				const handlers: CommandHandlers = {
					onData(data) {
						dataEvents++;
						onData(data);
					},
					onOutputEnd() {
						outputEnded = true;
						// Not before the exit: a shell that closed its output may still be running.
						if (exited) finish();
					},
					onExit(code) {
						exitCode = code;
						exited = true;
						// Not "all pipes closed": that waits for every process holding them, e.g. `server &`, to exit.
						waitForDrain();
					},
					onError(error) {
						if (settled) return;
						settle();
						reject(error);
					},
				};
				const onAbort = () => {
					aborted = true;
					started.kill();
				};

				const started = startShellCommand({ shell, command, cwd, env: env ?? getShellEnv() }, handlers);

				if (timeout !== undefined && timeout > 0 && timeout * 1000 <= MAX_TIMER_MS) {
					timer = setTimeout(() => {
						timedOut = true;
						started.kill();
					}, timeout * 1000);
				}
				if (signal) {
					if (signal.aborted) onAbort();
					else signal.addEventListener("abort", onAbort, { once: true });
				}
			});
		},
	};
}
