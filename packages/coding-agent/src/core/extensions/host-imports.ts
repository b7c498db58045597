// Which host packages an extension imports at run time, read from its source and the local files it imports
// (so the loader imports only those: most extensions import nothing but types and TypeBox). Type-only imports
// do not count. A textual scan can miss an import built at run time; the loader then retries with every host
// package, so a miss costs time, never correctness.
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type HostPackage, hostPackageOf } from "./host-modules.js";

// `import x from "m"`, `import type … from "m"`, `export … from "m"`, `import "m"`, `import("m")`, `require("m")`.
const MODULE_REFERENCE =
	/\b(?:import|export)\s+(type\s+)?[^"'`;]*?\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']|\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g;

const LOCAL_CANDIDATES = ["", ".ts", ".js", ".mts", ".mjs", ".cts", ".cjs", "/index.ts", "/index.js"];

function resolveLocal(from: string, specifier: string): string | undefined {
	const base = resolve(dirname(from), specifier);
	// TypeScript sources import their siblings with the `.js` suffix of the compiled name.
	const stems = /\.(js|mjs|cjs)$/.test(base) ? [base, base.replace(/\.(m|c)?js$/, ".$1ts")] : [base];
	for (const stem of stems) {
		for (const suffix of LOCAL_CANDIDATES) {
			try {
				if (statSync(stem + suffix).isFile()) return stem + suffix;
			} catch {
				// not this one
			}
		}
	}
	return undefined;
}

/** The host packages `entry` and the local modules it imports (transitively) use at run time. */
export function scanHostImports(entry: string): Set<HostPackage> {
	const found = new Set<HostPackage>();
	const visited = new Set<string>();
	const pending = [entry];
	while (pending.length > 0) {
		const file = pending.pop() as string;
		if (visited.has(file)) continue;
		visited.add(file);
		let source: string;
		try {
			source = readFileSync(file, "utf8");
		} catch {
			continue;
		}
		for (const match of source.matchAll(MODULE_REFERENCE)) {
			const typeOnly = match[1] !== undefined;
			const specifier = (match[2] ?? match[3] ?? match[4]) as string;
			if (specifier.startsWith(".")) {
				const local = resolveLocal(file, specifier);
				if (local) pending.push(local);
				continue;
			}
			const host = hostPackageOf(specifier);
			if (host && !typeOnly) found.add(host);
		}
	}
	return found;
}
