import type { FunctionCallingConfigMode, Tool as GoogleTool, ToolConfig } from "@google/genai";
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

/**
 * The SDK's `FunctionCallingConfigMode` values, spelled out: only the SDK's types are imported here, because
 * `buildRequest` (exported from the package entry) reaches this module and the entry must not load the SDK.
 */
const MODES = {
	auto: "AUTO",
	none: "NONE",
	any: "ANY",
} as const satisfies Record<NonNullable<GoogleOptions["toolChoice"]>, `${FunctionCallingConfigMode}`>;

export function convertToolChoice(choice: NonNullable<GoogleOptions["toolChoice"]>): ToolConfig {
	return { functionCallingConfig: { mode: MODES[choice] as FunctionCallingConfigMode } };
}
