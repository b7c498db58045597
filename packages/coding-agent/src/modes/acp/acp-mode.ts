// `agent --mode acp`: an editor (Zed, JetBrains, Neovim, Emacs, …) drives the agent with the Agent Client
// Protocol — JSON-RPC 2.0, one message per line, on stdin/stdout. The SDK does the framing (including the
// JSON-RPC errors for lines that are not JSON and for unknown methods); stdout carries nothing else, and
// diagnostics go to stderr.
import { Readable, Writable } from "node:stream";
import { agent as acpAgentApp, ndJsonStream } from "@agentclientprotocol/sdk";
import { APP_NAME } from "../../config.js";
import { AcpAgent, type AcpAgentOptions } from "./acp-agent.js";

export type { AcpResourceOptions, AcpSessionDefaults } from "./session-factory.js";

export interface AcpModeOptions extends Omit<AcpAgentOptions, "log"> {
	input?: NodeJS.ReadableStream;
	output?: NodeJS.WritableStream;
	/** Default: lines on stderr. */
	log?: (line: string) => void;
}

/** Extensions and libraries that `console.log` must not corrupt the protocol: their output goes to stderr. */
function routeConsoleToStderr(): () => void {
	const saved = { log: console.log, info: console.info, debug: console.debug };
	console.log = console.error;
	console.info = console.error;
	console.debug = console.error;
	return () => Object.assign(console, saved);
}

/** Serves the client until stdin ends (resolves 0) or the process is signalled (130, 143). */
export async function runAcpMode(options: AcpModeOptions): Promise<number> {
	const input = (options.input ?? process.stdin) as Readable;
	const output = (options.output ?? process.stdout) as Writable;
	const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
	const restoreConsole = routeConsoleToStderr();
	const agent = new AcpAgent({ ...options, log });
	const app = agent.register(acpAgentApp({ name: APP_NAME }));
	const stream = ndJsonStream(
		Writable.toWeb(output) as WritableStream<Uint8Array>,
		Readable.toWeb(input) as ReadableStream<Uint8Array>,
	);
	const connection = app.connect(stream);

	return new Promise<number>((resolve) => {
		let finishing = false;
		const finish = async (exitCode: number) => {
			if (finishing) return;
			finishing = true;
			process.off("SIGINT", onSigint);
			process.off("SIGTERM", onSigterm);
			try {
				await agent.closeAll();
			} catch (error) {
				log(`Error during shutdown: ${error instanceof Error ? error.message : String(error)}`);
			}
			connection.close();
			restoreConsole();
			resolve(exitCode);
		};
		const onSigint = () => void finish(130);
		const onSigterm = () => void finish(143);
		process.on("SIGINT", onSigint);
		process.on("SIGTERM", onSigterm);
		void connection.closed.then(
			() => finish(0),
			() => finish(0),
		);
	});
}
