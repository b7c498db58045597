import { loadPicomatch } from "./pattern-libraries.js";

function basenameOf(relativePath: string): string {
	const slash = relativePath.lastIndexOf("/");
	return slash === -1 ? relativePath : relativePath.slice(slash + 1);
}

/**
 * The grep tool's `glob` filter with ripgrep's `--glob` semantics: a glob without `/` matches the file name
 * at any depth (`*.ts`), one with `/` matches the path relative to the search directory (`src/**\/*.ts`),
 * and a leading `!` excludes. Case-sensitive; dotfiles match.
 */
export function createGrepGlobFilter(glob: string): (relativePath: string) => boolean {
	const negated = glob.startsWith("!");
	let pattern = negated ? glob.slice(1) : glob;
	// A trailing slash selects directories, which never match a file.
	if (pattern.endsWith("/")) return () => negated;
	const anchored = pattern.includes("/");
	if (pattern.startsWith("/")) pattern = pattern.slice(1);
	const isMatch = loadPicomatch()(pattern, { dot: true });
	return (relativePath) => isMatch(anchored ? relativePath : basenameOf(relativePath)) !== negated;
}

/** fd's smart case: a pattern without uppercase letters matches case-insensitively. */
export function isSmartCaseInsensitive(pattern: string): boolean {
	return !/\p{Lu}/u.test(pattern);
}

/** The find pattern as matched: leading `./` dropped, and whether it names a path (contains `/`). */
export function parseFindPattern(pattern: string): { glob: string; matchesPath: boolean } {
	let glob = pattern;
	while (glob.startsWith("./")) glob = glob.slice(2);
	const matchesPath = glob.includes("/");
	if (glob.startsWith("/")) glob = glob.replace(/^\/+/, "");
	return { glob, matchesPath };
}

/**
 * The find tool's pattern: without `/` it matches entry names (as fd does); with `/` it matches the path
 * relative to the search directory. Smart case, dotfiles included.
 */
export function createFindMatcher(pattern: string): (relativePath: string) => boolean {
	const { glob, matchesPath } = parseFindPattern(pattern);
	const options = { dot: true, nocase: isSmartCaseInsensitive(pattern) };
	const picomatch = loadPicomatch();
	const isMatch = picomatch(glob, options);
	// picomatch lets `dir/**` match `dir` itself; fd (and gitignore) match only what is inside.
	const isBaseOfTrailingGlobstar = glob.endsWith("/**") ? picomatch(glob.slice(0, -3), options) : () => false;
	return (relativePath) => {
		if (!matchesPath) return isMatch(basenameOf(relativePath));
		return isMatch(relativePath) && !isBaseOfTrailingGlobstar(relativePath);
	};
}
