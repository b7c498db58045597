import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Readable } from "node:stream";
import { getShellEnv, resolveShell } from "./shell.js";

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

/** Kills a process and everything in its process group (SIGKILL), ignoring processes that are gone. */
export function killProcessTree(pid: number): void {
	if (process.platform === "win32") {
		try {
			spawn("taskkill", ["/F", "/T", "/PID", String(pid)], { stdio: "ignore", detached: true, windowsHide: true });
		} catch {
			// already gone
		}
		return;
	}
	try {
		process.kill(-pid, "SIGKILL");
	} catch {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// already gone
		}
	}
}

function ignore(): void {}

/**
 * Stops collecting from a pipe that a background process may keep open, without blocking that process. Every
 * listener of ours goes: a finished child's pipes survive young-generation collections until a full one, and with
 * them whatever their listeners reach (the command's whole scope, its output with it).
 */
function detachStream(stream: Readable, onData: (data: Buffer) => void, onEnd: () => void): void {
	stream.removeListener("data", onData);
	stream.removeListener("end", onEnd);
	// Keep draining so a daemon that still writes does not block on a full pipe; do not keep us alive.
	stream.on("data", ignore);
	stream.on("error", ignore);
	stream.resume();
	(stream as Readable & { unref?: () => void }).unref?.();
}

/**
 * Runs commands with the local shell (`<shell> -c <command>`), in their own process group, stdin closed so
 * interactive programs get end-of-file instead of waiting for a user.
 */
export function createLocalBashOperations(options: LocalBashOperationsOptions = {}): BashOperations {
	return {
		exec(command, cwd, { onData, signal, timeout, env }) {
			if (signal?.aborted) return Promise.reject(new Error("aborted"));
			if (!existsSync(cwd)) {
				return Promise.reject(new Error(`Working directory does not exist: ${cwd}\nCannot execute bash commands.`));
			}
			let shell: ReturnType<typeof resolveShell>;
			try {
				shell = resolveShell(options.shellPath);
			} catch (error) {
				return Promise.reject(error);
			}
			return new Promise((resolve, reject) => {
				const child = spawn(shell.shell, [...shell.args, command], {
					cwd,
					env: env ?? getShellEnv(),
					detached: true,
					stdio: ["ignore", "pipe", "pipe"],
					windowsHide: true,
				});
				const streams = [child.stdout, child.stderr];
				let openStreams = streams.length;
				let settled = false;
				let timedOut = false;
				let aborted = false;
				let exitCode: number | null = null;
				let dataEvents = 0;
				let timer: NodeJS.Timeout | undefined;
				let drainTimer: NodeJS.Timeout | undefined;

				const handleData = (data: Buffer) => {
					dataEvents++;
					onData(data);
				};
				const onEnd = () => {
					openStreams--;
				};
				const onError = (error: Error) => {
					if (settled) return;
					settled = true;
					cleanup();
					reject(error);
				};
				const kill = () => {
					if (child.pid !== undefined) killProcessTree(child.pid);
				};
				const onAbort = () => {
					aborted = true;
					kill();
				};
				const cleanup = () => {
					if (timer) clearTimeout(timer);
					if (drainTimer) clearTimeout(drainTimer);
					signal?.removeEventListener("abort", onAbort);
				};
				const finish = () => {
					if (settled) return;
					settled = true;
					cleanup();
					for (const stream of streams) detachStream(stream, handleData, onEnd);
					// As for the pipes (detachStream): the child keeps nothing of ours once settled.
					child.removeListener("error", onError);
					child.removeListener("close", finish);
					child.on("error", ignore);
					child.unref();
					if (aborted) reject(new Error("aborted"));
					else if (timedOut) reject(new Error(`timeout:${timeout}`));
					else resolve({ exitCode });
				};
				const waitForDrain = () => {
					if (openStreams === 0) return finish();
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

				for (const stream of streams) {
					stream.on("data", handleData);
					stream.once("end", onEnd);
				}
				child.once("error", onError);
				// Not "close": that waits for every process holding the pipes, e.g. `server &`, to exit.
				child.once("exit", (code) => {
					exitCode = code;
					waitForDrain();
				});
				child.once("close", finish);

				if (timeout !== undefined && timeout > 0 && timeout * 1000 <= MAX_TIMER_MS) {
					timer = setTimeout(() => {
						timedOut = true;
						kill();
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
