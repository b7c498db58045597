import { join, relative } from "node:path";
import type { Ignore } from "ignore";
import { loadIgnore } from "../tools/pattern-libraries.js";
import { readSmallTextFileSync } from "../tools/regular-file.js";
import { toPosixPath } from "./input-paths.js";

const IGNORE_FILE_NAMES = [".gitignore", ".ignore", ".fdignore"];

/**
 * Rewrites one line of an ignore file found in a subdirectory so that it means the same thing relative to the
 * scanned root: anchored patterns (containing a `/`) get the directory prefix, unanchored ones match at any
 * depth below that directory.
 */
function rebasePattern(line: string, prefix: string): string | undefined {
	if (line.trim() === "" || line.startsWith("#")) return undefined;
	if (prefix === "") return line;
	const negated = line.startsWith("!");
	let pattern = negated ? line.slice(1) : line;
	const withoutTrailingSlash = pattern.endsWith("/") ? pattern.slice(0, -1) : pattern;
	if (withoutTrailingSlash.includes("/")) {
		if (pattern.startsWith("/")) pattern = pattern.slice(1);
		pattern = `${prefix}${pattern}`;
	} else {
		pattern = `${prefix}**/${pattern}`;
	}
	return negated ? `!${pattern}` : pattern;
}

/** `.gitignore`, `.ignore` and `.fdignore` rules gathered while walking down from one root directory. */
export class IgnoreRules {
	/** Created with the first rule: most resource directories have no ignore file. */
	private matcher: Ignore | undefined;

	constructor(private readonly root: string) {}

	/** Adds the rules of the ignore files in `dir`, which must be the root or below it. */
	addDirectory(dir: string): void {
		const relativeDir = toPosixPath(relative(this.root, dir));
		const prefix = relativeDir ? `${relativeDir}/` : "";
		for (const fileName of IGNORE_FILE_NAMES) {
			let content: string;
			try {
				content = readSmallTextFileSync(join(dir, fileName));
			} catch {
				continue;
			}
			const patterns = content
				.split(/\r?\n/)
				.map((line) => rebasePattern(line, prefix))
				.filter((pattern): pattern is string => pattern !== undefined);
			if (patterns.length > 0) {
				this.matcher ??= loadIgnore()();
				this.matcher.add(patterns);
			}
		}
	}

	isIgnored(path: string, isDirectory: boolean): boolean {
		if (!this.matcher) return false;
		const relativePath = toPosixPath(relative(this.root, path));
		if (relativePath === "" || relativePath.startsWith("..")) return false;
		return this.matcher.ignores(isDirectory ? `${relativePath}/` : relativePath);
	}
}
