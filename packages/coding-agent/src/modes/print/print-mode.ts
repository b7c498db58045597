// Print mode (`-p`, `--mode text`, piped stdin) and JSON mode (`--mode json`) — docs/cli.md "Modes", docs/json.md. Both send the
// messages one after another, each waited for until the session is idle (its run, automatic retries, and an
// automatic compaction with the retry that follows it), then exit.
import type { AgentMessage } from "@agent/agent-core";
import type { AssistantMessage, ImageContent } from "@agent/ai";
import type { AgentSession } from "../../core/agent-session.js";
import { JsonlWriter, routeConsoleToStderr } from "../rpc/jsonl.js";

export interface PrintModeOptions {
	/** `text`: the final answer on stdout; `json`: the session header, then every event as JSON Lines. */
	output: "text" | "json";
	/** The first message (stdin and @file content included), with the images of @file arguments. */
	initialMessage?: string;
	initialImages?: ImageContent[];
	/** Further messages, each sent after the previous run ended. */
	messages: string[];
	/** Extra lines for stderr when a prompt fails before the run (e.g. which variable holds the API key). */
	describeFailure?: (message: string) => string | undefined;
	stdout?: NodeJS.WritableStream;
	stderr?: NodeJS.WritableStream;
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function lastAssistantMessage(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	const last = messages.at(-1);
	return last?.role === "assistant" ? last : undefined;
}

function runFailed(messages: readonly AgentMessage[]): boolean {
	const last = lastAssistantMessage(messages);
	return last?.stopReason === "error" || last?.stopReason === "aborted";
}

/** Resolves with the exit code. Signals abort the run (exit 130 / 143); a second SIGINT exits at once. */
export async function runPrintMode(session: AgentSession, options: PrintModeOptions): Promise<number> {
	const stdout = options.stdout ?? process.stdout;
	if (!options.stdout) routeConsoleToStderr();
	const stderr = options.stderr ?? process.stderr;
	const writer = new JsonlWriter(stdout);
	const isJson = options.output === "json";

	if (isJson) writer.write(session.sessionManager.getHeader());
	// Subscribed before extensions are bound, so failures of their session_start handlers are reported too.
	const unsubscribe = session.subscribe((event) => {
		if (event.type === "extension_error") {
			stderr.write(`Extension error (${event.extensionPath}): ${event.error}\n`);
			return;
		}
		if (isJson) writer.write(event);
	});
	await session.bindExtensions();

	let signalExitCode: number | undefined;
	const onSignal = (code: number) => {
		if (signalExitCode !== undefined) process.exit(code);
		signalExitCode = code;
		void session.abort();
	};
	const onSigint = () => onSignal(130);
	const onSigterm = () => onSignal(143);
	process.on("SIGINT", onSigint);
	process.on("SIGTERM", onSigterm);

	const prompts: { text: string; images?: ImageContent[] }[] = [];
	if (options.initialMessage !== undefined) {
		prompts.push({
			text: options.initialMessage,
			...(options.initialImages?.length ? { images: options.initialImages } : {}),
		});
	}
	for (const message of options.messages) prompts.push({ text: message });

	let exitCode = 0;
	try {
		for (const prompt of prompts) {
			if (signalExitCode !== undefined) break;
			try {
				await session.prompt(prompt.text, prompt.images ? { images: prompt.images } : {});
				await session.waitForIdle();
			} catch (error) {
				const message = errorText(error);
				const hint = options.describeFailure?.(message);
				stderr.write(`Error: ${message}\n${hint ? `${hint}\n` : ""}`);
				exitCode = 1;
				break;
			}
			// A failed or aborted run ends the sequence: later messages would build on a missing answer.
			if (runFailed(session.messages)) break;
		}

		if (exitCode === 0 && !isJson) {
			const last = lastAssistantMessage(session.messages);
			if (last?.stopReason === "error" || last?.stopReason === "aborted") {
				const fallback = last.stopReason === "error" ? "Request error" : "Request aborted";
				stderr.write(`${last.errorMessage || fallback}\n`);
				exitCode = 1;
			} else if (last) {
				for (const block of last.content) {
					if (block.type === "text") stdout.write(`${block.text}\n`);
				}
			}
		}
	} finally {
		process.off("SIGINT", onSigint);
		process.off("SIGTERM", onSigterm);
		try {
			await session.shutdown();
		} catch (error) {
			stderr.write(`Error during shutdown: ${errorText(error)}\n`);
		}
		unsubscribe();
		await writer.flush();
	}
	return signalExitCode ?? exitCode;
}
