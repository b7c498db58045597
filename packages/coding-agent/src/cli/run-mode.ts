// Starts the chosen mode. Each mode is imported on demand, so print and RPC runs never load the terminal UI.
import { PROVIDER_ENV_VARS } from "@agent/ai";
import type { AgentSession } from "../core/agent-session.js";
import type { TuiMode } from "../core/config/settings-schema.js";
import type { ExtensionRunner } from "../core/extensions/runner.js";
import type { InitialInput } from "./initial-input.js";
import { formatAuthEntryHint } from "./setup-hints.js";

export type RunMode = "interactive" | "text" | "json" | "rpc";

export interface RunModeOptions {
	mode: RunMode;
	session: AgentSession;
	input: InitialInput;
	extensions?: ExtensionRunner;
	/** `--resume`: the interactive mode shows the session picker first. */
	resume: boolean;
	verbose: boolean;
	/** `--tui-mode`: overrides the `tuiMode` setting for this run. */
	tuiMode?: TuiMode;
	/** Shown by the interactive mode above the editor (other modes printed them to stderr already). */
	startupWarnings: string[];
	modelFallbackMessage?: string;
}

/**
 * Under a "No API key found for <provider>" failure (which lists the ways to give a key) when an auth.json entry
 * for the provider is what resolved to nothing.
 */
function describePromptFailure(session: AgentSession, message: string): string | undefined {
	const match = /^No API key found for (\S+?)\./.exec(message);
	if (!match) return undefined;
	const provider = match[1] as string;
	const auth = session.modelRegistry.authStorage;
	if (!auth.get(provider) || !auth.authPath) return undefined;
	return formatAuthEntryHint(provider, PROVIDER_ENV_VARS[provider], auth.authPath);
}

export async function runMode(options: RunModeOptions): Promise<number> {
	const { session, input, extensions } = options;
	switch (options.mode) {
		case "rpc": {
			const [{ runRpcMode }, { createRpcUIContext }, { createSelectPermissionPrompt }] = await Promise.all([
				import("../modes/rpc/rpc-mode.js"),
				import("../modes/rpc/rpc-ui-context.js"),
				import("../core/permissions/prompt.js"),
			]);
			return runRpcMode(session, {
				onUiBridge: (bridge) => {
					const ui = createRpcUIContext(bridge);
					extensions?.setUIContext(ui, true);
					// Permission questions are extension-UI `select` requests (and `input` for a reason to deny).
					session.permissions.setPrompt(createSelectPermissionPrompt(ui));
				},
				...(extensions ? { isShutdownRequested: () => extensions.isShutdownRequested() } : {}),
			});
		}
		case "text":
		case "json": {
			const { runPrintMode } = await import("../modes/print/print-mode.js");
			return runPrintMode(session, {
				output: options.mode,
				...(input.initialMessage !== undefined ? { initialMessage: input.initialMessage } : {}),
				...(input.initialImages.length > 0 ? { initialImages: input.initialImages } : {}),
				messages: input.messages,
				describeFailure: (message: string) => describePromptFailure(session, message),
			});
		}
		case "interactive": {
			const { runInteractiveMode } = await import("../modes/interactive/interactive-mode.js");
			return runInteractiveMode(session, {
				...(input.initialMessage !== undefined ? { initialMessage: input.initialMessage } : {}),
				...(input.initialImages.length > 0 ? { initialImages: input.initialImages } : {}),
				messages: input.messages,
				resume: options.resume,
				verbose: options.verbose,
				...(options.tuiMode ? { tuiMode: options.tuiMode } : {}),
				describeFailure: (message: string) => describePromptFailure(session, message),
				warnings: options.startupWarnings,
				...(extensions ? { extensions } : {}),
				...(options.modelFallbackMessage ? { modelFallbackMessage: options.modelFallbackMessage } : {}),
			});
		}
	}
}
