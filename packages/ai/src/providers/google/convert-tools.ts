import { FunctionCallingConfigMode, type Tool as GoogleTool, type ToolConfig } from "@google/genai";
import type { GoogleOptions, Tool } from "../../types.js";

/** All tools as one `functionDeclarations` list; the TypeBox schema is sent as JSON Schema as it is. */
export function convertTools(tools: Tool[]): GoogleTool[] {
	return [
		{
			functionDeclarations: tools.map((tool) => ({
				name: tool.name,
				description: tool.description,
				parametersJsonSchema: tool.parameters,
			})),
		},
	];
}

const MODES: Record<NonNullable<GoogleOptions["toolChoice"]>, FunctionCallingConfigMode> = {
	auto: FunctionCallingConfigMode.AUTO,
	none: FunctionCallingConfigMode.NONE,
	any: FunctionCallingConfigMode.ANY,
};

export function convertToolChoice(choice: NonNullable<GoogleOptions["toolChoice"]>): ToolConfig {
	return { functionCallingConfig: { mode: MODES[choice] } };
}
