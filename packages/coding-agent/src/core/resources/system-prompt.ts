import { APP_NAME } from "../../config.js";
import type { ContextFile } from "./context-files.js";
import { getDocsPath, getExamplesPath, getReadmePath } from "./package-docs.js";
import { formatSkillsForPrompt } from "./skill-prompt.js";
import type { Skill } from "./skills.js";

/** One-line descriptions of the built-in tools for the "Available tools" list. */
export const BUILTIN_TOOL_SNIPPETS: Readonly<Record<string, string>> = {
	read: "Read file contents",
	bash: "Execute bash commands (ls, grep, find, etc.)",
	edit: "Make surgical edits to files (find exact text and replace)",
	write: "Create or overwrite files",
	grep: "Search file contents for patterns (respects .gitignore)",
	find: "Find files by glob pattern (respects .gitignore)",
	ls: "List directory contents",
};

export const DEFAULT_PROMPT_TOOLS: readonly string[] = ["read", "bash", "edit", "write"];

export interface DocumentationPaths {
	readmePath: string;
	docsPath: string;
	examplesPath: string;
}

export interface BuildSystemPromptOptions {
	/** Replaces the default prompt (SYSTEM.md / --system-prompt). */
	customPrompt?: string;
	/** Active tool names, in order. Default: read, bash, edit, write. */
	selectedTools?: string[];
	/** One-line descriptions for tools without a built-in one-liner. */
	toolSnippets?: Record<string, string>;
	/** Extra guideline bullets (from custom tools). */
	promptGuidelines?: string[];
	/** APPEND_SYSTEM.md / --append-system-prompt. */
	appendSystemPrompt?: string;
	/** Default: `process.cwd()`. */
	cwd?: string;
	contextFiles?: ContextFile[];
	skills?: Skill[];
	/**
	 * The day, `YYYY-MM-DD` (default: today in UTC). Only the day: anything that changes within a day would
	 * change the prompt between requests and defeat the providers' prompt caching.
	 */
	date?: string;
	/** Where the documentation pointers point. Default: README.md, docs/ and examples/ of the installed package. */
	documentation?: DocumentationPaths;
}

function buildGuidelines(tools: readonly string[], extraGuidelines: readonly string[]): string[] {
	const has = (name: string) => tools.includes(name);
	const hasExplorationTool = has("grep") || has("find") || has("ls");
	const guidelines: string[] = [];
	if (has("bash") && !hasExplorationTool) {
		guidelines.push("Use bash for file operations like ls, rg, find");
	} else if (has("bash") && hasExplorationTool) {
		guidelines.push("Prefer grep/find/ls tools over bash for file exploration (faster, respects .gitignore)");
	}
	if (has("read") && has("edit")) {
		guidelines.push("Use read to examine files before editing. You must use this tool instead of cat or sed.");
	}
	if (has("edit")) guidelines.push("Use edit for precise changes (old text must match exactly)");
	if (has("write")) guidelines.push("Use write only for new files or complete rewrites");
	if (has("edit") || has("write")) {
		guidelines.push(
			"When summarizing your actions, output plain text directly - do NOT use cat or bash to display what you did",
		);
	}
	for (const guideline of extraGuidelines) {
		const trimmed = guideline.trim();
		if (trimmed) guidelines.push(trimmed);
	}
	guidelines.push("Be concise in your responses");
	guidelines.push("Show file paths clearly when working with files");
	return [...new Set(guidelines)];
}

function formatDocumentationPointers(paths: DocumentationPaths): string {
	return [
		`Documentation for ${APP_NAME} (read only when the user asks about ${APP_NAME} itself: its SDK, extensions, themes, skills, or TUI):`,
		`- Overview: ${paths.readmePath}`,
		`- Docs: ${paths.docsPath}`,
		`- Examples: ${paths.examplesPath}`,
		"- Topics: extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md), skills (docs/skills.md), prompt templates (docs/prompt-templates.md), TUI (docs/tui.md), keybindings (docs/keybindings.md), SDK (docs/sdk.md), custom providers (docs/custom-provider.md), models (docs/models.md), packages (docs/packages.md)",
		"- Read the relevant docs and examples completely before implementing",
		"- Follow the cross-references between .md files",
	].join("\n");
}

function formatDefaultPrompt(options: BuildSystemPromptOptions, tools: readonly string[]): string {
	const toolsList =
		tools.length === 0
			? "(none)"
			: tools
					.map((name) => `- ${name}: ${options.toolSnippets?.[name] ?? BUILTIN_TOOL_SNIPPETS[name] ?? name}`)
					.join("\n");
	const guidelines = buildGuidelines(tools, options.promptGuidelines ?? [])
		.map((guideline) => `- ${guideline}`)
		.join("\n");
	const documentation = options.documentation ?? {
		readmePath: getReadmePath(),
		docsPath: getDocsPath(),
		examplesPath: getExamplesPath(),
	};
	return `You are an expert coding assistant operating inside ${APP_NAME}, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.

Available tools:
${toolsList}

Besides these tools, you may have other custom tools, depending on the project.

Guidelines:
${guidelines}

${formatDocumentationPointers(documentation)}`;
}

function formatContextFiles(contextFiles: readonly ContextFile[]): string {
	if (contextFiles.length === 0) return "";
	let section = "\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n";
	for (const file of contextFiles) section += `## ${file.path}\n\n${file.content}\n\n`;
	return section;
}

/**
 * The system prompt: the default prompt (identity, tools, guidelines, documentation pointers) or the custom
 * one, then the appended text, the project context files, the skills (when the model can `read` them), and
 * last the date and working directory.
 */
export function buildSystemPrompt(options: BuildSystemPromptOptions = {}): string {
	const cwd = (options.cwd ?? process.cwd()).replace(/\\/g, "/");
	const date = options.date ?? new Date().toISOString().slice(0, 10);
	const appendSection = options.appendSystemPrompt ? `\n\n${options.appendSystemPrompt}` : "";
	const skills = options.skills ?? [];

	let prompt: string;
	let canReadSkills: boolean;
	if (options.customPrompt) {
		prompt = options.customPrompt;
		canReadSkills = options.selectedTools === undefined || options.selectedTools.includes("read");
	} else {
		const tools = options.selectedTools ?? DEFAULT_PROMPT_TOOLS;
		prompt = formatDefaultPrompt(options, tools);
		canReadSkills = tools.includes("read");
	}
	prompt += appendSection;
	prompt += formatContextFiles(options.contextFiles ?? []);
	if (canReadSkills && skills.length > 0) prompt += formatSkillsForPrompt(skills);
	prompt += `\nCurrent date: ${date}`;
	prompt += `\nCurrent working directory: ${cwd}`;
	return prompt;
}
