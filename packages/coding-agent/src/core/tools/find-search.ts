import { existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { OPERATION_ABORTED } from "./abort.js";
import { runExternalTool } from "./external-tool-run.js";
import { fdSupportsNoRequireGit, findExternalTool } from "./external-tools.js";
import { visitDirectory, walkDirectory } from "./file-walker.js";
import { createFindMatcher, isSmartCaseInsensitive, parseFindPattern } from "./glob-match.js";
import { comparePaths } from "./path-order.js";

export type FindEngineChoice = "auto" | "fd" | "builtin";

export interface FindSearchRequest {
	pattern: string;
	/** Absolute directory. */
	searchPath: string;
	limit: number;
	signal?: AbortSignal;
}

export interface FindSearchResult {
	/** Relative to the search directory, `/`-separated, directories with a trailing `/`; sorted; at most `limit`. */
	paths: string[];
	/** More entries match than were returned. */
	limitReached: boolean;
}

export const FD_UNAVAILABLE_MESSAGE = "fd is not available and could not be downloaded";

function finish(paths: string[], limit: number): FindSearchResult {
	paths.sort(comparePaths);
	return { paths: paths.slice(0, limit), limitReached: paths.length > limit };
}

/**
 * Walks the tree like fd (see `visitDirectory`) and matches entries with the find pattern semantics. The walk
 * is in path order, so it stops as soon as one entry past the limit has matched.
 */
export async function findWithBuiltinWalker(request: FindSearchRequest): Promise<FindSearchResult> {
	const matches = createFindMatcher(request.pattern);
	const paths: string[] = [];
	await visitDirectory(
		request.searchPath,
		(entry) => {
			if (matches(entry.relativePath)) {
				paths.push(entry.kind === "directory" ? `${entry.relativePath}/` : entry.relativePath);
			}
			return paths.length <= request.limit;
		},
		{ signal: request.signal },
	);
	return finish(paths, request.limit);
}

function isInsideGitRepository(dir: string): boolean {
	let current = dir;
	for (;;) {
		if (existsSync(join(current, ".git"))) return true;
		const parent = dirname(current);
		if (parent === current) return false;
		current = parent;
	}
}

/** Makes a literal path safe inside a glob: metacharacters become one-character classes. */
function escapeGlob(path: string): string {
	return path.replace(/[*?[\]{}\\]/g, (char) => `[${char}]`);
}

/**
 * Whether fd applies the same ignore rules as the built-in walker here: fd before 8.7 honours .gitignore
 * only inside git repositories.
 */
export function fdHonoursIgnoreFiles(fdPath: string, searchPath: string): boolean {
	return fdSupportsNoRequireGit(fdPath) || isInsideGitRepository(searchPath);
}

async function fdArguments(fdPath: string, request: FindSearchRequest): Promise<string[]> {
	const { glob, matchesPath } = parseFindPattern(request.pattern);
	const args = ["--glob", "--color=never", "--hidden", "--exclude", ".git"];
	// Explicit case flag: with --full-path the search path's own capitals would switch off smart case.
	args.push(isSmartCaseInsensitive(request.pattern) ? "--ignore-case" : "--case-sensitive");
	args.push("--max-results", String(request.limit + 1));
	if (fdSupportsNoRequireGit(fdPath)) {
		args.push("--no-require-git");
	} else if (!isInsideGitRepository(request.searchPath)) {
		// Old fd outside a repository: hand it the .gitignore files, as the reference did. Anchored patterns in
		// nested files are then matched from the wrong directory; `auto` uses the built-in walker here instead.
		const entries = await walkDirectory(request.searchPath, { signal: request.signal });
		for (const entry of entries) {
			if (entry.kind === "file" && entry.relativePath.split("/").pop() === ".gitignore") {
				args.push("--ignore-file", entry.absolutePath);
			}
		}
	}
	// Ours differs: the reference matched every pattern against file names only, so a pattern with "/"
	// (e.g. `src/**/*.spec.ts`) never matched. Such patterns match the path below the search directory.
	if (matchesPath) args.push("--full-path", "--", `${escapeGlob(request.searchPath.replace(/\/+$/, ""))}/${glob}`);
	else args.push("--", glob);
	args.push(request.searchPath);
	return args;
}

function toRelativeResult(line: string, searchPath: string): string | undefined {
	let entry = line.trim().replace(/\r$/, "");
	if (!entry) return undefined;
	const isDirectory = entry.endsWith("/") || entry.endsWith(sep);
	if (isDirectory) entry = entry.slice(0, -1);
	let relativePath = relative(searchPath, entry);
	if (sep !== "/") relativePath = relativePath.split(sep).join("/");
	if (!relativePath) return undefined;
	return isDirectory ? `${relativePath}/` : relativePath;
}

export async function findWithFd(fdPath: string, request: FindSearchRequest): Promise<FindSearchResult> {
	const { signal } = request;
	if (signal?.aborted) throw new Error(OPERATION_ABORTED);
	const args = await fdArguments(fdPath, request);
	let stdout = "";
	const { code, stderr } = await runExternalTool(fdPath, args, {
		label: "fd",
		signal,
		onStdout: (chunk) => {
			stdout += chunk;
		},
	});
	if (code !== 0 && !stdout.trim()) throw new Error(stderr.trim() || `fd exited with code ${code}`);
	const paths = stdout
		.split("\n")
		.map((line) => toRelativeResult(line, request.searchPath))
		.filter((path): path is string => path !== undefined);
	return finish(paths, request.limit);
}

/** Runs the search with the engine chosen: under `auto`, fd when installed and able to honour ignore files. */
export function runFindSearch(
	request: FindSearchRequest,
	engine: FindEngineChoice = "auto",
): Promise<FindSearchResult> {
	if (engine === "builtin") return findWithBuiltinWalker(request);
	const fdPath = findExternalTool("fd");
	if (engine === "fd") {
		return fdPath ? findWithFd(fdPath, request) : Promise.reject(new Error(FD_UNAVAILABLE_MESSAGE));
	}
	if (fdPath && fdHonoursIgnoreFiles(fdPath, request.searchPath)) return findWithFd(fdPath, request);
	return findWithBuiltinWalker(request);
}
