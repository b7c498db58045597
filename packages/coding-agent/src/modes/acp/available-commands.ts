// `available_commands_update`: what the editor offers after "/". Prompt templates, skills and extension
// commands are run by AgentSession.prompt itself; `compact` is handled by the ACP session. Pure.
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import type { SlashCommandInfo } from "../../core/extensions/hooks.js";

export const COMPACT_COMMAND = "compact";
/** Ours: restores the files the last turn changed (docs/checkpoints.md). */
export const UNDO_COMMAND = "undo";

const SOURCE_HINTS: Readonly<Record<SlashCommandInfo["source"], string>> = {
	prompt: "arguments for the template",
	skill: "what to do with the skill",
	extension: "arguments",
	mcp: "the prompt's arguments, in order",
};

const SOURCE_DESCRIPTIONS: Readonly<Record<SlashCommandInfo["source"], string>> = {
	prompt: "Prompt template",
	skill: "Skill",
	extension: "Extension command",
	mcp: "MCP prompt",
};

export function availableCommands(commands: readonly SlashCommandInfo[]): AvailableCommand[] {
	const listed: AvailableCommand[] = commands.map((command) => ({
		name: command.name,
		description: command.description || SOURCE_DESCRIPTIONS[command.source],
		input: { hint: SOURCE_HINTS[command.source] },
	}));
	if (!listed.some((command) => command.name === COMPACT_COMMAND)) {
		listed.push({
			name: COMPACT_COMMAND,
			description: "Summarize the conversation so far to free context",
			input: { hint: "what the summary should focus on (optional)" },
		});
	}
	if (!listed.some((command) => command.name === UNDO_COMMAND)) {
		listed.push({ name: UNDO_COMMAND, description: "Restore the files changed by the last turn", input: null });
	}
	return listed;
}

/** Whether `text` is `/undo` (nothing after it). */
export function isUndoCommand(text: string): boolean {
	return text.trim() === `/${UNDO_COMMAND}`;
}

/** `/compact [instructions]` → the instructions ("" without any); undefined for any other text. */
export function parseCompactCommand(text: string): string | undefined {
	const match = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
	return match ? (match[1] ?? "").trim() : undefined;
}
