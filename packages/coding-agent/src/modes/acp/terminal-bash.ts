// bash in an editor terminal (ACP `terminal/*`), used when the client offers terminals: the editor shows the
// command's live output inside the tool call, and the model gets the same output as from a local run (the bash
// tool's truncation and notices apply unchanged).
import type { AgentTool } from "@agent/agent-core";
import type { CreateTerminalRequest, EnvVariable, WaitForTerminalExitResponse } from "@agentclientprotocol/sdk";
import { type BashToolOptions, createBashTool } from "../../core/tools/bash.js";
import type { BashExecOptions, BashOperations } from "../../core/tools/bash-executor.js";
import type { BashOutputFileOptions } from "../../core/tools/bash-output.js";
import { resolveShell } from "../../core/tools/shell.js";
import { ShellEnvironment } from "../../core/tools/shell-env.js";

/** What the mode needs of an editor terminal (the SDK's TerminalHandle, structurally). */
export interface ClientTerminal {
	readonly id: string;
	waitForExit(): Promise<WaitForTerminalExitResponse>;
	currentOutput(): Promise<{ output: string }>;
	kill(): Promise<unknown>;
	release(): Promise<unknown>;
}

export interface TerminalBashOptions {
	cwd: string;
	/** Starts a command in an editor terminal of this session. */
	createTerminal: (request: Omit<CreateTerminalRequest, "sessionId">) => Promise<ClientTerminal>;
	/** Called once the terminal exists, so the tool call can show it. */
	onTerminal: (toolCallId: string, terminalId: string) => void;
	/** Settings `shellPath` and `shellCommandPrefix`. */
	shellPath?: string;
	commandPrefix?: string;
	/** The commands' environment (provider keys removed); default: a new `ShellEnvironment` for this tool. */
	environment?: ShellEnvironment;
	/** Settings `limits.bashOutputFileBytes` and where full-output files are registered. */
	output?: BashOutputFileOptions;
}

/** The editor keeps the end of the output; the bash tool keeps less than this for the model anyway. */
const OUTPUT_BYTE_LIMIT = 1024 * 1024;

/**
 * Variables the command needs beyond the editor's own environment (e.g. PATH with the managed bin dir). Ours:
 * variables of the agent's environment left out of the command's (provider keys) are set empty, since ACP
 * cannot unset a variable and the editor's environment — which the agent's usually came from — may hold them.
 */
export function environmentChanges(env: NodeJS.ProcessEnv | undefined): EnvVariable[] {
	if (!env) return [];
	const changes = Object.entries(env)
		.filter((entry): entry is [string, string] => entry[1] !== undefined && process.env[entry[0]] !== entry[1])
		.map(([name, value]) => ({ name, value }));
	for (const name of Object.keys(process.env)) if (!(name in env)) changes.push({ name, value: "" });
	return changes;
}

type Outcome = { kind: "exit"; status: WaitForTerminalExitResponse } | { kind: "aborted" } | { kind: "timeout" };

function waitForOutcome(terminal: ClientTerminal, options: BashExecOptions): Promise<Outcome> {
	return new Promise<Outcome>((resolve, reject) => {
		const cleanups: (() => void)[] = [];
		const settle = (outcome: Outcome) => {
			for (const cleanup of cleanups) cleanup();
			resolve(outcome);
		};
		const { signal, timeout } = options;
		if (signal) {
			const onAbort = () => settle({ kind: "aborted" });
			if (signal.aborted) return settle({ kind: "aborted" });
			signal.addEventListener("abort", onAbort, { once: true });
			cleanups.push(() => signal.removeEventListener("abort", onAbort));
		}
		if (timeout !== undefined && timeout > 0) {
			const timer = setTimeout(() => settle({ kind: "timeout" }), timeout * 1000);
			cleanups.push(() => clearTimeout(timer));
		}
		terminal.waitForExit().then((status) => settle({ kind: "exit", status }), reject);
	});
}

function terminalOperations(toolCallId: string, options: TerminalBashOptions): BashOperations {
	return {
		async exec(command, cwd, execOptions) {
			if (execOptions.signal?.aborted) throw new Error("aborted");
			const shell = resolveShell(options.shellPath);
			const terminal = await options.createTerminal({
				command: shell.shell,
				args: [...shell.args, command],
				cwd,
				env: environmentChanges(execOptions.env),
				outputByteLimit: OUTPUT_BYTE_LIMIT,
			});
			options.onTerminal(toolCallId, terminal.id);
			try {
				const outcome = await waitForOutcome(terminal, execOptions);
				if (outcome.kind !== "exit") await terminal.kill();
				const { output } = await terminal.currentOutput();
				if (output) execOptions.onData(Buffer.from(output, "utf8"));
				if (outcome.kind === "aborted") throw new Error("aborted");
				if (outcome.kind === "timeout") throw new Error(`timeout:${execOptions.timeout}`);
				return { exitCode: outcome.status.exitCode ?? null };
			} finally {
				await terminal.release().catch(() => undefined);
			}
		},
	};
}

/** The bash tool, each call running in its own editor terminal. */
export function createTerminalBashTool(options: TerminalBashOptions): AgentTool {
	// One environment for every call, so the notice about removed keys is given once.
	const environment = options.environment ?? new ShellEnvironment();
	const toolOptions = (toolCallId: string): BashToolOptions => ({
		operations: terminalOperations(toolCallId, options),
		...(options.commandPrefix ? { commandPrefix: options.commandPrefix } : {}),
		environment,
		...(options.output ? { output: options.output } : {}),
	});
	const template = createBashTool(options.cwd, toolOptions(""));
	const tool: typeof template = {
		...template,
		execute: (toolCallId, params, signal, onUpdate) =>
			createBashTool(options.cwd, toolOptions(toolCallId)).execute(toolCallId, params, signal, onUpdate),
	};
	return tool as AgentTool;
}
