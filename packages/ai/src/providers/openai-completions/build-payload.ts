import type {
	Context,
	Message,
	Model,
	OpenAICompletionsOptions,
	OpenRouterRouting,
	VercelGatewayRouting,
} from "../../types.js";
import { resolveCacheRetention } from "../simple-options.js";
import type { ResolvedCompletionsCompat } from "./compat.js";
import { convertCompletionsMessages } from "./convert-messages.js";
import { convertCompletionsTools } from "./convert-tools.js";
import type { CompletionsPayload, WireMessage, WireTextPart } from "./wire-types.js";

function hasToolHistory(messages: readonly Message[]): boolean {
	return messages.some(
		(m) => m.role === "toolResult" || (m.role === "assistant" && m.content.some((b) => b.type === "toolCall")),
	);
}

function hasRouting(routing: OpenRouterRouting | VercelGatewayRouting): boolean {
	return (routing.only?.length ?? 0) > 0 || (routing.order?.length ?? 0) > 0;
}

function isOpenRouter(model: Model): boolean {
	return model.baseUrl.includes("openrouter.ai");
}

/**
 * OpenRouter passes `cache_control` through to Anthropic models; the breakpoint goes on the last text
 * part of the latest user or assistant message, so the whole conversation so far is cached. The marked
 * message is replaced by a copy: wire messages may be shared with earlier requests.
 */
function addOpenRouterCacheBreakpoint(messages: WireMessage[]): void {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i];
		if (message.role !== "user" && message.role !== "assistant") continue;
		if (typeof message.content === "string") {
			if (message.content === "") continue;
			const part: WireTextPart = { type: "text", text: message.content, cache_control: { type: "ephemeral" } };
			messages[i] = { ...message, content: [part] } as WireMessage;
			return;
		}
		const parts = message.content ?? [];
		for (let j = parts.length - 1; j >= 0; j--) {
			const part = parts[j];
			if (part.type === "text") {
				const marked = parts.map((p, k) => (k === j ? { ...part, cache_control: { type: "ephemeral" } } : p));
				messages[i] = { ...message, content: marked } as WireMessage;
				return;
			}
		}
	}
}

function addReasoning(
	payload: CompletionsPayload,
	model: Model,
	options: OpenAICompletionsOptions | undefined,
	compat: ResolvedCompletionsCompat,
): void {
	const effort = options?.reasoningEffort;
	if ((compat.thinkingFormat === "zai" || compat.thinkingFormat === "qwen") && model.reasoning) {
		payload.enable_thinking = !!effort;
	} else if (compat.thinkingFormat === "qwen-chat-template" && model.reasoning) {
		payload.chat_template_kwargs = { enable_thinking: !!effort };
	} else if (effort && model.reasoning && compat.supportsReasoningEffort) {
		payload.reasoning_effort = compat.reasoningEffortMap[effort] ?? effort;
	}
}

/**
 * The Chat Completions request body. With `reuseConversions` its wire messages are shared with earlier and later
 * requests (convert-messages.ts), so the payload must not be changed after this returns.
 */
export function buildCompletionsPayload(
	model: Model<"openai-completions">,
	context: Context,
	options: OpenAICompletionsOptions | undefined,
	compat: ResolvedCompletionsCompat,
	{ reuseConversions = false }: { reuseConversions?: boolean } = {},
): CompletionsPayload {
	const payload: CompletionsPayload = {
		model: model.id,
		messages: convertCompletionsMessages(model, context, compat, { reuseConversions }),
		stream: true,
	};
	if (compat.supportsUsageInStreaming) payload.stream_options = { include_usage: true };
	if (compat.supportsStore) payload.store = false;
	if (options?.maxTokens) payload[compat.maxTokensField] = options.maxTokens;
	if (options?.temperature !== undefined) payload.temperature = options.temperature;

	if (context.tools && context.tools.length > 0) {
		payload.tools = convertCompletionsTools(context.tools, compat);
	} else if (hasToolHistory(context.messages)) {
		// Proxies in front of Anthropic reject tool calls in the history unless tools are declared.
		payload.tools = [];
	}
	if (options?.toolChoice) payload.tool_choice = options.toolChoice;
	addReasoning(payload, model, options, compat);

	if (isOpenRouter(model)) {
		if (hasRouting(compat.openRouterRouting)) payload.provider = compat.openRouterRouting;
		// Decision (the reference is silent): retention "none" means no cache markers, as for Anthropic itself.
		if (model.id.startsWith("anthropic/") && resolveCacheRetention(options?.cacheRetention) !== "none") {
			addOpenRouterCacheBreakpoint(payload.messages);
		}
	}
	if (model.baseUrl.includes("ai-gateway.vercel.sh") && hasRouting(compat.vercelGatewayRouting)) {
		payload.providerOptions = { gateway: compat.vercelGatewayRouting };
	}
	return payload;
}
