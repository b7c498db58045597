import { spawn } from "node:child_process";
import { dirname, relative, sep } from "node:path";
import { OPERATION_ABORTED } from "./abort.js";
import { createGrepGlobFilter } from "./glob-match.js";
import { compareMatches, type GrepMatch, type GrepSearchRequest, type GrepSearchResult } from "./grep-search.js";
import { IgnoreRuleCache } from "./ignore-rules.js";

const MAX_STDERR_CHARS = 8192;

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

	return new Promise<GrepSearchResult>((resolve, reject) => {
		const child = spawn(rgPath, ripgrepArguments(request), {
			cwd: isDirectory ? searchPath : dirname(searchPath),
			stdio: ["ignore", "pipe", "pipe"],
			windowsHide: true,
		});
		const matches: GrepMatch[] = [];
		let limitReached = false;
		let aborted = false;
		let settled = false;
		let stderr = "";
		let pendingLine = "";

		const onAbort = () => {
			aborted = true;
			child.kill();
		};
		signal?.addEventListener("abort", onAbort, { once: true });
		const settle = (action: () => void) => {
			if (settled) return;
			settled = true;
			signal?.removeEventListener("abort", onAbort);
			action();
		};

		const handleLine = (line: string) => {
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
				child.kill();
				return;
			}
			matches.push({ filePath, lineNumber });
		};

		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (chunk: string) => {
			const lines = (pendingLine + chunk).split("\n");
			pendingLine = lines.pop() ?? "";
			for (const line of lines) handleLine(line);
		});
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (chunk: string) => {
			if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
		});
		child.once("error", (error) => settle(() => reject(new Error(`Failed to run ripgrep: ${error.message}`))));
		child.once("close", (code) => {
			if (pendingLine) handleLine(pendingLine);
			settle(() => {
				if (aborted) return reject(new Error(OPERATION_ABORTED));
				// Exit code 2 also reports unreadable files next to real matches; only fail when nothing was found.
				if (!limitReached && code !== 0 && code !== 1 && matches.length === 0) {
					return reject(new Error(stderr.trim() || `ripgrep exited with code ${code}`));
				}
				resolve({ matches: matches.sort(compareMatches), limitReached });
			});
		});
	});
}
