#!/usr/bin/env node
// Entry point of the `agent` command. Exit codes: 0 success, 1 any failure, 130/143 when interrupted.
import { main } from "./cli/main.js";

/** Exits once stdout and stderr have handed everything to the OS (a pipe reader must not lose the last lines). */
function exitAfterFlush(code: number): void {
	let pending = 2;
	const done = () => {
		if (--pending === 0) process.exit(code);
	};
	process.stdout.write("", done);
	process.stderr.write("", done);
}

main(process.argv.slice(2)).then(exitAfterFlush, (error: unknown) => {
	// A bug, not a user error: show the stack so it can be reported.
	process.stderr.write(`Error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	exitAfterFlush(1);
});
