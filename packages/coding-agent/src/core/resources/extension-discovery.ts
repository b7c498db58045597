import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ResourceDiagnostic } from "./diagnostics.js";
import { listVisibleEntries, withIgnoreFilesOf } from "./directory-scan.js";
import { readPackageManifest } from "./package-manifest.js";

const INDEX_FILE_NAMES = ["index.ts", "index.js"];

export function isExtensionModuleFile(name: string): boolean {
	return (name.endsWith(".ts") && !name.endsWith(".d.ts")) || name.endsWith(".js");
}

/**
 * The entry modules of an extension directory: the existing files its package.json lists under
 * `"agent".extensions`, else its `index.ts` / `index.js`. Undefined when it has neither.
 */
export function resolveExtensionDirectoryEntries(dir: string, diagnostics: ResourceDiagnostic[]): string[] | undefined {
	const listed = readPackageManifest(dir, diagnostics)?.extensions;
	if (listed && listed.length > 0) {
		const entries: string[] = [];
		for (const entry of listed) {
			const path = resolve(dir, entry);
			if (existsSync(path)) entries.push(path);
			else diagnostics.push({ type: "warning", message: "extension listed in package.json does not exist", path });
		}
		if (entries.length > 0) return entries;
	}
	for (const name of INDEX_FILE_NAMES) {
		const path = join(dir, name);
		if (existsSync(path)) return [path];
	}
	return undefined;
}

/**
 * The extensions of an auto-discovered `extensions/` directory: the directory itself when it is a package
 * (package.json entries or an index file); otherwise its direct `*.ts`/`*.js` files and the subdirectories
 * that are packages. No deeper recursion.
 */
export function collectExtensionEntries(dir: string, diagnostics: ResourceDiagnostic[]): string[] {
	if (!existsSync(dir)) return [];
	const own = resolveExtensionDirectoryEntries(dir, diagnostics);
	if (own) return own;
	const entries: string[] = [];
	for (const entry of listVisibleEntries(dir, diagnostics, withIgnoreFilesOf(dir))) {
		if (entry.kind === "file") {
			if (isExtensionModuleFile(entry.name)) entries.push(entry.path);
			continue;
		}
		const nested = resolveExtensionDirectoryEntries(entry.path, diagnostics);
		if (nested) entries.push(...nested);
		else {
			diagnostics.push({
				type: "warning",
				message:
					"extension directory has no index.ts, index.js or package.json extensions entry (list it in .ignore if it is not an extension)",
				path: entry.path,
			});
		}
	}
	return entries;
}
