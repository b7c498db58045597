import { createRequire } from "node:module";
import type { parse, YAMLParseError } from "yaml";

// The YAML parser (yaml, a 270 kB bundle chunk) is loaded when a file first has a frontmatter block, not with this
// module: most runs read no skill or prompt file. `prepareFrontmatterParsing()` imports it ahead of a load that
// may parse (the resource loader awaits it), as one bundled chunk; without that, the first parse requires the
// package synchronously, so it stays a dependency of this package.
interface YamlParser {
	parse: typeof parse;
	YAMLParseError: typeof YAMLParseError;
}

let yamlParser: YamlParser | undefined;
let preparing: Promise<void> | undefined;

function loadYamlParser(): YamlParser {
	yamlParser ??= createRequire(import.meta.url)("yaml") as YamlParser;
	return yamlParser;
}

/** Loads the YAML parser ahead of the first frontmatter parse. Safe to call often; never rejects. */
export function prepareFrontmatterParsing(): Promise<void> {
	preparing ??= import("yaml").then(
		(module: unknown) => {
			// A CommonJS package: the bundle's namespace has only `default` (module.exports); Node's has both.
			const exports = (module as { default?: YamlParser }).default ?? (module as YamlParser);
			yamlParser ??= { parse: exports.parse, YAMLParseError: exports.YAMLParseError };
		},
		() => {
			// The first parse requires it and reports what is wrong.
		},
	);
	return preparing;
}

/** Where and why a frontmatter block failed to parse; `line` is 1-based within the whole file. */
export interface FrontmatterError {
	message: string;
	line: number;
}

export interface ParsedFrontmatter {
	/** The YAML mapping, or `{}` when there is none or it failed to parse. */
	frontmatter: Record<string, unknown>;
	/** The text after the frontmatter (trimmed when there was a frontmatter block), LF line endings. */
	body: string;
	hasFrontmatter: boolean;
	error?: FrontmatterError;
}

// The closing fence is a line of its own; `---foo` inside the YAML does not end the block.
const CLOSING_FENCE = /\n---[ \t]*(?:\n|$)/g;

export function normalizeLineEndings(text: string): string {
	const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	return withoutBom.replace(/\r\n?/g, "\n");
}

function locateFrontmatter(text: string): { yaml: string; rest: string } | undefined {
	if (!text.startsWith("---\n")) return undefined;
	CLOSING_FENCE.lastIndex = 3;
	const closing = CLOSING_FENCE.exec(text);
	if (!closing) return undefined;
	return { yaml: text.slice(4, Math.max(4, closing.index)), rest: text.slice(closing.index + closing[0].length) };
}

function describeYamlError(error: unknown, { YAMLParseError }: YamlParser): FrontmatterError {
	if (error instanceof YAMLParseError) {
		const firstLine = error.message.split("\n")[0] ?? error.message;
		const reason = firstLine.replace(/ at line \d+, column \d+:?$/, "");
		// +1: line 1 of the file is the opening `---`.
		const line = (error.linePos?.[0]?.line ?? 1) + 1;
		return { message: `invalid YAML frontmatter at line ${line}: ${reason}`, line };
	}
	const message = error instanceof Error ? error.message : String(error);
	return { message: `invalid YAML frontmatter: ${message}`, line: 2 };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Splits a Markdown file into its YAML frontmatter (between a leading `---` line and the next `---` line)
 * and body. Never throws: a malformed block is returned as `error` with the file line it points at.
 */
export function parseFrontmatter(content: string): ParsedFrontmatter {
	const text = normalizeLineEndings(content);
	const located = locateFrontmatter(text);
	if (!located) return { frontmatter: {}, body: text, hasFrontmatter: false };
	const body = located.rest.trim();
	const yaml = loadYamlParser();
	let parsed: unknown;
	try {
		parsed = yaml.parse(located.yaml);
	} catch (error) {
		return { frontmatter: {}, body, hasFrontmatter: true, error: describeYamlError(error, yaml) };
	}
	if (parsed === null || parsed === undefined) return { frontmatter: {}, body, hasFrontmatter: true };
	if (!isPlainObject(parsed)) {
		return {
			frontmatter: {},
			body,
			hasFrontmatter: true,
			error: { message: "invalid YAML frontmatter at line 2: expected a mapping of keys to values", line: 2 },
		};
	}
	return { frontmatter: parsed, body, hasFrontmatter: true };
}

/** The body of a Markdown file without its frontmatter block (whether or not the block parses; never parses it). */
export function stripFrontmatter(content: string): string {
	const text = normalizeLineEndings(content);
	const located = locateFrontmatter(text);
	return located ? located.rest.trim() : text;
}
