// V8's compiled code for the modules a start loads, kept on disk by Node (≥ 22.1, `module.enableCompileCache`),
// so later starts skip most of parsing and compiling: about a fifth of a one-turn run's CPU. Older Nodes lack
// the function and compile as before. The cache lives in the user's own directory, not in a shared /tmp where
// another user could plant code; Node keys it on each file's content, so an updated agent does not read stale
// entries. NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's own switch).
import module from "node:module";
import { join } from "node:path";
import { getAgentDir } from "../core/config/paths.js";

type EnableCompileCache = (directory?: string) => unknown;

let enabled = false;

/** Turns the compile cache on before the rest of the program is imported; a no-op on Node < 22.1. */
export function enableCompileCache(): void {
	if (enabled) return;
	enabled = true;
	const enable = (module as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
	if (typeof enable !== "function") return;
	try {
		// An unwritable directory is reported in the returned status, not thrown; Node then compiles as before.
		enable(join(getAgentDir(), "cache", "compile"));
	} catch {
		// Never let a cache stop the program.
	}
}
