import { parse as parseYaml, YAMLParseError } from "yaml";

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

function describeYamlError(error: unknown): FrontmatterError {
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
	let parsed: unknown;
	try {
		parsed = parseYaml(located.yaml);
	} catch (error) {
		return { frontmatter: {}, body, hasFrontmatter: true, error: describeYamlError(error) };
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

/** The body of a Markdown file without its frontmatter block (whether or not the block parses). */
export function stripFrontmatter(content: string): string {
	return parseFrontmatter(content).body;
}
