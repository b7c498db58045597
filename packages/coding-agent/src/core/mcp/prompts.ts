// MCP prompts as slash commands: `/mcp__<server>__<prompt> args` asks the server for the prompt (positional
// arguments, split like a prompt template's, fill its arguments in order; the last one takes the rest) and
// sends what it returns as the user's message.
import type { ImageContent } from "@agent/ai";
import { parseCommandArgs } from "../resources/prompt-template-expansion.js";
import type { GetPromptResult, McpPromptDefinition } from "./client-handle.js";

export interface ExpandedMcpPrompt {
	text: string;
	images: ImageContent[];
}

export function missingPromptArgumentsText(command: string, missing: readonly string[]): string {
	return `/${command} needs ${missing.length === 1 ? "the argument" : "the arguments"} ${missing.join(", ")} (in this order, after the command).`;
}

/** The prompt's arguments by name from what was typed after the command; throws naming missing required ones. */
export function promptArguments(command: string, prompt: McpPromptDefinition, typed: string): Record<string, string> {
	const declared = prompt.arguments ?? [];
	const values = parseCommandArgs(typed);
	const args: Record<string, string> = {};
	declared.forEach((argument, index) => {
		const isLast = index === declared.length - 1;
		const value = isLast ? values.slice(index).join(" ") : values[index];
		if (value !== undefined && value !== "") args[argument.name] = value;
	});
	const missing = declared.filter((argument) => argument.required && args[argument.name] === undefined);
	if (missing.length > 0)
		throw new Error(
			missingPromptArgumentsText(
				command,
				missing.map((argument) => argument.name),
			),
		);
	return args;
}

/** The messages of a prompt as one user message: their texts in order, and their images. */
export function promptResultToInput(result: GetPromptResult): ExpandedMcpPrompt {
	const texts: string[] = [];
	const images: ImageContent[] = [];
	for (const message of result.messages) {
		const content = message.content;
		if (content.type === "text") texts.push(content.text);
		else if (content.type === "image") images.push({ type: "image", data: content.data, mimeType: content.mimeType });
		else if (content.type === "resource" && "text" in content.resource && typeof content.resource.text === "string")
			texts.push(content.resource.text);
		else if (content.type === "resource_link") texts.push(content.uri);
	}
	return { text: texts.join("\n\n"), images };
}
