import type { Tool as WireTool, ToolChoice as WireToolChoice } from "@anthropic-ai/sdk/resources/messages";
import type { AnthropicOptions, Tool } from "../../types.js";

interface ObjectSchemaParts {
	properties?: unknown;
	required?: string[];
}

/** Each tool's JSON schema is sent as an object schema of its `properties` and `required`. */
export function convertTools(tools: Tool[], toWireToolName: (name: string) => string = (name) => name): WireTool[] {
	return tools.map((tool) => {
		const schema = tool.parameters as ObjectSchemaParts;
		return {
			name: toWireToolName(tool.name),
			description: tool.description,
			input_schema: { type: "object", properties: schema.properties || {}, required: schema.required || [] },
		};
	});
}

/** `"auto" | "any" | "none"` become `{type}`; `{type:"tool", name}` is passed through. */
export function convertToolChoice(
	choice: NonNullable<AnthropicOptions["toolChoice"]>,
	toWireToolName: (name: string) => string = (name) => name,
): WireToolChoice {
	if (typeof choice === "string") return { type: choice };
	return { type: "tool", name: toWireToolName(choice.name) };
}
