// Builders for message histories in tests.
import { emptyUsage } from "../../src/providers/assistant-output.js";
import type {
	Api,
	AssistantMessage,
	Model,
	StopReason,
	ToolCall,
	ToolResultMessage,
	UserMessage,
} from "../../src/types.js";

export function testModel(provider: string, api: Api, id: string): Model {
	return {
		id,
		name: id,
		api,
		provider,
		baseUrl: "http://127.0.0.1",
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 },
		contextWindow: 200_000,
		maxTokens: 32_000,
	};
}

export function user(text: string, timestamp = 1): UserMessage {
	return { role: "user", content: text, timestamp };
}

export function assistant(
	from: Pick<Model, "provider" | "api" | "id">,
	content: AssistantMessage["content"],
	stopReason: StopReason = content.some((block) => block.type === "toolCall") ? "toolUse" : "stop",
): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: from.api,
		provider: from.provider,
		model: from.id,
		usage: emptyUsage(),
		stopReason,
		...(stopReason === "error" ? { errorMessage: "boom" } : {}),
		timestamp: 2,
	};
}

export function toolCall(id: string, name = "read", extra: Partial<ToolCall> = {}): ToolCall {
	return { type: "toolCall", id, name, arguments: { path: "a.txt" }, ...extra };
}

export function toolResult(toolCallId: string, text = "ok", toolName = "read"): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError: false, timestamp: 3 };
}
