// The Chat Completions request as we send it. The SDK's param types cover OpenAI's own fields only;
// compatible servers take extras (reasoning_content, enable_thinking, cache_control, provider, ...).

export interface CacheControl {
	type: "ephemeral";
}

export interface WireTextPart {
	type: "text";
	text: string;
	cache_control?: CacheControl;
}

export interface WireImagePart {
	type: "image_url";
	image_url: { url: string };
}

export type WireContentPart = WireTextPart | WireImagePart;

export interface WireToolCall {
	id: string;
	type: "function";
	function: { name: string; arguments: string };
}

/** The delta fields compatible servers use for reasoning text; the name is kept as the thinking signature. */
export const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"] as const;
export type ReasoningField = (typeof REASONING_FIELDS)[number];

export interface WireSystemMessage {
	role: "system" | "developer";
	content: string;
}

export interface WireUserMessage {
	role: "user";
	content: string | WireContentPart[];
}

export type WireAssistantMessage = {
	role: "assistant";
	content: string | WireTextPart[] | null;
	tool_calls?: WireToolCall[];
	/** OpenRouter reasoning details (encrypted reasoning tied to tool calls), replayed verbatim. */
	reasoning_details?: unknown[];
} & Partial<Record<ReasoningField, string>>;

export interface WireToolMessage {
	role: "tool";
	tool_call_id: string;
	content: string;
	name?: string;
}

export type WireMessage = WireSystemMessage | WireUserMessage | WireAssistantMessage | WireToolMessage;

export interface WireTool {
	type: "function";
	function: { name: string; description: string; parameters: unknown; strict?: boolean };
}

export type WireToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } };

export interface CompletionsPayload {
	model: string;
	messages: WireMessage[];
	stream: true;
	stream_options?: { include_usage: boolean };
	store?: boolean;
	max_tokens?: number;
	max_completion_tokens?: number;
	temperature?: number;
	tools?: WireTool[];
	tool_choice?: WireToolChoice;
	reasoning_effort?: string;
	/** Z.ai and Qwen thinking switch. */
	enable_thinking?: boolean;
	/** Qwen served through a chat template (vLLM, SGLang). */
	chat_template_kwargs?: { enable_thinking: boolean };
	/** OpenRouter provider routing. */
	provider?: { only?: string[]; order?: string[] };
	/** Vercel AI Gateway routing. */
	providerOptions?: { gateway: { only?: string[]; order?: string[] } };
}

// --- Streamed chunks (what servers actually send; every field is optional in practice) ---

export interface WireUsage {
	prompt_tokens?: number;
	completion_tokens?: number;
	total_tokens?: number;
	prompt_tokens_details?: { cached_tokens?: number | null } | null;
	completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

export interface WireToolCallDelta {
	index?: number;
	id?: string | null;
	type?: string;
	function?: { name?: string | null; arguments?: string | null } | null;
}

export interface WireReasoningDetail {
	type?: string;
	id?: string | null;
	[key: string]: unknown;
}

export type WireDelta = {
	content?: string | null;
	refusal?: string | null;
	tool_calls?: WireToolCallDelta[] | null;
	reasoning_details?: WireReasoningDetail[] | null;
} & Partial<Record<ReasoningField, string | null>>;

export interface WireChoice {
	delta?: WireDelta | null;
	finish_reason?: string | null;
	/** Moonshot reports usage on the choice. */
	usage?: WireUsage | null;
}

export interface WireChunk {
	choices?: WireChoice[] | null;
	usage?: WireUsage | null;
}
