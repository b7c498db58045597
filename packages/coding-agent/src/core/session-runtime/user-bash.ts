// The user's own shell commands (`!cmd`, `!!cmd`, RPC `bash`; docs/rpc.md "bash and abort_bash"): run through the bash tool's
// operations (same shell resolution, process-group kill), output cleaned for display and the model.
import { StringDecoder } from "node:string_decoder";
import type { CommandRecorder } from "../checkpoints/session-checkpoints.js";
import { DEFAULT_BASH_OUTPUT_FILE_BYTES, type SettingsManager } from "../config/settings-manager.js";
import type { BashResult, ExtensionHooks } from "../extensions/hooks.js";
import type { BashExecutionMessage } from "../messages.js";
import { type BashOperations, createLocalBashOperations } from "../tools/bash-executor.js";
import type { BashOutputFileOptions } from "../tools/bash-output.js";
import {
	type BashOutputFiles,
	FullOutputFile,
	fullOutputCappedNotice,
	processBashOutputFiles,
} from "../tools/bash-output-files.js";
import { ShellEnvironment } from "../tools/shell-env.js";
import { DEFAULT_MAX_BYTES, truncateTail } from "../tools/truncate.js";

/** Recent output kept in memory: twice what is returned (the rest is only in the full-output file). */
const WINDOW_CHARS = DEFAULT_MAX_BYTES * 2;

// CSI and other escape sequences, OSC strings (titles, hyperlinks).
const ANSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// Control characters other than newline and tab (binary output, bells, carriage returns).
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Output as a person or model should read it: escape sequences removed, `\r` and other control bytes dropped. */
export function sanitizeCommandOutput(text: string): string {
	return text.replace(ANSI_SEQUENCE, "").replace(CONTROL_CHARACTERS, "");
}

export interface RunUserBashOptions {
	cwd: string;
	operations: BashOperations;
	/** Settings `shellCommandPrefix`, run before the command on its own line. */
	commandPrefix?: string;
	signal?: AbortSignal;
	/** Each cleaned chunk as it arrives. */
	onChunk?: (text: string) => void;
	/** The command's environment (provider keys removed); default: a new `ShellEnvironment`. */
	environment?: ShellEnvironment;
	/** Settings `limits.bashOutputFileBytes` and the registry the full-output file is removed with. */
	output?: BashOutputFileOptions;
}

/**
 * Collects cleaned output: a window of the newest WINDOW_CHARS characters in memory (never more), everything
 * in the full-output file once large.
 */
export class CommandOutput {
	private readonly decoder = new StringDecoder("utf8");
	private window = "";
	private droppedChars = 0;
	private rawBytes = 0;
	private readonly file: FullOutputFile;

	constructor(
		private readonly onChunk?: (text: string) => void,
		options: BashOutputFileOptions = {},
	) {
		this.file = new FullOutputFile(
			options.files ?? processBashOutputFiles(),
			options.maxFileBytes ?? DEFAULT_BASH_OUTPUT_FILE_BYTES,
		);
	}

	/** Characters of output held in memory. */
	get retainedChars(): number {
		return this.window.length;
	}

	append(data: Buffer): void {
		this.rawBytes += data.length;
		this.add(this.decoder.write(data));
	}

	finish(): { output: string; truncated: boolean; fullOutputPath?: string } {
		this.add(this.decoder.end());
		const truncation = truncateTail(this.window);
		const truncated = truncation.truncated || this.droppedChars > 0;
		if (truncated) this.ensureFile();
		this.file.close();
		const capped = this.file.capped ? `\n\n${fullOutputCappedNotice(this.file.maxBytes)}` : "";
		return {
			output: truncation.content + capped,
			truncated,
			...(this.file.path ? { fullOutputPath: this.file.path } : {}),
		};
	}

	/** Closes the temp file without a result (the command failed to run). */
	discard(): void {
		this.file.close();
	}

	private add(raw: string): void {
		if (!raw) return;
		const text = sanitizeCommandOutput(raw);
		if (!text) return;
		this.onChunk?.(text);
		if (this.rawBytes > DEFAULT_MAX_BYTES || this.window.length + text.length > WINDOW_CHARS) this.ensureFile();
		this.file.write(text);
		// Only the window's worth of a large chunk is joined to the window.
		const kept = text.length > WINDOW_CHARS ? text.slice(text.length - WINDOW_CHARS) : text;
		this.droppedChars += text.length - kept.length;
		this.window += kept;
		if (this.window.length > WINDOW_CHARS) {
			const excess = this.window.length - WINDOW_CHARS;
			this.window = this.window.slice(excess);
			this.droppedChars += excess;
		}
	}

	/** The whole output so far goes to the file; later text is appended as it arrives. */
	private ensureFile(): void {
		if (this.file.path !== undefined) return;
		this.file.open();
		// The window still holds everything: the file is created before the window first drops text.
		this.file.write(this.window);
	}
}

/**
 * Runs `command` with the user's shell and returns what `bash` answers: the tail of the output (2000 lines
 * / 50 KiB), whether it was cut, the exit code (absent when killed), and the temp file with the complete
 * output when it was cut. Spawn failures (no shell, bad `shellPath`) are thrown.
 *
 * Ours: the reference wrote the temp file only past 50 KiB, so output cut by the line limit alone pointed
 * nowhere; whenever the output is cut, the file exists.
 */
export async function runUserBash(command: string, options: RunUserBashOptions): Promise<BashResult> {
	const output = new CommandOutput(options.onChunk, options.output);
	const script = options.commandPrefix ? `${options.commandPrefix}\n${command}` : command;
	const environment = options.environment ?? new ShellEnvironment();
	const { env, removed } = environment.build();
	// The user is told once per session that keys were removed, after the command's output.
	const finish = () => {
		const result = output.finish();
		const notice = environment.takeNotice("user", removed);
		return notice ? { ...result, output: result.output ? `${result.output}\n\n${notice}` : notice } : result;
	};
	let exitCode: number | null;
	try {
		({ exitCode } = await options.operations.exec(script, options.cwd, {
			onData: (data) => output.append(data),
			signal: options.signal,
			env,
		}));
	} catch (error) {
		if (error instanceof Error && error.message === "aborted") {
			return { ...finish(), cancelled: true };
		}
		output.discard();
		throw error;
	}
	if (options.signal?.aborted) return { ...finish(), cancelled: true };
	return { ...finish(), ...(exitCode !== null ? { exitCode } : {}), cancelled: false };
}

/** The session message that records a user command (`bashExecution`). */
export function createBashExecutionMessage(
	command: string,
	result: BashResult,
	excludeFromContext: boolean,
): BashExecutionMessage {
	return {
		role: "bashExecution",
		command,
		output: result.output,
		...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
		cancelled: result.cancelled,
		truncated: result.truncated,
		...(result.fullOutputPath ? { fullOutputPath: result.fullOutputPath } : {}),
		...(excludeFromContext ? { excludeFromContext: true } : {}),
		timestamp: Date.now(),
	};
}

export interface UserBashHost {
	readonly cwd: string;
	readonly hooks: ExtensionHooks;
	readonly settingsManager: SettingsManager;
	/** The session's command environment (shared with its bash tool) and full-output files. */
	readonly shellEnvironment: ShellEnvironment;
	readonly bashOutputFiles: BashOutputFiles;
	/** Whether a run is going: its message must not land inside the running turn. */
	isAgentStreaming(): boolean;
	/** Appends a message to the agent's context and the session. */
	appendMessage(message: BashExecutionMessage): void;
	/** Ours: file checkpoints of the command (docs/checkpoints.md). */
	readonly commands?: CommandRecorder;
}

/**
 * The user's commands and where their messages go: appended at once when the agent is idle, held while it
 * streams and appended before the next prompt. Tracks the most recent command for `abortBash()`.
 */
export class UserBashController {
	private abortController: AbortController | undefined;
	private pending: BashExecutionMessage[] = [];

	constructor(private readonly host: UserBashHost) {}

	get isRunning(): boolean {
		return this.abortController !== undefined;
	}

	async execute(
		command: string,
		onChunk: ((text: string) => void) | undefined,
		options: { excludeFromContext?: boolean; operations?: BashOperations },
	): Promise<BashResult> {
		const { host } = this;
		const excludeFromContext = options.excludeFromContext === true;
		let operations = options.operations;
		let result: BashResult | undefined;
		if (host.hooks.hasHandlers("user_bash")) {
			const decision = await host.hooks.emitUserBash({ command, excludeFromContext, cwd: host.cwd });
			result = decision?.result;
			operations = decision?.operations ?? operations;
		}
		let checkpointKey: string | undefined;
		if (!result) {
			const controller = new AbortController();
			this.abortController = controller;
			const run = () =>
				runUserBash(command, {
					cwd: host.cwd,
					operations: operations ?? createLocalBashOperations({ shellPath: host.settingsManager.getShellPath() }),
					commandPrefix: host.settingsManager.getShellCommandPrefix(),
					signal: controller.signal,
					environment: host.shellEnvironment,
					output: {
						files: host.bashOutputFiles,
						maxFileBytes: host.settingsManager.getLimits().bashOutputFileBytes,
					},
					...(onChunk ? { onChunk } : {}),
				});
			try {
				if (host.commands) {
					const recorded = await host.commands.record(run);
					result = recorded.value;
					checkpointKey = recorded.key;
				} else {
					result = await run();
				}
			} finally {
				if (this.abortController === controller) this.abortController = undefined;
			}
		}
		this.record(command, result, { excludeFromContext, ...(checkpointKey !== undefined ? { checkpointKey } : {}) });
		return result;
	}

	/** Records a result as a `bashExecution` message (held while the agent streams, like `execute`'s own). */
	record(
		command: string,
		result: BashResult,
		options: { excludeFromContext?: boolean; checkpointKey?: string } = {},
	): void {
		const message = createBashExecutionMessage(command, result, options.excludeFromContext === true);
		if (options.checkpointKey !== undefined) this.host.commands?.attach(message, options.checkpointKey);
		if (this.host.isAgentStreaming()) this.pending.push(message);
		else this.host.appendMessage(message);
	}

	/** Results held while the agent streamed, appended before the next prompt. */
	get hasPending(): boolean {
		return this.pending.length > 0;
	}

	abort(): void {
		this.abortController?.abort();
	}

	/** Appends the messages held while the agent streamed. */
	flushPending(): void {
		for (const message of this.pending.splice(0)) this.host.appendMessage(message);
	}

	/** Drops held messages (a new or switched session). */
	reset(): void {
		this.pending = [];
	}
}
