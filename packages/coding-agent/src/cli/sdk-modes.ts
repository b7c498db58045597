// The modes as the reference's SDK offers them (its docs, "Run Modes"): a program that built a session with
// `createAgentSession` runs the terminal UI, print/JSON mode or RPC mode on it, exactly as the `agent` command
// would (its extensions get the mode's UI context, permission questions are asked the mode's way). Each mode is
// loaded only when run. The reference's functions resolve with nothing; the exit code the command would use is
// left in `process.exitCode`.
import type { ImageContent } from "@agent/ai";
import type { AgentSession } from "../core/agent-session.js";
import { runMode } from "./run-mode.js";

/** The reference's print-mode options. */
export interface PrintModeOptions {
	/** `text`: the final answer on stdout; `json`: every event as JSON Lines. */
	mode: "text" | "json";
	/** Further messages, each sent after the previous run ended. */
	messages?: string[];
	/** The first message (may carry `@file` content). */
	initialMessage?: string;
	/** Images sent with the first message. */
	initialImages?: ImageContent[];
}

/** The reference's interactive-mode options. */
export interface InteractiveModeOptions {
	/** Providers whose keys were moved to auth.json: each is named in a warning. */
	migratedProviders?: string[];
	/** Why the session's recorded model could not be restored. */
	modelFallbackMessage?: string;
	initialMessage?: string;
	initialImages?: ImageContent[];
	/** Messages sent after the first, each once the previous run ended. */
	initialMessages?: string[];
	/** Show the start-up header even with `quietStartup`. */
	verbose?: boolean;
}

function leaveExitCode(code: number): void {
	if (code !== 0) process.exitCode = code;
}

/** Sends the messages one after another, writes the answer (or the events), and resolves when done. */
export async function runPrintMode(session: AgentSession, options: PrintModeOptions): Promise<void> {
	const runner = session.extensionRunner;
	leaveExitCode(
		await runMode({
			mode: options.mode,
			session,
			input: {
				...(options.initialMessage !== undefined ? { initialMessage: options.initialMessage } : {}),
				initialImages: options.initialImages ?? [],
				messages: options.messages ?? [],
			},
			...(runner ? { extensions: runner } : {}),
			resume: false,
			verbose: false,
			startupWarnings: [],
		}),
	);
}

/** Serves RPC commands on stdin/stdout until stdin ends or the client asks to stop, then exits the process. */
export async function runRpcMode(session: AgentSession): Promise<never> {
	const runner = session.extensionRunner;
	const code = await runMode({
		mode: "rpc",
		session,
		input: { initialImages: [], messages: [] },
		...(runner ? { extensions: runner } : {}),
		resume: false,
		verbose: false,
		startupWarnings: [],
	});
	process.exit(code);
}

/** The terminal UI on a session: `run()` resolves when the user quits. */
export class InteractiveMode {
	constructor(
		private readonly session: AgentSession,
		private readonly options: InteractiveModeOptions = {},
	) {}

	async run(): Promise<void> {
		const { session, options } = this;
		const runner = session.extensionRunner;
		const migrated = options.migratedProviders ?? [];
		leaveExitCode(
			await runMode({
				mode: "interactive",
				session,
				input: {
					...(options.initialMessage !== undefined ? { initialMessage: options.initialMessage } : {}),
					initialImages: options.initialImages ?? [],
					messages: options.initialMessages ?? [],
				},
				...(runner ? { extensions: runner } : {}),
				resume: false,
				verbose: options.verbose ?? false,
				startupWarnings:
					migrated.length > 0 ? [`Credentials of ${migrated.join(", ")} were moved to auth.json.`] : [],
				...(options.modelFallbackMessage ? { modelFallbackMessage: options.modelFallbackMessage } : {}),
			}),
		);
	}
}

/** The `agent` command with these arguments (without the program name). */
export async function main(args: string[]): Promise<void> {
	const { main: runCommand } = await import("./main.js");
	leaveExitCode(await runCommand(args));
}
