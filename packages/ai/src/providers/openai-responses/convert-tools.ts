import type { FunctionTool } from "openai/resources/responses/responses";
import type { Tool } from "../../types.js";

/** Function tools, non-strict: our schemas use optional fields, which strict mode forbids. */
export function convertResponsesTools(tools: readonly Tool[]): FunctionTool[] {
	return tools.map((tool) => ({
		type: "function",
		name: tool.name,
		description: tool.description,
		parameters: tool.parameters as unknown as Record<string, unknown>,
		strict: false,
	}));
}
