import type { AgentTool } from "@agent/agent-core";
import { LeanType, type Static } from "@agent/ai";
import { type BashOperations, createLocalBashOperations } from "./bash-executor.js";
import { BashOutputCollector, type BashOutputFileOptions, type BashOutputSnapshot } from "./bash-output.js";
import { fullOutputCappedNotice } from "./bash-output-files.js";
import { ShellEnvironment } from "./shell-env.js";
import { optionalNumber, requireString } from "./tool-arguments.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, type TruncationResult } from "./truncate.js";

export type { BashExecOptions, BashOperations, LocalBashOperationsOptions } from "./bash-executor.js";
export { createLocalBashOperations, killProcessTree } from "./bash-executor.js";

export const BASH_TOOL_DESCRIPTION = `Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.`;

export const bashSchema = LeanType.Object({
	command: LeanType.String({ description: "Bash command to execute" }),
	timeout: LeanType.Optional(LeanType.Number({ description: "Timeout in seconds (optional, no default timeout)" })),
});

export type BashToolInput = Static<typeof bashSchema>;

export interface BashToolDetails {
	truncation?: TruncationResult;
	fullOutputPath?: string;
}

export interface BashSpawnContext {
	command: string;
	cwd: string;
	env: NodeJS.ProcessEnv;
}

/** Rewrites what is spawned (command, cwd, env); throwing refuses the command with that message. */
export type BashSpawnHook = (context: BashSpawnContext) => BashSpawnContext;

export interface BashToolOptions {
	operations?: BashOperations;
	/** Settings `shellCommandPrefix`: run before every command (e.g. `shopt -s expand_aliases`). */
	commandPrefix?: string;
	spawnHook?: BashSpawnHook;
	/** Settings `shellPath`, used by the local operations. */
	shellPath?: string;
	/**
	 * Ours: builds each command's environment — the user's, minus provider keys (see `ShellEnvironment`) — and
	 * says once that keys were removed. Default: a new one removing @agent/ai's provider-key variables.
	 */
	environment?: ShellEnvironment;
	/** Ours: settings `limits.bashOutputFileBytes` and the session's registry of full-output files. */
	output?: BashOutputFileOptions;
}

function truncationNotice(snapshot: BashOutputSnapshot, fullOutputPath: string): string {
	const { truncation, totalLines } = snapshot;
	const end = totalLines;
	const start = end - truncation.outputLines + 1;
	if (truncation.lastLinePartial) {
		// The partial line is the first one shown (only empty lines can follow it).
		const partialBytes = truncation.outputBytes - (truncation.outputLines - 1);
		return `\n\n[Showing last ${formatSize(partialBytes)} of line ${start} (line is ${formatSize(snapshot.lastLineBytes)}). Full output: ${fullOutputPath}]`;
	}
	if (truncation.truncatedBy === "lines") {
		return `\n\n[Showing lines ${start}-${end} of ${totalLines}. Full output: ${fullOutputPath}]`;
	}
	return `\n\n[Showing lines ${start}-${end} of ${totalLines} (${formatSize(DEFAULT_MAX_BYTES)} limit). Full output: ${fullOutputPath}]`;
}

/**
 * Line and byte totals of the whole output, not just of the in-memory window.
 * Ours differs: the reference reported the window's counts, so "lines X-Y of Z" did not match the temp file.
 */
function wholeOutputTruncation(snapshot: BashOutputSnapshot): TruncationResult {
	return { ...snapshot.truncation, totalLines: snapshot.totalLines, totalBytes: snapshot.totalBytes };
}

/** The final text (tail of the output plus the truncation notice) and details; closes the temp file. */
function renderOutput(output: BashOutputCollector): { text: string; details: BashToolDetails | undefined } {
	try {
		const snapshot = output.snapshot(false);
		if (!snapshot.truncation.truncated) return { text: snapshot.truncation.content, details: undefined };
		// Ours differs: the reference named a temp file it had not written when output was cut by lines while
		// under 50KB. Whenever the notice points at a file, that file holds the complete output (up to
		// limits.bashOutputFileBytes, which a second notice then names).
		const fullOutputPath = output.ensureTempFile();
		const capped = output.fullOutputCapped ? `\n\n${fullOutputCappedNotice(output.maxFileBytes)}` : "";
		return {
			text: snapshot.truncation.content + truncationNotice(snapshot, fullOutputPath) + capped,
			details: { truncation: wholeOutputTruncation(snapshot), fullOutputPath },
		};
	} finally {
		output.close();
	}
}

/** `text` with the notes after it, each in its own paragraph. */
function withNotes(text: string, notes: (string | undefined)[]): string {
	return [text, ...notes.filter((note): note is string => note !== undefined)].filter(Boolean).join("\n\n");
}

export function createBashTool(
	cwd: string,
	options: BashToolOptions = {},
): AgentTool<typeof bashSchema, BashToolDetails | undefined> {
	const ops = options.operations ?? createLocalBashOperations({ shellPath: options.shellPath });
	const environment = options.environment ?? new ShellEnvironment();
	return {
		name: "bash",
		label: "bash",
		description: BASH_TOOL_DESCRIPTION,
		parameters: bashSchema,
		async execute(_toolCallId, params, signal, onUpdate) {
			const command = requireString(params, "bash", "command");
			const timeout = optionalNumber(params, "bash", "timeout");
			if (signal?.aborted) throw new Error("Command aborted");
			const { env, removed } = environment.build();
			let spawn: BashSpawnContext = {
				command: options.commandPrefix ? `${options.commandPrefix}\n${command}` : command,
				cwd,
				env,
			};
			if (options.spawnHook) spawn = options.spawnHook(spawn);

			const output = new BashOutputCollector(options.output);
			const onData = (data: Buffer) => {
				output.append(data);
				if (!onUpdate) return;
				const snapshot = output.snapshot(true);
				const details: BashToolDetails = { fullOutputPath: output.fullOutputPath };
				if (snapshot.truncation.truncated) details.truncation = wholeOutputTruncation(snapshot);
				onUpdate({ content: [{ type: "text", text: snapshot.truncation.content }], details });
			};

			// The first result of a session whose command lost provider keys says so (after the reference's notices).
			const keysNotice = () => environment.takeNotice("model", removed);
			let exitCode: number | null;
			try {
				({ exitCode } = await ops.exec(spawn.command, spawn.cwd, { onData, signal, timeout, env: spawn.env }));
			} catch (error) {
				const { text } = renderOutput(output);
				const message = error instanceof Error ? error.message : String(error);
				if (message === "aborted") throw new Error(withNotes(text, ["Command aborted", keysNotice()]));
				if (message.startsWith("timeout:")) {
					const notice = `Command timed out after ${message.slice("timeout:".length)} seconds`;
					throw new Error(withNotes(text, [notice, keysNotice()]));
				}
				throw error;
			}

			const rendered = renderOutput(output);
			const text = rendered.text || "(no output)";
			if (exitCode !== null && exitCode !== 0) {
				throw new Error(withNotes(text, [`Command exited with code ${exitCode}`, keysNotice()]));
			}
			const details = rendered.details;
			return { content: [{ type: "text", text: withNotes(text, [keysNotice()]) }], details };
		},
	};
}

/** The bash tool for the process's working directory. */
export const bashTool = createBashTool(process.cwd());
