import { basename, dirname, relative } from "node:path";
import { loadPicomatch } from "../tools/pattern-libraries.js";
import { toPosixPath } from "./input-paths.js";

// Entries of the settings resource arrays (and of package filters) are paths, or patterns:
//   glob      keep only the collected files that match
//   !glob     disable matching files
//   +path     force-enable this exact path (wins over !glob)
//   -path     force-disable this exact path (wins over everything)

/** Whether a resource-array entry is a pattern rather than a path. */
export function isResourcePattern(entry: string): boolean {
	return /^[!+-]/.test(entry) || entry.includes("*") || entry.includes("?");
}

/** Whether a pattern applies to auto-discovered files too (globs without a prefix only filter listed paths). */
export function isOverridePattern(entry: string): boolean {
	return /^[!+-]/.test(entry);
}

/** The names a pattern may match a file by; a SKILL.md file also answers to its directory. */
function candidateNames(filePath: string, baseDir: string): string[] {
	const names = [toPosixPath(relative(baseDir, filePath)), basename(filePath), toPosixPath(filePath)];
	if (basename(filePath) === "SKILL.md") {
		const skillDir = dirname(filePath);
		names.push(toPosixPath(relative(baseDir, skillDir)), basename(skillDir), toPosixPath(skillDir));
	}
	return names;
}

function matchesGlob(filePath: string, globs: string[], baseDir: string): boolean {
	if (globs.length === 0) return false;
	const isMatch = loadPicomatch()(globs, { dot: true });
	return candidateNames(filePath, baseDir).some((name) => isMatch(name));
}

function matchesExactPath(filePath: string, paths: string[], baseDir: string): boolean {
	if (paths.length === 0) return false;
	const names = new Set(candidateNames(filePath, baseDir));
	names.delete(basename(filePath));
	return paths.some((path) => names.has(toPosixPath(path.startsWith("./") ? path.slice(2) : path)));
}

/** Which of `files` the patterns leave enabled. Relative patterns are taken relative to `baseDir`. */
export function applyResourcePatterns(
	files: readonly string[],
	patterns: readonly string[],
	baseDir: string,
): Set<string> {
	const includes: string[] = [];
	const excludes: string[] = [];
	const forceIncludes: string[] = [];
	const forceExcludes: string[] = [];
	for (const pattern of patterns) {
		if (pattern.startsWith("!")) excludes.push(pattern.slice(1));
		else if (pattern.startsWith("+")) forceIncludes.push(pattern.slice(1));
		else if (pattern.startsWith("-")) forceExcludes.push(pattern.slice(1));
		else includes.push(pattern);
	}
	const enabled = new Set<string>();
	for (const file of files) {
		let isEnabled = includes.length === 0 || matchesGlob(file, includes, baseDir);
		if (isEnabled && matchesGlob(file, excludes, baseDir)) isEnabled = false;
		if (matchesExactPath(file, forceIncludes, baseDir)) isEnabled = true;
		if (matchesExactPath(file, forceExcludes, baseDir)) isEnabled = false;
		if (isEnabled) enabled.add(file);
	}
	return enabled;
}
