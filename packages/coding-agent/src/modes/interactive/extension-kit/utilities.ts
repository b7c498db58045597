// Helpers the reference exports beside its components, with its signatures: highlighting, languages, the
// clipboard, the shell, visual truncation.
import { extname } from "node:path";
import { highlightCode as highlightWithTheme, wrapTextWithAnsi } from "@agent/tui";
import { resolveShell, type ShellConfig } from "../../../core/tools/shell.js";
import { copyToClipboard as copyWithTerminal } from "../clipboard.js";
import { getCurrentTheme } from "../theme/current-theme.js";

const LANGUAGES: Record<string, string> = {
	ts: "typescript",
	tsx: "typescript",
	mts: "typescript",
	cts: "typescript",
	js: "javascript",
	jsx: "javascript",
	mjs: "javascript",
	cjs: "javascript",
	py: "python",
	rb: "ruby",
	rs: "rust",
	go: "go",
	java: "java",
	kt: "kotlin",
	swift: "swift",
	c: "c",
	h: "c",
	cpp: "cpp",
	cc: "cpp",
	cxx: "cpp",
	hpp: "cpp",
	cs: "csharp",
	php: "php",
	sh: "bash",
	bash: "bash",
	zsh: "bash",
	fish: "fish",
	ps1: "powershell",
	sql: "sql",
	html: "html",
	htm: "html",
	css: "css",
	scss: "scss",
	sass: "scss",
	less: "less",
	json: "json",
	yaml: "yaml",
	yml: "yaml",
	toml: "toml",
	xml: "xml",
	md: "markdown",
	markdown: "markdown",
	dockerfile: "dockerfile",
	makefile: "makefile",
	lua: "lua",
	r: "r",
	scala: "scala",
	ex: "elixir",
	exs: "elixir",
	erl: "erlang",
	hs: "haskell",
	ml: "ocaml",
	vim: "vim",
	graphql: "graphql",
	proto: "protobuf",
	tf: "hcl",
	hcl: "hcl",
	ini: "ini",
	diff: "diff",
};

/** The highlight.js language of a file, from its extension (or its name: `Dockerfile`, `Makefile`). */
export function getLanguageFromPath(filePath: string): string | undefined {
	const extension = extname(filePath).slice(1).toLowerCase();
	if (extension) return LANGUAGES[extension];
	const base = filePath.split(/[\\/]/).pop()?.toLowerCase() ?? "";
	return LANGUAGES[base];
}

/** Syntax-highlighted lines of `code` in the current theme. */
export function highlightCode(code: string, lang?: string): string[] {
	return highlightWithTheme(code, lang, getCurrentTheme().getSyntaxTheme());
}

/** Copies text to the system clipboard (the platform's tool, and OSC 52 through the terminal). */
export function copyToClipboard(text: string): void {
	copyWithTerminal(text, process.stdout.isTTY ? (data) => process.stdout.write(data) : undefined);
}

/**
 * The shell bash commands run in. Ours differs: the reference also reads `shellPath` from the settings here;
 * a project's `shellPath` runs only once the project is trusted, so settings are the session's business —
 * pass a path to `resolveShell(path)` for a custom shell.
 */
export function getShellConfig(): ShellConfig {
	return resolveShell();
}

export interface VisualTruncateResult {
	/** The visual lines to show. */
	visualLines: string[];
	/** How many visual lines were left out above them. */
	skippedCount: number;
}

/** The last `maxVisualLines` lines `text` takes once wrapped at `width` (minus `paddingX` on each side). */
export function truncateToVisualLines(
	text: string,
	maxVisualLines: number,
	width: number,
	paddingX = 0,
): VisualTruncateResult {
	if (!text) return { visualLines: [], skippedCount: 0 };
	const contentWidth = Math.max(1, width - paddingX * 2);
	const lines = text.split("\n").flatMap((line) => (line ? wrapTextWithAnsi(line, contentWidth) : [""]));
	if (lines.length <= maxVisualLines) return { visualLines: lines, skippedCount: 0 };
	return { visualLines: lines.slice(-maxVisualLines), skippedCount: lines.length - maxVisualLines };
}
