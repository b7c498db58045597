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

import { isAbsolute, relative, resolve, sep } from "node:path";
import { expandPath, realpathOfNearestExisting } from "../tools/path-utils.js";
import { loadPicomatch } from "../tools/pattern-libraries.js";

export interface PathAnchors {
	/** The project root, symbolic links resolved. */
	projectRoot: string;
	home: string;
}

/** Where a pattern is anchored: the project root, the home directory, or the file system's root. */
export type PathAnchor = 0 | 1 | 2;

export interface PathPattern {
	text: string;
	anchor: PathAnchor;
	/** The anchor's directory. */
	base: string;
	/** `relative` is the path relative to `base` (see `relativeInside`), computed once per path by callers. */
	matchesRelative(relative: string | undefined): boolean;
	matches(path: string): boolean;
}

const GLOB_CHARS = /[*?[\]{}()!+@]/;

/**
 * `path` relative to `base` with `/` separators; undefined when `path` is not inside `base`. Both are absolute and
 * normalized (as `resolve` and `realpath` give them): on POSIX a prefix test, which rules run hundreds of times
 * per call.
 */
export function relativeInside(base: string, path: string): string | undefined {
	if (process.platform !== "win32") {
		if (path === base) return "";
		const prefix = base.endsWith("/") ? base : `${base}/`;
		return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
	}
	const rel = relative(base, path);
	if (rel === "") return "";
	if (isAbsolute(rel) || rel === ".." || rel.startsWith(`..${sep}`)) return undefined;
	return sep === "/" ? rel : rel.split(sep).join("/");
}

export function compilePathPattern(pattern: string, anchors: PathAnchors): PathPattern {
	let base = anchors.projectRoot;
	let anchor: PathAnchor = 0;
	let glob = pattern.trim();
	if (glob.startsWith("//")) {
		base = "/";
		anchor = 2;
		glob = glob.replace(/^\/+/, "");
	} else if (glob === "~" || glob.startsWith("~/")) {
		base = anchors.home;
		anchor = 1;
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
		const matchesRelative = (rel: string | undefined) => rel !== undefined;
		return {
			text: pattern,
			anchor,
			base,
			matchesRelative,
			matches: (path) => matchesRelative(relativeInside(base, path)),
		};
	}
	const firstGlobChar = glob.search(GLOB_CHARS);
	const literal = firstGlobChar < 0;
	// Plain regular expressions (picomatch's matcher functions cost several microseconds a call), tried only for
	// paths under the pattern's literal directory part: most rules are skipped by a string comparison.
	const whole = literal ? undefined : loadPicomatch().makeRe(glob, { dot: true });
	const descendant = literal ? undefined : loadPicomatch().makeRe(`${glob}/**`, { dot: true });
	const head = literal ? glob : glob.slice(0, Math.max(0, glob.lastIndexOf("/", firstGlobChar)));
	const isUnderHead = (rel: string) => head === "" || rel === head || rel.startsWith(`${head}/`);
	const matchesRelative = (rel: string | undefined) => {
		if (rel === undefined || rel === "" || !isUnderHead(rel)) return false;
		if (literal) return true;
		return (whole?.test(rel) ?? false) || (descendant?.test(rel) ?? false);
	};
	return {
		text: pattern,
		anchor,
		base,
		matchesRelative,
		matches: (path) => matchesRelative(relativeInside(base, path)),
	};
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

/** Expands the path as the file tools do (`@`, Unicode spaces, `~`), resolves it against `cwd`, follows links. */
export function resolveCallPath(given: string, cwd: string, home: string): CallPath {
	const lexical = resolve(cwd, expandPath(given, home));
	return { given, lexical, real: realpathOfNearestExisting(lexical) };
}
