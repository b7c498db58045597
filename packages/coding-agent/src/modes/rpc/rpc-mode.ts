// `agent --mode rpc` (docs/rpc.md): commands as JSON Lines on stdin, responses, events and extension UI requests as
// JSON Lines on stdout. stdout carries nothing else; diagnostics go to stderr.
import type { AgentSession } from "../../core/agent-session.js";
import { RpcExtensionUiBridge } from "./extension-ui-bridge.js";
import { attachJsonlReader, JsonlWriter, routeConsoleToStderr } from "./jsonl.js";
import {
	errorResponse,
	isRpcCommandType,
	PARSE_ERROR_COMMAND,
	parseErrorMessage,
	type RpcCommandType,
	type RpcExtensionUiResponse,
	successResponse,
	unknownCommandMessage,
} from "./protocol.js";
import { type PromptReporter, RPC_COMMAND_HANDLERS } from "./rpc-commands.js";
import { toRpcEvent } from "./wire-conformance.js";

export interface RpcModeOptions {
	input?: NodeJS.ReadableStream;
	output?: NodeJS.WritableStream;
	/** Receives the UI bridge so the extension runner can route `ctx.ui` calls through it. */
	onUiBridge?: (bridge: RpcExtensionUiBridge) => void;
	/** An extension called `ctx.shutdown()`: checked after each command's response (docs/rpc.md "Ending"). */
	isShutdownRequested?: () => boolean;
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function describeValue(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	return `a ${typeof value}`;
}

/**
 * Serves commands until stdin ends (then waits for in-flight work, shuts the session down and resolves 0) or
 * the process is signalled. Commands run concurrently, one handler per line; `id` correlates responses.
 */
export async function runRpcMode(session: AgentSession, options: RpcModeOptions = {}): Promise<number> {
	const input = options.input ?? process.stdin;
	if (!options.output) routeConsoleToStderr();
	const writer = new JsonlWriter(options.output ?? process.stdout);
	const bridge = new RpcExtensionUiBridge((request) => writer.write(request));
	options.onUiBridge?.(bridge);
	const inFlight = new Set<Promise<unknown>>();
	// Set once the command loop is running; until then a shutdown request has nothing to stop.
	let requestShutdown: () => void = () => {};

	const unsubscribe = session.subscribe((event) => writer.write(toRpcEvent(event)));
	await session.bindExtensions();

	const track = (work: Promise<unknown>) => {
		inFlight.add(work);
		void work.finally(() => inFlight.delete(work));
	};

	const dispatch = (id: unknown, type: RpcCommandType, command: Record<string, unknown>) => {
		const handler = RPC_COMMAND_HANDLERS[type] as (
			command: Record<string, unknown>,
			session: AgentSession,
			prompt: PromptReporter,
			ui: RpcExtensionUiBridge,
		) => unknown;
		const reporter: PromptReporter = {
			// A failure of the running prompt arrives after its success response, with the same id (docs/rpc.md "prompt").
			started: (run) =>
				track(run.catch((error: unknown) => writer.write(errorResponse(id, "prompt", errorText(error))))),
			failedAtOnce: (message) => writer.write(errorResponse(id, "prompt", message)),
		};
		const work = (async () => {
			try {
				const data = await handler(command, session, reporter, bridge);
				writer.write(successResponse(id, type, data));
			} catch (error) {
				// Ours differs (docs/rpc.md "Errors"): a thrown error answers the command itself, keeping its id.
				writer.write(errorResponse(id, type, errorText(error)));
			}
			if (options.isShutdownRequested?.()) requestShutdown();
		})();
		track(work);
	};

	const handleLine = (line: string) => {
		let record: unknown;
		try {
			record = JSON.parse(line);
		} catch (error) {
			writer.write(errorResponse(undefined, PARSE_ERROR_COMMAND, parseErrorMessage(errorText(error))));
			return;
		}
		if (typeof record !== "object" || record === null || Array.isArray(record)) {
			writer.write(
				errorResponse(
					undefined,
					PARSE_ERROR_COMMAND,
					parseErrorMessage(`expected a JSON object with a "type", got ${describeValue(record)}`),
				),
			);
			return;
		}
		const command = record as Record<string, unknown>;
		const { id, type } = command;
		if (typeof type !== "string") {
			writer.write(
				errorResponse(id, PARSE_ERROR_COMMAND, parseErrorMessage('missing "type" (a string naming the command)')),
			);
			return;
		}
		if (type === "extension_ui_response") {
			if (typeof id === "string") bridge.handleResponse(command as unknown as RpcExtensionUiResponse);
			return;
		}
		if (!isRpcCommandType(type)) {
			writer.write(errorResponse(id, type, unknownCommandMessage(type)));
			return;
		}
		dispatch(id, type, command);
	};

	return new Promise<number>((resolve) => {
		let finishing = false;
		const finish = async (exitCode: number, abortFirst: boolean) => {
			if (finishing) return;
			finishing = true;
			detach();
			process.off("SIGINT", onSigint);
			process.off("SIGTERM", onSigterm);
			// Nobody can answer dialogs any more: they resolve with their defaults.
			bridge.cancelAll();
			try {
				if (abortFirst) await session.abort();
				// EOF: like the reference, finish what the client asked for (commands, the running prompt) first.
				while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
				await session.waitForIdle();
				await session.shutdown();
			} catch (error) {
				process.stderr.write(`Error during shutdown: ${errorText(error)}\n`);
			}
			unsubscribe();
			await writer.flush();
			resolve(exitCode);
		};
		// The extension asked to exit: stop reading, finish what runs, exit 0 (session_shutdown via shutdown()).
		requestShutdown = () => void finish(0, false);
		const onSigint = () => void finish(130, true);
		const onSigterm = () => void finish(143, true);
		process.on("SIGINT", onSigint);
		process.on("SIGTERM", onSigterm);
		const detach = attachJsonlReader(input, handleLine, () => void finish(0, false));
		// The client went away (stdout closed): stop working for nobody.
		writer.onClosed(() => void finish(0, true));
		input.resume();
		// Until the first prompt arrives, load the model's provider (adapter, SDK, Node's fetch): a prompt sent
		// meanwhile waits for the same load, one sent later starts its reply ~60 ms sooner.
		void session.preloadProvider();
	});
}
