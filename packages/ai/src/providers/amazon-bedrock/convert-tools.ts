import type {
	Tool as BedrockTool,
	ToolChoice as BedrockToolChoice,
	ToolConfiguration,
} from "@aws-sdk/client-bedrock-runtime";
import type { BedrockOptions, Tool } from "../../types.js";

/** The SDK's JSON document type (`@smithy/types` DocumentType), as the tool spec declares it. */
type DocumentType = NonNullable<NonNullable<BedrockTool.ToolSpecMember["toolSpec"]["inputSchema"]>["json"]>;

/** Tools as `toolSpec`s with their JSON Schema; none at all when there are none or the choice is `none`. */
export function convertToolConfig(
	tools: readonly Tool[] | undefined,
	choice: BedrockOptions["toolChoice"],
): ToolConfiguration | undefined {
	if (!tools?.length || choice === "none") return undefined;
	const specs: BedrockTool[] = tools.map(
		(tool): BedrockTool => ({
			toolSpec: {
				name: tool.name,
				description: tool.description,
				inputSchema: { json: tool.parameters as unknown as DocumentType },
			},
		}),
	);
	let toolChoice: BedrockToolChoice | undefined;
	if (choice === "auto") toolChoice = { auto: {} };
	else if (choice === "any") toolChoice = { any: {} };
	else if (typeof choice === "object") toolChoice = { tool: { name: choice.name } };
	return toolChoice ? { tools: specs, toolChoice } : { tools: specs };
}
