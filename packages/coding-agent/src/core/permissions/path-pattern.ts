// Path patterns of `Read(…)`, `Edit(…)`, `Write(…)`, `Grep(…)`, `Find(…)`, `LS(…)` rules, and the paths of a call
// they are matched against. Patterns resolve against the project (gitignore style):
//
//   src/**, ./src/**, /src/**   under <project>/src (a leading `/` is the project root, not the file system's)
//   ./a.ts                      <project>/a.ts only
//   *.env, .env                 a name at any depth inside the project (no `/` and no `./` in the pattern)
//   //etc/**                    an absolute path
//   ~/.ssh/**                   under the home directory
//
// A pattern without wildcards also covers what is inside it (`Edit(docs)` covers docs/a.md). A project pattern
// never matches a path outside the project: `..` is resolved first, and symbolic links are followed (see
// `resolveCallPath`), so `src/link-to-etc/passwd` is not under `src/` for an allow rule.
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";

export interface PathAnchors {
	/** The project root, symbolic links resolved. */
	projectRoot: string;
	home: string;
}

export interface PathPattern {
	text: string;
	matches(path: string): boolean;
}

const GLOB_CHARS = /[*?[\]{}()!+@]/;

/** `path` relative to `base` with `/` separators; undefined when `path` is not inside `base`. */
export function relativeInside(base: string, path: string): string | undefined {
	const rel = relative(base, path);
	if (rel === "") return "";
	if (isAbsolute(rel) || rel === ".." || rel.startsWith(`..${sep}`)) return undefined;
	return sep === "/" ? rel : rel.split(sep).join("/");
}

export function compilePathPattern(pattern: string, anchors: PathAnchors): PathPattern {
	let base = anchors.projectRoot;
	let glob = pattern.trim();
	if (glob.startsWith("//")) {
		base = "/";
		glob = glob.replace(/^\/+/, "");
	} else if (glob === "~" || glob.startsWith("~/")) {
		base = anchors.home;
		glob = glob.slice(2);
	} else if (glob.startsWith("/")) {
		glob = glob.replace(/^\/+/, "");
	} else if (glob === "." || glob.startsWith("./")) {
		while (glob.startsWith("./")) glob = glob.slice(2);
		if (glob === ".") glob = "";
	} else if (!glob.replace(/\/+$/, "").includes("/")) {
		// A bare name matches at any depth, as in .gitignore.
		glob = `**/${glob}`;
	}
	glob = glob.replace(/\/+$/, "");
	if (glob === "") {
		// The anchor itself, and everything in it.
		return { text: pattern, matches: (path) => relativeInside(base, path) !== undefined };
	}
	const literal = !GLOB_CHARS.test(glob);
	const isMatch = picomatch(glob, { dot: true });
	const matchesDescendant = literal ? undefined : picomatch(`${glob}/**`, { dot: true });
	return {
		text: pattern,
		matches(path) {
			const rel = relativeInside(base, path);
			if (rel === undefined || rel === "") return false;
			if (literal) return rel === glob || rel.startsWith(`${glob}/`);
			return isMatch(rel) || (matchesDescendant?.(rel) ?? false);
		},
	};
}

/** Follows the symbolic links of the longest existing prefix of `path`; the rest is appended as written. */
export function realpathOfNearestExisting(path: string): string {
	const missing: string[] = [];
	let current = path;
	for (;;) {
		try {
			return join(realpathSync(current), ...missing.reverse());
		} catch {
			const parent = dirname(current);
			if (parent === current) return path;
			missing.push(basename(current));
			current = parent;
		}
	}
}

/** A path a call names, both as written (`..` resolved) and with symbolic links followed. */
export interface CallPath {
	/** As the model wrote it. */
	given: string;
	/** Absolute, `..` resolved, links not followed. */
	lexical: string;
	/** Absolute, links followed (of the part that exists). */
	real: string;
}

/** Expands `~`, resolves against `cwd` and follows links. */
export function resolveCallPath(given: string, cwd: string, home: string): CallPath {
	let expanded = given.startsWith("@") ? given.slice(1) : given;
	if (expanded === "~") expanded = home;
	else if (expanded.startsWith("~/")) expanded = join(home, expanded.slice(2));
	const lexical = resolve(cwd, expanded);
	return { given, lexical, real: realpathOfNearestExisting(lexical) };
}
