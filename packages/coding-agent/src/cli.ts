// The command line's entry, bundled into dist/agent.cjs. Exit codes: 0 success, 1 any failure, 130/143 when
// interrupted. The `agent` bin (bin/agent.cjs) answers `--version` alone itself and imports that bundle otherwise.
import { main } from "./cli/main.js";
import { holdYoungGenerationAfterFirstTurn } from "./cli/young-generation.js";

const argv = process.argv.slice(2);

/** Exits once stdout and stderr have handed everything to the OS (a pipe reader must not lose the last lines). */
function exitAfterFlush(code: number): void {
	let pending = 2;
	const done = () => {
		if (--pending === 0) process.exit(code);
	};
	process.stdout.write("", done);
	process.stderr.write("", done);
}

// Until a mode takes over a signal to end its session properly (session_shutdown, servers stopped), SIGTERM and
// SIGHUP end the process at once — through process.exit, so the exit hooks still stop the MCP servers already
// started and remove temporary files. A mode's own handler makes this one stand aside.
for (const [signal, code] of [
	["SIGTERM", 143],
	["SIGHUP", 129],
] as const) {
	process.on(signal, () => {
		if (process.listenerCount(signal) === 1) process.exit(code);
	});
}

holdYoungGenerationAfterFirstTurn();

// The bin is a bundle holding its own copy of this package: extensions get that copy, loaded when one asks.
main(argv, process, () => import("./index.js")).then(exitAfterFlush, (error: unknown) => {
	// A bug, not a user error: show the stack so it can be reported.
	process.stderr.write(`Error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	exitAfterFlush(1);
});
