// Extension tools as the agent runs them (docs/extensions.md "Tools"): an AgentTool whose `execute`
// passes a fresh ExtensionContext as the fifth argument. The prompt snippet and guidelines travel along for
// the system prompt.
import type { ExtensionTool } from "./hooks.js";
import type { ExtensionContext, ToolDefinition } from "./types.js";

export function wrapToolDefinition(definition: ToolDefinition, createContext: () => ExtensionContext): ExtensionTool {
	const tool: ExtensionTool = {
		name: definition.name,
		label: definition.label,
		description: definition.description,
		parameters: definition.parameters,
		execute: (toolCallId, params, signal, onUpdate) =>
			definition.execute(toolCallId, params, signal, onUpdate, createContext()),
	};
	if (definition.promptSnippet !== undefined) tool.promptSnippet = definition.promptSnippet;
	if (definition.promptGuidelines !== undefined) tool.promptGuidelines = definition.promptGuidelines;
	return tool;
}
