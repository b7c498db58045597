// Runs npm and git for the package manager: output is captured (a failure shows its last lines, a success
// shows nothing), stdin is closed, and git never waits for a password nobody can type.
import { spawn } from "node:child_process";

/** How many trailing lines of a failed command's output an error quotes. */
const QUOTED_OUTPUT_LINES = 12;

export class CommandFailedError extends Error {
	constructor(
		message: string,
		readonly argv: readonly string[],
		readonly exitCode: number | null,
		readonly output: string,
	) {
		super(message);
		this.name = "CommandFailedError";
	}
}

export interface RunCommandOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** How an error names the command (default: the whole command line). */
	label?: string;
}

/**
 * Lines of npm's and git's output that say nothing to the user: blank ones, npm notices, the log-file pointer,
 * and the stack frames and error-object dump npm prints for a network failure.
 */
const NOISE = [
	/^\s*$/,
	/^npm (notice|error|ERR!)\s*$/,
	/^npm notice/,
	/A complete log of this run can be found in/,
	/^(npm (error|ERR!))?\s+at\s/,
	/^npm (error|ERR!)\s{2,}\w+: .*$/,
	/^npm (error|ERR!)\s*[{}]\s*$/,
];

/** The last lines of a command's output worth quoting. */
export function quoteOutput(output: string): string {
	const lines = output
		.split(/\r?\n/)
		.map((line) => line.trimEnd())
		.filter((line) => !NOISE.some((pattern) => pattern.test(line)));
	return lines
		.slice(-QUOTED_OUTPUT_LINES)
		.map((line) => `  ${line}`)
		.join("\n");
}

/** Runs `argv` to completion; resolves with its stdout, rejects with a `CommandFailedError` quoting its output. */
export function runCommand(argv: readonly string[], options: RunCommandOptions = {}): Promise<string> {
	const [command, ...args] = argv;
	if (!command) return Promise.reject(new Error("empty command"));
	const env = { ...(options.env ?? process.env) };
	// Without a terminal to answer on, a credential prompt would wait forever: fail instead.
	if (!process.stdin.isTTY && env.GIT_TERMINAL_PROMPT === undefined) env.GIT_TERMINAL_PROMPT = "0";
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env,
			stdio: ["ignore", "pipe", "pipe"],
			shell: process.platform === "win32",
			windowsHide: true,
		});
		let stdout = "";
		let output = "";
		child.stdout.setEncoding("utf8");
		child.stderr.setEncoding("utf8");
		child.stdout.on("data", (text: string) => {
			stdout += text;
			output += text;
		});
		child.stderr.on("data", (text: string) => {
			output += text;
		});
		child.once("error", (error: NodeJS.ErrnoException) => {
			const message =
				error.code === "ENOENT"
					? `${command} was not found: install it, or put it on PATH`
					: `${command} could not be started: ${error.message}`;
			reject(new CommandFailedError(message, argv, null, ""));
		});
		child.once("close", (code, signal) => {
			if (code === 0) return resolve(stdout);
			const status = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
			const quoted = quoteOutput(output);
			const message = `${options.label ?? argv.join(" ")} ${status}${quoted ? `:\n${quoted}` : ""}`;
			reject(new CommandFailedError(message, argv, code, output));
		});
	});
}
