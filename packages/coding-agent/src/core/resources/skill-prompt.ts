import { readFileSync } from "node:fs";
import { describeError } from "./diagnostics.js";
import { stripFrontmatter } from "./frontmatter.js";
import type { Skill } from "./skills.js";

const SKILLS_PREAMBLE = [
	"\n\nThe following skills provide specialized instructions for specific tasks.",
	"Use the read tool to load a skill's file when the task matches its description.",
	"When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.",
	"",
	"<available_skills>",
];

function escapeXml(value: string): string {
	return value
		.replace(/&/g, "&amp;")
		.replace(/</g, "&lt;")
		.replace(/>/g, "&gt;")
		.replace(/"/g, "&quot;")
		.replace(/'/g, "&apos;");
}

/**
 * The system-prompt block that advertises skills (name, description, file) to the model; starts with two
 * newlines. Skills with `disableModelInvocation` are left out; with none left the result is `""`.
 */
export function formatSkillsForPrompt(skills: Skill[]): string {
	const visible = skills.filter((skill) => !skill.disableModelInvocation);
	if (visible.length === 0) return "";
	const lines = [...SKILLS_PREAMBLE];
	for (const skill of visible) {
		lines.push(
			"  <skill>",
			`    <name>${escapeXml(skill.name)}</name>`,
			`    <description>${escapeXml(skill.description)}</description>`,
			`    <location>${escapeXml(skill.filePath)}</location>`,
			"  </skill>",
		);
	}
	lines.push("</available_skills>");
	return lines.join("\n");
}

export const SKILL_COMMAND_PREFIX = "/skill:";

/** The text a `/skill:name args` message is replaced with: the skill's body wrapped in a `<skill>` block. */
export function formatSkillBlock(skill: Skill, body: string, args: string): string {
	// Attribute values are not escaped: the block is parsed back by SKILL_BLOCK_PATTERN, not by an XML parser.
	const block = `<skill name="${skill.name}" location="${skill.filePath}">\nReferences are relative to ${skill.baseDir}.\n\n${body}\n</skill>`;
	return args ? `${block}\n\n${args}` : block;
}

export type SkillExpansion =
	| { kind: "unchanged"; text: string }
	| { kind: "expanded"; text: string; skill: Skill }
	/** The skill file could not be read; `text` is the original input, to be sent as is. */
	| { kind: "failed"; text: string; skill: Skill; error: string };

/**
 * Expands `/skill:name args` into the skill's block. Text that does not start with `/skill:` or names no
 * loaded skill is returned unchanged. The name ends at the first whitespace (the reference split on a space
 * only, so `/skill:name` followed by a newline was not recognised).
 */
export function expandSkillCommand(
	text: string,
	skills: readonly Skill[],
	readFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): SkillExpansion {
	if (!text.startsWith(SKILL_COMMAND_PREFIX)) return { kind: "unchanged", text };
	const rest = text.slice(SKILL_COMMAND_PREFIX.length);
	const separator = rest.search(/\s/);
	const name = separator === -1 ? rest : rest.slice(0, separator);
	const args = separator === -1 ? "" : rest.slice(separator).trim();
	const skill = skills.find((candidate) => candidate.name === name);
	if (!skill) return { kind: "unchanged", text };
	let content: string;
	try {
		content = readFile(skill.filePath);
	} catch (error) {
		return { kind: "failed", text, skill, error: describeError(error) };
	}
	return { kind: "expanded", text: formatSkillBlock(skill, stripFrontmatter(content).trim(), args), skill };
}

/** Recognises an expanded skill block (for UIs that render it collapsed). */
export const SKILL_BLOCK_PATTERN =
	/^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]+))?$/;

export interface ParsedSkillBlock {
	name: string;
	location: string;
	content: string;
	args?: string;
}

export function parseSkillBlock(text: string): ParsedSkillBlock | undefined {
	const match = SKILL_BLOCK_PATTERN.exec(text);
	if (!match) return undefined;
	const [, name, location, content, args] = match;
	return { name: name!, location: location!, content: content!, ...(args !== undefined ? { args } : {}) };
}
