import { statSync } from "node:fs";
import type { ResourceDiagnostic } from "./diagnostics.js";
import { collectDirectFiles, collectSkillFiles, type SkillScanMode } from "./directory-scan.js";
import { collectExtensionEntries, isExtensionModuleFile } from "./extension-discovery.js";
import type { ResourceType } from "./package-manifest.js";

/** One file found for a resource type, with where it came from. */
export interface ResourceFile {
	path: string;
	/** "user" | "project" | "path" */
	source: string;
	/** The file or directory the user named or that was scanned (prompt templates show it as `(path:…)`). */
	originPath: string;
	/** Whose configuration contributed it: project files run only in trusted projects (extensions). */
	scope?: "user" | "project" | "temporary";
}

interface ResourceFileRules {
	label: string;
	expected: string;
	isResourceFile(name: string): boolean;
	collectFromDirectory(dir: string, mode: SkillScanMode, diagnostics: ResourceDiagnostic[]): string[];
}

const RULES: Record<ResourceType, ResourceFileRules> = {
	skills: {
		label: "skill",
		expected: "a markdown file",
		isResourceFile: (name) => name.endsWith(".md"),
		collectFromDirectory: collectSkillFiles,
	},
	prompts: {
		label: "prompt template",
		expected: "a markdown file",
		isResourceFile: (name) => name.endsWith(".md"),
		collectFromDirectory: (dir, _mode, diagnostics) => collectDirectFiles(dir, ".md", diagnostics),
	},
	themes: {
		label: "theme",
		expected: "a JSON file",
		isResourceFile: (name) => name.endsWith(".json"),
		collectFromDirectory: (dir, _mode, diagnostics) => collectDirectFiles(dir, ".json", diagnostics),
	},
	extensions: {
		label: "extension",
		expected: "a .ts or .js file",
		isResourceFile: isExtensionModuleFile,
		collectFromDirectory: (dir, _mode, diagnostics) => collectExtensionEntries(dir, diagnostics),
	},
};

/**
 * The resource files at a path the user named: the file itself, or those found in the directory (skills are
 * scanned in `mode`). A missing path or a file of the wrong kind is reported (e.g. `skill path does not exist`,
 * `skill path is not a markdown file`).
 */
export function collectResourceFiles(
	type: ResourceType,
	path: string,
	mode: SkillScanMode,
	diagnostics: ResourceDiagnostic[],
): string[] {
	const rules = RULES[type];
	let isDirectory: boolean;
	try {
		isDirectory = statSync(path).isDirectory();
	} catch {
		diagnostics.push({ type: "warning", message: `${rules.label} path does not exist`, path });
		return [];
	}
	if (isDirectory) return rules.collectFromDirectory(path, mode, diagnostics);
	if (rules.isResourceFile(path)) return [path];
	diagnostics.push({ type: "warning", message: `${rules.label} path is not ${rules.expected}`, path });
	return [];
}

/** The files of an auto-discovered directory; a directory that does not exist yields nothing. */
export function collectDirectoryResourceFiles(
	type: ResourceType,
	dir: string,
	diagnostics: ResourceDiagnostic[],
): string[] {
	try {
		if (!statSync(dir).isDirectory()) return [];
	} catch {
		return [];
	}
	return RULES[type].collectFromDirectory(dir, "resource", diagnostics);
}
