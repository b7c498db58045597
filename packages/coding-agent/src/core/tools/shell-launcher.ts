// How a bash command is started: forked by a small bash, the launcher, instead of by this process. fork() copies a
// process's page tables and write-protects its memory, so a Node process of ~100 MB pays ~2 ms in the call and more
// in copy-on-write faults after it, on every command (perf on the 2-core VM: ~6 ms of CPU a command); a bash of a
// few MB pays a fraction of that. A launcher runs LAUNCHER_SCRIPT; one is started per shell (with the first
// command) and runs one command at a time. The command is what a direct spawn runs: `exec <shell> <args...>
// <command>`, in its own process group, stdin /dev/null, in `cwd`, with the launcher's environment, which must be
// the command's (compared on every command; one that comes twice in a row replaces the launcher).
//
// Output comes through a FIFO in the launcher's private directory: stdout and stderr on one pipe, in the order they
// were written. We open its read end (non-blocking) once it exists, before we send the command, and the open for
// writing waits for that; we read only once the launcher says the command started, so the read end never sees "no
// writer yet" as end-of-file. End of file then means what a direct spawn's `close` means: every process holding the
// pipe has exited. A background process that outlives the settled command still holds the pipe: that launcher is
// retired.
//
// This process spawns the command itself where no launcher can run it: another shell than bash, not Linux, a NUL
// byte, a second command while one runs, a launcher that failed to start (not retried), or that died or failed
// before starting the command. Two things differ for a command a launcher runs: its parent is the launcher, and
// when a signal ends it, it reports 128 + the signal's number, as bash reports it, where a direct spawn reports no
// exit code.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { Socket } from "node:net";
import { basename, join } from "node:path";
import type { Readable } from "node:stream";
import { JsonlLineSplitter } from "../line-splitter.js";
import { makeTempDir, removeTempPath } from "../temp-paths.js";
import type { ShellConfig } from "./shell.js";

/** A command to run: `<shell> <args...> <command>` in `cwd` with `env`. */
export interface ShellRequest {
	shell: ShellConfig;
	command: string;
	cwd: string;
	env: NodeJS.ProcessEnv;
}

/** What a started command reports; each fires at most once except `onData`. */
export interface CommandHandlers {
	/** stdout and stderr, interleaved as they arrive. */
	onData(data: Buffer): void;
	/** Every process holding the output pipes has closed them. */
	onOutputEnd(): void;
	/** The shell exited (null: killed by a signal, or its status is unknown). */
	onExit(code: number | null): void;
	/** The command could not be started. */
	onError(error: Error): void;
}

/** A command that is running or has run. */
export interface StartedCommand {
	/** Kills it and everything in its process group. */
	kill(): void;
	/** It has settled: stop collecting output (a background process may still write) and let go of it. */
	release(): void;
}

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
function detachStream(stream: Readable): void {
	for (const event of ["data", "end", "error"]) stream.removeAllListeners(event);
	// Keep draining so a daemon that still writes does not block on a full pipe; do not keep us alive.
	stream.on("data", ignore);
	stream.on("error", ignore);
	stream.resume();
	(stream as Readable & { unref?: () => void }).unref?.();
}

/** Spawns the command from this process, in its own process group (session), stdin closed. */
function spawnCommand({ shell, command, cwd, env }: ShellRequest, handlers: CommandHandlers): StartedCommand {
	const child = spawn(shell.shell, [...shell.args, command], {
		cwd,
		env,
		detached: true,
		stdio: ["ignore", "pipe", "pipe"],
		windowsHide: true,
	});
	const streams = [child.stdout, child.stderr];
	let openStreams = streams.length;
	const onEnd = () => {
		if (--openStreams === 0) handlers.onOutputEnd();
	};
	for (const stream of streams) {
		stream.on("data", handlers.onData);
		stream.once("end", onEnd);
	}
	const onError = (error: Error) => handlers.onError(error);
	const onExit = (code: number | null) => handlers.onExit(code);
	child.once("error", onError);
	child.once("exit", onExit);
	return {
		kill() {
			if (child.pid !== undefined) killProcessTree(child.pid);
		},
		release() {
			// A child that could not be spawned may have no pipes.
			for (const stream of streams) if (stream) detachStream(stream);
			// As for the pipes: the child keeps nothing of ours once settled.
			child.removeListener("error", onError);
			child.removeListener("exit", onExit);
			child.on("error", ignore);
			child.unref();
		},
	};
}

// $1 the private directory; $2 "1" when SHLVL was set and $3 its value, the same for OLDPWD and BASH_ENV; then the
// shell and its arguments. bash raises SHLVL when it starts, `cd` sets OLDPWD, and the launcher runs without
// BASH_ENV (a non-interactive bash runs that file): the command gets the values it would have had.
//
// The launcher forks each command's subshell ahead, the standby, as soon as the command before has ended: a fork
// costs ~2-3 ms of page faults on the 2-core VM (the child's, before it can run anything), which then happen while
// the agent waits for the model instead of after the model asked for the command. The standby reads the request
// itself: a line on stdin (from a pipe bash reads one byte per system call), then the cwd and command, each ended
// by NUL, from `req` (from a file it reads them in blocks). It checks that the launcher is still its parent (one
// killed while idle must not leave an orphan that runs the next command with no one to report its exit; one killed
// just as the standby starts a command leaves that command's exit code unknown, as one killed while a command runs
// does), opens the output FIFO (the agent opened the read end before it sent the line), says `pid`, and execs the
// command. Failing before that, it exits without a `pid` line, which tells the agent to run the command itself. At
// the end of its input it ends the launcher (TERM, trapped: the launcher then removes its directory). `set -m` gives
// each standby its own process group; the job notices it prints go to stderr, which is /dev/null. Its variables are
// named so that no variable of the command's environment is one of them (an imported variable stays exported:
// assigning it would change the command's environment). It removes its directory when it exits: at the end of its
// input, or when it writes to an agent that is gone (SIGPIPE, trapped; a caught signal is the default again in the
// standby and the command). An agent killed outside its control cannot remove it, and `req` holds the last command.
const LAUNCHER_SCRIPT = `__l_dir=$1 __l_had_shlvl=$2 __l_shlvl=$3 __l_had_oldpwd=$4 __l_oldpwd=$5 __l_had_bash_env=$6 __l_bash_env=$7
shift 7
trap '[ -d "$__l_dir" ] && rm -rf -- "$__l_dir"' EXIT
trap 'exit 1' PIPE
trap 'exit 0' TERM
mkfifo -m 600 "$__l_dir/out" || exit 1
set -m
printf 'ready\\n'
while :; do
	(
		IFS= read -r __l_line || { kill -s TERM $$; exit 0; }
		{ IFS= read -r -d '' __l_cwd && IFS= read -r -d '' __l_cmd; } < "$__l_dir/req" || exit 1
		__l_ppid=$$
		{ read -r __l_x __l_x __l_x __l_ppid __l_x < /proc/$BASHPID/stat; } 2>/dev/null
		[ "$__l_ppid" = $$ ] || exit 1
		exec 3> "$__l_dir/out" || exit 1
		printf 'pid %s\\n' "$BASHPID"
		if [ "$__l_had_shlvl" = 1 ]; then SHLVL=$__l_shlvl; else unset SHLVL; fi
		cd -- "$__l_cwd" 2>&3 || exit 1
		if [ "$__l_had_oldpwd" = 1 ]; then OLDPWD=$__l_oldpwd; else unset OLDPWD; fi
		if [ "$__l_had_bash_env" = 1 ]; then export BASH_ENV=$__l_bash_env; fi
		exec "$@" "$__l_cmd" < /dev/null >&3 2>&3 3>&-
	) &
	wait "$!"
	printf 'exit %s\\n' "$?"
done
`;

/** One command given to a launcher; spawned directly instead if the launcher dies before starting it. */
class LauncherRun implements StartedCommand {
	private fd: number | undefined;
	private output: Socket | undefined;
	private pid: number | undefined;
	private direct: StartedCommand | undefined;
	private killRequested = false;
	/** Started, and its launcher gone: no exit line will come. */
	private orphaned = false;
	private outputEnded = false;
	private exited = false;
	private released = false;

	constructor(
		private readonly launcher: Launcher,
		private readonly handlers: CommandHandlers,
		private readonly spawnDirectly: () => StartedCommand,
	) {}

	/** Opens the FIFO's read end; false when it cannot be opened. */
	openOutput(path: string): boolean {
		try {
			this.fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
			return true;
		} catch {
			return false;
		}
	}

	get isStarted(): boolean {
		return this.pid !== undefined;
	}

	/** The launcher started the command as process (group) `pid`: read its output. */
	started(pid: number): void {
		this.pid = pid;
		if (this.killRequested) killProcessTree(pid);
		if (this.released || this.fd === undefined) return;
		const output = new Socket({ fd: this.fd, readable: true, writable: false });
		this.fd = undefined;
		this.output = output;
		output.on("data", this.handlers.onData);
		output.once("end", () => {
			this.outputEnded = true;
			this.handlers.onOutputEnd();
			// The launcher died after starting the command: the end of its output is all we learn of its end.
			if (this.orphaned) this.exit(null);
		});
		output.on("error", (error) => this.handlers.onError(error));
	}

	exit(code: number | null): void {
		if (this.exited || this.direct) return;
		this.exited = true;
		this.handlers.onExit(code);
	}

	/** The launcher died or gave up. Before the command started it never will: spawn it here. */
	abandoned(): void {
		if (this.pid !== undefined) {
			this.orphaned = true;
			if (this.outputEnded) this.exit(null);
			return;
		}
		this.closeFd();
		if (this.released) return;
		if (this.killRequested) {
			this.handlers.onOutputEnd();
			this.handlers.onExit(null);
			return;
		}
		try {
			this.direct = this.spawnDirectly();
		} catch (error) {
			this.handlers.onError(error instanceof Error ? error : new Error(String(error)));
		}
	}

	kill(): void {
		if (this.direct) this.direct.kill();
		else if (this.pid === undefined) this.killRequested = true;
		else killProcessTree(this.pid);
	}

	release(): void {
		if (this.released) return;
		this.released = true;
		this.direct?.release();
		this.closeFd();
		if (this.output) detachStream(this.output);
		this.launcher.finished(this, this.exited && this.outputEnded);
	}

	private closeFd(): void {
		if (this.fd === undefined) return;
		closeSync(this.fd);
		this.fd = undefined;
	}
}

class Launcher {
	private closed = false;
	private ready = false;
	private current: LauncherRun | undefined;
	private readonly child: ChildProcess;
	private readonly dir: string;
	private requestFd: number | undefined;
	private readonly lines = new JsonlLineSplitter((line) => this.onControl(line));

	constructor(
		shell: ShellConfig,
		readonly env: NodeJS.ProcessEnv,
		/** Once, when it stops taking commands; `failed`: it died before it was ever ready. */
		private readonly onClosed: (launcher: Launcher, failed: boolean) => void,
	) {
		this.dir = makeTempDir("agent-launcher-");
		const flag = (value: string | undefined) => (value === undefined ? ["0", ""] : ["1", value]);
		const { BASH_ENV: bashEnv, ...launcherEnv } = env;
		// --norc: bash runs ~/.bashrc when its stdin is a socket, as Node's pipes are (it takes that for sshd).
		const args = ["--norc", "--noprofile", "-c", LAUNCHER_SCRIPT, "bash", this.dir];
		args.push(...flag(env.SHLVL), ...flag(env.OLDPWD), ...flag(bashEnv), shell.shell, ...shell.args);
		this.child = spawn(shell.shell, args, {
			cwd: this.dir,
			env: launcherEnv,
			detached: true,
			stdio: ["pipe", "pipe", "ignore"],
			windowsHide: true,
		});
		this.child.on("error", () => this.died());
		// "close", not "exit": by then everything it wrote, a last command's exit line too, has been read. Its standby
		// holds its stdout too; Node ends its stdin as it exits, and the standby then exits.
		this.child.once("close", () => this.died());
		this.child.stdin?.on("error", ignore);
		// Requests are a byte each: the pipe never needs to keep this process alive.
		(this.child.stdin as Socket | null)?.unref();
		this.child.stdout?.on("data", (chunk: Buffer) => this.lines.push(chunk));
		this.keepAlive(false);
	}

	get busy(): boolean {
		return this.current !== undefined;
	}

	/** Gives it `command`; it must not be busy or closed. */
	start(
		{ command, cwd }: ShellRequest,
		handlers: CommandHandlers,
		spawnDirectly: () => StartedCommand,
	): StartedCommand {
		const run = new LauncherRun(this, handlers, spawnDirectly);
		try {
			// Written over the last request without truncating (~0.2 ms on ext4): the launcher reads two fields.
			this.requestFd ??= openSync(join(this.dir, "req"), "w", 0o600);
			writeSync(this.requestFd, `${cwd}\0${command}\0`, 0);
		} catch {
			// Its directory is gone (a temp cleaner): retire it.
			this.retire();
			return spawnDirectly();
		}
		this.current = run;
		this.keepAlive(true);
		if (this.ready) this.send(run);
		return run;
	}

	/** A run was released; `clean`: its command exited and nothing holds its output pipe any more. */
	finished(run: LauncherRun, clean: boolean): void {
		if (run !== this.current) return;
		this.current = undefined;
		this.keepAlive(false);
		if (!clean) this.close();
	}

	/** Stops taking commands; the launcher exits once a command it runs has ended. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.child.stdin?.end();
		this.onClosed(this, false);
	}

	/** Resolves when the launcher process has exited, keeping this process alive until then. */
	exited(): Promise<void> {
		if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
		this.child.ref();
		return new Promise((resolve) => this.child.once("exit", () => resolve()));
	}

	unref(): void {
		this.child.unref();
	}

	private get fifo(): string {
		return join(this.dir, "out");
	}

	/** Closes it now, killing it rather than waiting for its standby to end it. */
	private retire(): void {
		this.close();
		this.child.kill("SIGKILL");
	}

	private onControl(line: string): void {
		if (line === "ready") {
			this.ready = true;
			if (this.current) this.send(this.current);
		} else if (line.startsWith("pid ")) {
			this.current?.started(Number(line.slice(4)));
		} else if (line.startsWith("exit ")) {
			const run = this.current;
			if (run && !run.isStarted) {
				// The standby failed before it started the command (its request or the output FIFO gone).
				this.giveUp(run);
				return;
			}
			// Idle once the run is released (`finished`), which may be after its output's end.
			this.keepAlive(false);
			run?.exit(Number(line.slice(5)));
		}
	}

	/**
	 * Gives the standby `run`'s line once its output's read end is open: the standby opens the FIFO for writing once
	 * it has the line, and that waits for a reader. Sent once the launcher is ready.
	 */
	private send(run: LauncherRun): void {
		if (run.openOutput(this.fifo)) this.child.stdin?.write("\n");
		else this.giveUp(run);
	}

	/** Retires it and has `run`, which it did not start, spawned directly. */
	private giveUp(run: LauncherRun): void {
		this.current = undefined;
		this.retire();
		run.abandoned();
	}

	/** Only a command it runs keeps this process alive, until its exit is reported. */
	private keepAlive(alive: boolean): void {
		const stdout = this.child.stdout as Socket | null;
		if (alive) {
			this.child.ref();
			stdout?.ref();
		} else {
			this.child.unref();
			stdout?.unref();
		}
	}

	private died(): void {
		if (!this.closed) {
			this.closed = true;
			this.onClosed(this, !this.ready);
		}
		if (this.requestFd !== undefined) closeSync(this.requestFd);
		this.requestFd = undefined;
		removeTempPath(this.dir);
		const run = this.current;
		this.current = undefined;
		run?.abandoned();
	}
}

const launchers = new Map<string, Launcher>();
/** Shells whose launcher died before it was ready: not tried again in this process. */
const unsupported = new Set<string>();
/** Per shell, the last environment that was not its launcher's. */
const otherEnv = new Map<string, NodeJS.ProcessEnv>();

function sameEnv(a: NodeJS.ProcessEnv, b: NodeJS.ProcessEnv): boolean {
	const keys = Object.keys(a);
	if (keys.length !== Object.keys(b).length) return false;
	for (const key of keys) if (a[key] !== b[key]) return false;
	return true;
}

/** Starts the command: through the shell's launcher when it can. */
export function startShellCommand(request: ShellRequest, handlers: CommandHandlers): StartedCommand {
	const { shell, command, cwd, env } = request;
	const spawnDirectly = () => spawnCommand(request, handlers);
	const key = [shell.shell, ...shell.args].join("\0");
	const usable =
		// Linux only: there a fork copies the agent's page tables. libuv spawns with posix_spawn on macOS, which does
		// not, and the launcher has not been tried there.
		process.platform === "linux" &&
		basename(shell.shell) === "bash" &&
		!command.includes("\0") &&
		!cwd.includes("\0") &&
		// Options bash takes from the environment would apply to the launcher as well as to the command.
		env.SHELLOPTS === undefined &&
		env.BASHOPTS === undefined &&
		!unsupported.has(key);
	if (!usable) return spawnDirectly();
	let launcher = launchers.get(key);
	if (launcher?.busy) return spawnDirectly();
	if (launcher && !sameEnv(launcher.env, env)) {
		// A launcher for the new environment once it comes twice in a row: an environment made per command (a
		// spawn hook's) would otherwise cost a launcher a command.
		const previous = otherEnv.get(key);
		if (!previous || !sameEnv(previous, env)) {
			otherEnv.set(key, { ...env });
			return spawnDirectly();
		}
		otherEnv.delete(key);
		launcher.close();
		launcher = undefined;
	}
	if (!launcher) {
		try {
			launcher = new Launcher(shell, { ...env }, (closed, failed) => {
				if (launchers.get(key) === closed) launchers.delete(key);
				if (failed) unsupported.add(key);
			});
		} catch {
			// No private directory (TMPDIR missing or read-only): commands run as they would without launchers.
			unsupported.add(key);
			return spawnDirectly();
		}
		launchers.set(key, launcher);
	}
	return launcher.start(request, handlers, spawnDirectly);
}

/**
 * Closes every launcher and waits (up to `timeoutMs`) for the idle ones to exit, so that this process collects
 * them, and with them the CPU time of the commands they ran. A launcher running a command exits after it.
 */
export async function closeShellLaunchers(timeoutMs = 1000): Promise<void> {
	const closing = [...launchers.values()];
	const idle = closing.filter((launcher) => !launcher.busy);
	for (const launcher of closing) launcher.close();
	if (idle.length === 0) return;
	let timer: NodeJS.Timeout | undefined;
	await Promise.race([
		Promise.all(idle.map((launcher) => launcher.exited())),
		new Promise<void>((resolve) => {
			timer = setTimeout(resolve, timeoutMs);
		}),
	]);
	clearTimeout(timer);
	// One that did not exit in time must not keep this process alive.
	for (const launcher of idle) launcher.unref();
}
