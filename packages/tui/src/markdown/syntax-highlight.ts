import { createRequire } from "node:module";
import type { StyleFn } from "../theme/style.js";

/** Styles per highlight.js scope ("keyword", "string", "title.function", ...). */
export type SyntaxTheme = Partial<Record<string, StyleFn>>;

interface HighlightApi {
	getLanguage(name: string): object | undefined;
	registerLanguage(name: string, language: unknown): void;
	highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string };
}

const require = createRequire(import.meta.url);
let highlighter: HighlightApi | undefined;
const unavailableLanguages = new Set<string>();

/** Names code fences commonly use for highlight.js language modules. */
const LANGUAGE_ALIASES: Record<string, string> = {
	js: "javascript",
	jsx: "javascript",
	mjs: "javascript",
	cjs: "javascript",
	node: "javascript",
	ts: "typescript",
	tsx: "typescript",
	mts: "typescript",
	cts: "typescript",
	py: "python",
	python3: "python",
	sh: "bash",
	shell: "bash",
	zsh: "bash",
	console: "bash",
	rb: "ruby",
	rs: "rust",
	yml: "yaml",
	md: "markdown",
	html: "xml",
	xhtml: "xml",
	svg: "xml",
	vue: "xml",
	svelte: "xml",
	"c++": "cpp",
	cc: "cpp",
	hpp: "cpp",
	cxx: "cpp",
	h: "c",
	cs: "csharp",
	"c#": "csharp",
	kt: "kotlin",
	kts: "kotlin",
	golang: "go",
	ps1: "powershell",
	pwsh: "powershell",
	make: "makefile",
	mk: "makefile",
	jsonc: "json",
	json5: "json",
	proto: "protobuf",
	objc: "objectivec",
	"objective-c": "objectivec",
	pl: "perl",
	ex: "elixir",
	exs: "elixir",
	erl: "erlang",
	hs: "haskell",
	ml: "ocaml",
	fs: "fsharp",
	vb: "vbnet",
	bat: "dos",
	cmd: "dos",
	tex: "latex",
	patch: "diff",
	toml: "ini",
	gql: "graphql",
	text: "plaintext",
	txt: "plaintext",
	docker: "dockerfile",
};

/**
 * highlight.js with only the languages actually used: loading all ~190 grammars at startup costs
 * ~200 ms, so the core is loaded on the first code block and each grammar on first use.
 */
function loadLanguage(lang: string): { api: HighlightApi; language: string } | undefined {
	const name = LANGUAGE_ALIASES[lang.toLowerCase()] ?? lang.toLowerCase();
	if (!/^[a-z0-9_-]+$/.test(name) || unavailableLanguages.has(name)) return undefined;
	try {
		highlighter ??= require("highlight.js/lib/core") as HighlightApi;
		if (!highlighter.getLanguage(name)) {
			highlighter.registerLanguage(name, require(`highlight.js/lib/languages/${name}`));
		}
		return { api: highlighter, language: name };
	} catch {
		unavailableLanguages.add(name);
		return undefined;
	}
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };

function decodeEntities(text: string): string {
	return text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name] ?? "");
}

function scopeOf(classAttribute: string): string {
	// "hljs-title function_" → "title.function"
	const [main, ...extra] = classAttribute.split(/\s+/);
	const base = main.replace(/^hljs-/, "");
	const modifiers = extra.map((part) => part.replace(/_+$/, "")).filter(Boolean);
	return modifiers.length > 0 ? `${base}.${modifiers.join(".")}` : base;
}

function styleForScopes(scopes: readonly string[], theme: SyntaxTheme): StyleFn | undefined {
	for (let i = scopes.length - 1; i >= 0; i--) {
		let scope = scopes[i];
		while (scope) {
			const style = theme[scope];
			if (style) return style;
			const dot = scope.lastIndexOf(".");
			scope = dot === -1 ? "" : scope.slice(0, dot);
		}
	}
	return undefined;
}

/** Converts highlight.js HTML output to one ANSI-styled string per line. */
function htmlToStyledLines(html: string, theme: SyntaxTheme): string[] {
	const lines: string[] = [];
	let current = "";
	const scopes: string[] = [];
	const emit = (text: string) => {
		if (text.length === 0) return;
		const style = styleForScopes(scopes, theme);
		current += style ? style(text) : text;
	};
	const pattern = /<span class="([^"]*)">|<\/span>|([^<]+)/g;
	for (let match = pattern.exec(html); match !== null; match = pattern.exec(html)) {
		if (match[1] !== undefined) scopes.push(scopeOf(match[1]));
		else if (match[2] !== undefined) {
			const parts = decodeEntities(match[2]).split("\n");
			parts.forEach((part, index) => {
				if (index > 0) {
					lines.push(current);
					current = "";
				}
				emit(part);
			});
		} else scopes.pop();
	}
	lines.push(current);
	return lines;
}

/**
 * Highlights `code` as `lang` with highlight.js, styled by `theme`. Unknown or missing languages give
 * the plain lines back.
 */
export function highlightCode(code: string, lang: string | undefined, theme: SyntaxTheme): string[] {
	const loaded = lang ? loadLanguage(lang) : undefined;
	if (!loaded) return code.split("\n");
	try {
		const { value } = loaded.api.highlight(code, { language: loaded.language, ignoreIllegals: true });
		return htmlToStyledLines(value, theme);
	} catch {
		return code.split("\n");
	}
}

/** A `highlightCode` function for a MarkdownTheme. */
export function createSyntaxHighlighter(theme: SyntaxTheme): (code: string, lang?: string) => string[] {
	return (code, lang) => highlightCode(code, lang, theme);
}
