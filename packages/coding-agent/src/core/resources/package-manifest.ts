import { join } from "node:path";
import { APP_NAME } from "../../config.js";
import { parseJsonObjectText } from "../config/settings-file.js";
import { readSmallTextFileSync } from "../tools/regular-file.js";
import { describeError, type ResourceDiagnostic } from "./diagnostics.js";

export type ResourceType = "extensions" | "skills" | "prompts" | "themes";
export const RESOURCE_TYPES: readonly ResourceType[] = ["extensions", "skills", "prompts", "themes"];

/** The resource lists a package declares in its package.json under `"agent"`. */
export type PackageManifest = Partial<Record<ResourceType, string[]>>;

/**
 * The package.json manifest of `dir`, if any. The `"agent"` key is read; a package written for the reference
 * program declares its resources under `"pi"`, which is read when there is no `"agent"` key, so such
 * packages work unchanged.
 */
export function readPackageManifest(dir: string, diagnostics: ResourceDiagnostic[]): PackageManifest | undefined {
	const path = join(dir, "package.json");
	let text: string;
	try {
		text = readSmallTextFileSync(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
			diagnostics.push({ type: "error", message: `cannot read package.json: ${describeError(error)}`, path });
		}
		return undefined;
	}
	const parsed = parseJsonObjectText(text, path, "package.json");
	if (!parsed.ok) {
		diagnostics.push({ type: "warning", message: parsed.message, path });
		return undefined;
	}
	const key = APP_NAME in parsed.value ? APP_NAME : "pi";
	const manifest = parsed.value[key];
	if (manifest === undefined) return undefined;
	if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
		diagnostics.push({ type: "warning", message: `"${key}" must be an object`, path });
		return undefined;
	}
	const result: PackageManifest = {};
	for (const type of RESOURCE_TYPES) {
		const entries = (manifest as Record<string, unknown>)[type];
		if (entries === undefined) continue;
		if (!Array.isArray(entries) || !entries.every((entry) => typeof entry === "string")) {
			diagnostics.push({ type: "warning", message: `"${key}.${type}" must be a list of paths`, path });
			continue;
		}
		result[type] = entries;
	}
	return result;
}
