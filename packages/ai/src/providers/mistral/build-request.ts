import type { ChatCompletionStreamRequest } from "@mistralai/mistralai/models/components";
import type { Context, MistralOptions, Model, Tool } from "../../types.js";
import { convertMessages } from "./convert-messages.js";

function convertTools(tools: readonly Tool[]): NonNullable<ChatCompletionStreamRequest["tools"]> {
	return tools.map((tool) => ({
		type: "function" as const,
		function: {
			name: tool.name,
			description: tool.description,
			// Plain JSON: the SDK validates the request with zod, which rejects TypeBox's symbol keys.
			parameters: JSON.parse(JSON.stringify(tool.parameters)) as Record<string, unknown>,
			strict: false,
		},
	}));
}

function convertToolChoice(
	choice: NonNullable<MistralOptions["toolChoice"]>,
): ChatCompletionStreamRequest["toolChoice"] {
	return typeof choice === "string" ? choice : { type: "function", function: { name: choice.function.name } };
}

/** The `chat.stream` request, before `onPayload`. */
export function buildChatRequest(
	model: Model,
	context: Context,
	options: MistralOptions | undefined,
): ChatCompletionStreamRequest {
	const request: ChatCompletionStreamRequest = {
		model: model.id,
		stream: true,
		messages: convertMessages(context.messages, model, context.systemPrompt),
	};
	if (context.tools?.length) request.tools = convertTools(context.tools);
	if (options?.temperature !== undefined) request.temperature = options.temperature;
	if (options?.maxTokens !== undefined) request.maxTokens = options.maxTokens;
	if (options?.toolChoice) request.toolChoice = convertToolChoice(options.toolChoice);
	if (options?.promptMode) request.promptMode = options.promptMode;
	return request;
}
