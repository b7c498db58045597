import { dirname, relative, sep } from "node:path";
import { OPERATION_ABORTED } from "./abort.js";
import { runExternalTool } from "./external-tool-run.js";
import { createGrepGlobFilter } from "./glob-match.js";
import { compareMatches, type GrepMatch, type GrepSearchRequest, type GrepSearchResult } from "./grep-search.js";
import { IgnoreRuleCache } from "./ignore-rules.js";

interface RipgrepEvent {
	type?: string;
	data?: { path?: { text?: string }; line_number?: number };
}

function ripgrepArguments(request: GrepSearchRequest): string[] {
	const args = ["--json", "--line-number", "--color=never", "--hidden"];
	// Ours differs: honour ignore files outside git repositories too, and skip the repository database, which
	// --hidden would otherwise search.
	args.push("--no-require-git", "--glob", "!.git");
	if (request.ignoreCase) args.push("--ignore-case");
	if (request.literal) args.push("--fixed-strings");
	if (request.glob) args.push("--glob", request.glob);
	// -e keeps a pattern that starts with "-" from being read as a flag.
	args.push("-e", request.pattern, "--", request.searchPath);
	return args;
}

/**
 * Searches with ripgrep's JSON output, stopping rg once one match past the limit has been seen. rg runs in
 * the search directory, so `glob` is anchored there as in the built-in engine.
 */
export async function searchWithRipgrep(rgPath: string, request: GrepSearchRequest): Promise<GrepSearchResult> {
	const { signal, searchPath, isDirectory, limit } = request;
	if (signal?.aborted) throw new Error(OPERATION_ABORTED);
	// rg lets a file that matches a --glob override its ignore rules. Ours differs: `glob` only filters, so such
	// files are checked against the ignore rules here; the glob is re-checked with the built-in semantics.
	const globFilter = request.glob && isDirectory ? createGrepGlobFilter(request.glob) : undefined;
	const ignoreRules =
		request.glob && isDirectory && !request.glob.startsWith("!")
			? await IgnoreRuleCache.forRoot(searchPath)
			: undefined;
	const accepts = (filePath: string) => {
		if (!isDirectory) return true;
		const relativePath = relative(searchPath, filePath).split(sep).join("/");
		if (relativePath.startsWith("../")) return false;
		if (globFilter && !globFilter(relativePath)) return false;
		return !ignoreRules?.isIgnored(filePath);
	};

	const matches: GrepMatch[] = [];
	let limitReached = false;
	let pendingLine = "";
	const handleLine = (line: string, stop: () => void) => {
		if (limitReached || !line.startsWith('{"type":"match"')) return;
		let event: RipgrepEvent;
		try {
			event = JSON.parse(line) as RipgrepEvent;
		} catch {
			return;
		}
		const filePath = event.data?.path?.text;
		const lineNumber = event.data?.line_number;
		// Paths that are not valid UTF-8 come as base64 bytes; they cannot be shown, so they are skipped.
		if (event.type !== "match" || filePath === undefined || lineNumber === undefined) return;
		if (!accepts(filePath)) return;
		if (matches.length >= limit) {
			limitReached = true;
			stop();
			return;
		}
		matches.push({ filePath, lineNumber });
	};

	const { code, stderr } = await runExternalTool(rgPath, ripgrepArguments(request), {
		label: "ripgrep",
		cwd: isDirectory ? searchPath : dirname(searchPath),
		signal,
		onStdout: (chunk, stop) => {
			const lines = (pendingLine + chunk).split("\n");
			pendingLine = lines.pop() ?? "";
			for (const line of lines) handleLine(line, stop);
		},
	});
	// rg has exited: nothing left to stop.
	if (pendingLine) handleLine(pendingLine, () => {});
	// Exit code 2 also reports unreadable files next to real matches; only fail when nothing was found.
	if (!limitReached && code !== 0 && code !== 1 && matches.length === 0) {
		throw new Error(stderr.trim() || `ripgrep exited with code ${code}`);
	}
	return { matches: matches.sort(compareMatches), limitReached };
}
