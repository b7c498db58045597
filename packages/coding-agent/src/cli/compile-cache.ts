// V8's compiled code for the modules a start loads, kept on disk by Node (≥ 22.1, `module.enableCompileCache`),
// so later starts skip most of parsing and compiling: about a fifth of a one-turn run's CPU. The cache lives in the
// user's own directory, not in a shared /tmp where another user could plant code; Node keys it on each file's
// content, so an updated agent does not read stale entries. NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's own
// switch).
//
// An older Node lacks the function: there the bundle's chunks are compiled through vm.Script, which takes and
// makes V8's code cache (`useBundleCodeCache`; 20–27 ms of a one-turn print run on Node 20, ~20 ms of the start to
// the editor). V8 checks an entry against its source's length only, so the entries of a build are kept under an id
// the build stamps into the entry from the chunks' text; and it checks an entry's header, not its code, so an entry
// starts with a CRC-32 of the code, as Node's own entries do. Code is cached once a run has used it, when the process
// exits, or earlier, before the agent changes a V8 flag (young-generation.ts): V8 refuses an entry made under
// other flags, and later entries of that run are not made.
//
// Neither Node nor this removes an entry, and every update of the agent (new bundle files) or of Node (a new
// subdirectory) adds a megabyte or more. So once a day a start removes the entries nobody has written for 30 days:
// an entry still in use is then compiled and written again by that run.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import module, { createRequire } from "node:module";
import { basename, dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import { getAgentDir } from "../core/config/paths.js";

/** Stamped by the build (scripts/bundle.mjs) with a hash of the bundle's chunks; unstamped, there is no bundle. */
const BUNDLE_ID = "agent-bundle-id:unbuilt";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Entries not written for this long are removed. */
export const COMPILE_CACHE_MAX_AGE_MS = 30 * DAY_MS;
/** The file whose modification time says when the cache was last pruned. */
const PRUNED_MARKER = ".pruned";

type EnableCompileCache = (directory?: string) => unknown;

let enabled = false;

/** Turns the compile cache on before the rest of the program is imported. */
export function enableCompileCache(): void {
	if (enabled) return;
	enabled = true;
	const enable = (module as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
	const directory = join(getAgentDir(), "cache", "compile");
	try {
		if (typeof enable === "function") {
			// An unwritable directory is reported in the returned status, not thrown; Node then compiles as before.
			enable(directory);
		} else if (!useBundleCodeCache(directory)) {
			return;
		}
		pruneCompileCache(directory);
	} catch {
		// Never let a cache stop the program.
	}
}

interface CompilingModule {
	exports: unknown;
	_compile(content: string, filename: string): unknown;
}

type ModuleWrapper = (
	exports: unknown,
	require: NodeJS.Require,
	module: CompilingModule,
	filename: string,
	dirname: string,
) => unknown;

/**
 * The code of this run's chunks that had no entry (or one V8 refused), to write; undefined once written. `crc32` is
 * node:zlib's, which an entry starts with (4 bytes, little-endian): V8 checks an entry's header, not its code.
 */
let unwritten: { scripts: Array<{ script: Script; file: string }>; crc32: (data: Uint8Array) => number } | undefined;

/**
 * Compiles the bundle's chunks with V8's code cache in `directory` (Node < 22.1, which has no compile cache).
 * False when this is not the bundle, or Node's switch turns caches off.
 */
function useBundleCodeCache(directory: string): boolean {
	const id = BUNDLE_ID.slice(BUNDLE_ID.indexOf(":") + 1);
	if (id === "unbuilt" || process.env.NODE_DISABLE_COMPILE_CACHE) return false;
	const here = dirname(fileURLToPath(import.meta.url));
	const chunks = (basename(here) === "chunks" ? here : join(here, "chunks")) + sep;
	const cacheDir = join(directory, `agent-${process.version}-${process.arch}`);
	const moduleClass = module as unknown as { prototype: CompilingModule };
	const compile = moduleClass.prototype._compile;
	const { crc32 } = process.getBuiltinModule("node:zlib");
	unwritten = { scripts: [], crc32 };
	moduleClass.prototype._compile = function (this: CompilingModule, content: string, filename: string) {
		if (!filename.startsWith(chunks) || !filename.endsWith(".cjs")) return compile.call(this, content, filename);
		const file = join(cacheDir, `${id}-${basename(filename)}`);
		let cachedData: Buffer | undefined;
		try {
			const entry = readFileSync(file);
			// One whose code does not match its checksum (a damaged disk) is compiled and written again.
			if (entry.length > 4 && entry.readUInt32LE(0) === crc32(entry.subarray(4))) cachedData = entry.subarray(4);
		} catch {
			// Not cached yet.
		}
		// What Node wraps a CommonJS file in. The bundle's chunks hold no `import()` (scripts/bundle.mjs).
		const script = new Script(`(function (exports, require, module, __filename, __dirname) {${content}\n})`, {
			filename,
			...(cachedData ? { cachedData } : {}),
		});
		if (!cachedData || script.cachedDataRejected) unwritten?.scripts.push({ script, file });
		const wrapper = script.runInThisContext() as ModuleWrapper;
		return wrapper.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename));
	};
	process.on("exit", writeBundleCodeCache);
	return true;
}

/**
 * Writes the code this run compiled for chunks without a usable entry, once: at exit, or before a V8 flag changes
 * (V8 would refuse entries made after). Each is written whole under a temporary name, then renamed. Not through
 * atomic-write.ts's `replaceFileAtomically`: an entry needs no fsync (its CRC and V8's lengths refuse a torn one),
 * and that module would load with the entry, before the chunks it is in could be cached.
 */
export function writeBundleCodeCache(): void {
	const pending = unwritten;
	unwritten = undefined;
	if (!pending?.scripts.length) return;
	// A cache is never worth an error: what is not written is compiled again by the next run.
	try {
		mkdirSync(dirname(pending.scripts[0]?.file as string), { recursive: true });
	} catch {
		return;
	}
	for (const { script, file } of pending.scripts) {
		const temporary = `${file}.${process.pid}.tmp`;
		try {
			const code = script.createCachedData();
			const header = Buffer.alloc(4);
			header.writeUInt32LE(pending.crc32(code));
			writeFileSync(temporary, Buffer.concat([header, code]));
			renameSync(temporary, file);
		} catch {
			try {
				rmSync(temporary, { force: true });
			} catch {
				// Left for the prune.
			}
		}
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
		// Not one that was empty already: Node makes its directory when the cache is enabled, and writes into it at exit.
		if (kept === 0 && entries.length > 0) {
			try {
				rmdirSync(versionDir);
			} catch {
				// Written to meanwhile.
			}
		}
	}
}
