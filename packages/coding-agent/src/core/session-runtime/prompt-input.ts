// Reading what the user typed: extension commands, `/skill:` and `/template` expansion, `!` commands
// (docs/rpc.md "prompt"). Pure, apart from reading skill files.
import type { ImageContent, TextContent } from "@agent/ai";
import type { ExtensionCommand, SlashCommandInfo } from "../extensions/hooks.js";
import { expandPromptTemplate } from "../resources/prompt-template-expansion.js";
import type { PromptTemplate } from "../resources/prompt-templates.js";
import { expandSkillCommand } from "../resources/skill-prompt.js";
import type { Skill } from "../resources/skills.js";

export interface SlashCommandCall {
	name: string;
	/** The text after the first whitespace. */
	args: string;
}

/** `/name args` → `{name, args}`; undefined for text that does not start with `/`. */
export function parseSlashCommand(text: string): SlashCommandCall | undefined {
	if (!text.startsWith("/")) return undefined;
	const separator = text.search(/\s/);
	if (separator === -1) return { name: text.slice(1), args: "" };
	return { name: text.slice(1, separator), args: text.slice(separator + 1) };
}

export interface ExpandedPrompt {
	text: string;
	/** A `/skill:` whose file could not be read: the text was left as typed. */
	skillFailure?: { filePath: string; error: string };
}

/** `/skill:name args` first, then `/template args`; anything else is returned as it is. */
export function expandPromptText(
	text: string,
	skills: readonly Skill[],
	templates: readonly PromptTemplate[],
): ExpandedPrompt {
	const skill = expandSkillCommand(text, skills);
	if (skill.kind === "failed") return { text, skillFailure: { filePath: skill.skill.filePath, error: skill.error } };
	if (skill.kind === "expanded") return { text: skill.text };
	return { text: expandPromptTemplate(text, templates) };
}

export interface UserBashCommand {
	command: string;
	/** `!!command`: the output is shown but never sent to the model. */
	excludeFromContext: boolean;
}

/** `!command` and `!!command` as typed in an editor; undefined for other text or an empty command. */
export function parseUserBashCommand(text: string): UserBashCommand | undefined {
	if (!text.startsWith("!")) return undefined;
	const excludeFromContext = text.startsWith("!!");
	const command = text.slice(excludeFromContext ? 2 : 1).trim();
	return command ? { command, excludeFromContext } : undefined;
}

/** Text blocks joined with newlines, and the images, of extension-supplied message content. */
export function splitMessageContent(content: string | readonly (TextContent | ImageContent)[]): {
	text: string;
	images: ImageContent[];
} {
	if (typeof content === "string") return { text: content, images: [] };
	const texts: string[] = [];
	const images: ImageContent[] = [];
	for (const block of content) {
		if (block.type === "text") texts.push(block.text);
		else images.push(block);
	}
	return { text: texts.join("\n"), images };
}

/** The plain text of a user message's content (text blocks concatenated). */
export function userMessageText(content: string | readonly (TextContent | ImageContent)[]): string {
	if (typeof content === "string") return content;
	let text = "";
	for (const block of content) if (block.type === "text") text += block.text;
	return text;
}

const TEMPLATE_LOCATIONS: ReadonlySet<string> = new Set(["user", "project", "path"]);

function locationOf(source: string): SlashCommandInfo["location"] {
	return TEMPLATE_LOCATIONS.has(source) ? (source as SlashCommandInfo["location"]) : undefined;
}

/** `get_commands`: extension commands, then prompt templates, then skills, then MCP prompts. */
export function listSlashCommands(
	extensionCommands: readonly ExtensionCommand[],
	templates: readonly PromptTemplate[],
	skills: readonly Skill[],
	mcpPrompts: readonly { name: string; description?: string }[] = [],
): SlashCommandInfo[] {
	const commands: SlashCommandInfo[] = [];
	for (const command of extensionCommands) {
		commands.push({
			name: command.name,
			...(command.description ? { description: command.description } : {}),
			source: "extension",
			path: command.extensionPath,
		});
	}
	for (const template of templates) {
		const location = locationOf(template.source);
		commands.push({
			name: template.name,
			description: template.description,
			source: "prompt",
			...(location ? { location } : {}),
			path: template.filePath,
		});
	}
	for (const skill of skills) {
		const location = locationOf(skill.source);
		commands.push({
			name: `skill:${skill.name}`,
			description: skill.description,
			source: "skill",
			...(location ? { location } : {}),
			path: skill.filePath,
		});
	}
	for (const prompt of mcpPrompts) {
		commands.push({
			name: prompt.name,
			...(prompt.description ? { description: prompt.description } : {}),
			source: "mcp",
		});
	}
	return commands;
}
