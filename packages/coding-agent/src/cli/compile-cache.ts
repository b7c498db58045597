// V8's compiled code for the modules a start loads, kept on disk by Node (≥ 22.1, `module.enableCompileCache`),
// so later starts skip most of parsing and compiling: about a fifth of a one-turn run's CPU. Older Nodes lack
// the function and compile as before. The cache lives in the user's own directory, not in a shared /tmp where
// another user could plant code; Node keys it on each file's content, so an updated agent does not read stale
// entries. NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's own switch).
//
// Node never removes an entry, and every update of the agent (new bundle files) or of Node (a new subdirectory)
// adds a megabyte or more. So once a day a start removes the entries nobody has written for 30 days: an entry
// still in use is then compiled and written again by that run.
import { mkdirSync, readdirSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import module from "node:module";
import { join } from "node:path";
import { getAgentDir } from "../core/config/paths.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Entries not written for this long are removed. */
export const COMPILE_CACHE_MAX_AGE_MS = 30 * DAY_MS;
/** The file whose modification time says when the cache was last pruned. */
const PRUNED_MARKER = ".pruned";

type EnableCompileCache = (directory?: string) => unknown;

let enabled = false;

/** Turns the compile cache on before the rest of the program is imported; a no-op on Node < 22.1. */
export function enableCompileCache(): void {
	if (enabled) return;
	enabled = true;
	const enable = (module as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
	if (typeof enable !== "function") return;
	const directory = join(getAgentDir(), "cache", "compile");
	try {
		// An unwritable directory is reported in the returned status, not thrown; Node then compiles as before.
		enable(directory);
		pruneCompileCache(directory);
	} catch {
		// Never let a cache stop the program.
	}
}

/**
 * Removes the entries of Node's compile cache in `directory` (`<node version key>/<entry>`) not written for
 * `COMPILE_CACHE_MAX_AGE_MS`, and the subdirectories left empty; does nothing when it last ran less than a day
 * before `now`. Errors (a directory another process is pruning, say) are skipped.
 */
export function pruneCompileCache(directory: string, now: number = Date.now()): void {
	const marker = join(directory, PRUNED_MARKER);
	const lastRun = statSync(marker, { throwIfNoEntry: false })?.mtimeMs;
	if (lastRun !== undefined && now - lastRun < DAY_MS && lastRun <= now) return;
	mkdirSync(directory, { recursive: true });
	writeFileSync(marker, "");
	for (const version of readdirSync(directory, { withFileTypes: true })) {
		if (!version.isDirectory()) continue;
		const versionDir = join(directory, version.name);
		let entries: string[];
		try {
			entries = readdirSync(versionDir);
		} catch {
			continue;
		}
		let kept = 0;
		for (const entry of entries) {
			const path = join(versionDir, entry);
			const written = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
			if (written !== undefined && now - written > COMPILE_CACHE_MAX_AGE_MS) rmSync(path, { force: true });
			else kept++;
		}
		if (kept === 0) {
			try {
				rmdirSync(versionDir);
			} catch {
				// Written to meanwhile.
			}
		}
	}
}
