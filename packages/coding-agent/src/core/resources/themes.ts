import { existsSync } from "node:fs";
import { basename } from "node:path";
import { parseJsonObjectText } from "../config/settings-file.js";
import { readSmallTextFileSync } from "../tools/regular-file.js";
import { describeError, type ResourceDiagnostic } from "./diagnostics.js";
import { collectDirectFiles } from "./directory-scan.js";
import { NamedResourceCollection } from "./named-resource-collection.js";
import { collectResourceFiles } from "./resource-files.js";

/**
 * A theme file found on disk. Only discovery happens here: the interactive mode turns `definition` into
 * colours and reports what it can't use.
 */
export interface ThemeResource {
	/** The file's `name`, or its file name without `.json`. */
	name: string;
	path: string;
	definition: Record<string, unknown>;
	/** "user" | "project" | "path" */
	source: string;
}

export function loadThemeFile(
	path: string,
	source: string,
): { theme?: ThemeResource; diagnostics: ResourceDiagnostic[] } {
	const diagnostics: ResourceDiagnostic[] = [];
	let text: string;
	try {
		text = readSmallTextFileSync(path);
	} catch (error) {
		diagnostics.push({ type: "error", message: `cannot read theme: ${describeError(error)}`, path });
		return { diagnostics };
	}
	const parsed = parseJsonObjectText(text, path, "theme");
	if (!parsed.ok) {
		diagnostics.push({ type: "warning", message: parsed.message, path });
		return { diagnostics };
	}
	const declaredName = parsed.value.name;
	if (declaredName !== undefined && (typeof declaredName !== "string" || declaredName.trim() === "")) {
		diagnostics.push({ type: "warning", message: 'theme "name" must be a non-empty string', path });
	}
	const name = typeof declaredName === "string" && declaredName.trim() !== "" ? declaredName : basename(path, ".json");
	return { theme: { name, path, definition: parsed.value, source }, diagnostics };
}

/** Themes in priority order: the first with a name wins. */
export class ThemeCollection extends NamedResourceCollection<ThemeResource> {
	constructor() {
		super("theme");
	}

	get themes(): ThemeResource[] {
		return this.resources;
	}

	protected pathOf(theme: ThemeResource): string {
		return theme.path;
	}

	addFile(path: string, source: string): void {
		this.addLoadedFile(path, () => {
			const { theme, diagnostics } = loadThemeFile(path, source);
			return { resource: theme, diagnostics };
		});
	}

	addDirectory(dir: string, source: string): void {
		if (!existsSync(dir)) return;
		for (const file of collectDirectFiles(dir, ".json", this.diagnostics)) this.addFile(file, source);
	}

	addExplicitPath(path: string, source: string): void {
		for (const file of collectResourceFiles("themes", path, "explicit", this.diagnostics)) this.addFile(file, source);
	}
}
