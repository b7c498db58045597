// The seam for the interactive terminal UI (cli.md §13–15). `cli/main.ts` loads this module with a dynamic
// import only when stdin and stdout are terminals and no mode flag was given; the TUI engineer replaces this
// placeholder with the real implementation behind the same signature.
import type { ImageContent } from "@agent/ai";
import { APP_NAME } from "../../config.js";
import type { AgentSession } from "../../core/agent-session.js";

export interface InteractiveModeOptions {
	/** The first message (with @file content), sent before the editor takes input. */
	initialMessage?: string;
	initialImages?: ImageContent[];
	/** Further messages from the command line, sent in order. */
	messages: string[];
	/** `--resume`: show the session picker first. */
	resume: boolean;
	/** `--verbose`: show the startup header even with `quietStartup`. */
	verbose: boolean;
	/** Warnings gathered during startup (shown before the UI starts). */
	warnings: string[];
	/** Why the session's recorded model could not be restored, if it could not. */
	modelFallbackMessage?: string;
}

export const INTERACTIVE_UNAVAILABLE_TEXT = `Interactive mode is not available in this build yet. Use print mode instead: ${APP_NAME} -p "your task" (or --mode json / --mode rpc).`;

/** Runs the TUI until the user quits; resolves with the exit code. */
export async function runInteractiveMode(session: AgentSession, _options: InteractiveModeOptions): Promise<number> {
	process.stderr.write(`${INTERACTIVE_UNAVAILABLE_TEXT}\n`);
	await session.shutdown();
	return 1;
}
