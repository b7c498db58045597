import type { AssistantMessage } from "../types.js";

const OVERFLOW_PATTERNS: readonly RegExp[] = [
	/prompt is too long/i, // Anthropic
	/input is too long for requested model/i, // Bedrock
	/exceeds the context window/i, // OpenAI
	/input token count.*exceeds the maximum/i, // Google
	/maximum prompt length is \d+/i, // xAI
	/reduce the length of the messages/i, // Groq
	/maximum context length is \d+ tokens/i, // OpenRouter
	/exceeds the limit of \d+/i, // Copilot
	/exceeds the available context size/i, // llama.cpp
	/greater than the context length/i, // LM Studio
	/context window exceeds limit/i, // MiniMax
	/exceeded model token limit/i, // Kimi
	/too large for model with \d+ maximum context length/i, // Mistral
	/model_context_window_exceeded/i, // z.ai
	/context[_ ]length[_ ]exceeded/i,
	/too many tokens/i,
	/token limit exceeded/i,
	// Ours adds: Anthropic's answer when input plus max_tokens exceeds the window (compaction fixes it too).
	/input length and `max_tokens` exceed context limit/i,
];

// Cerebras answers an oversized request with a bare 400/413 and no body.
const NO_BODY_STATUS = /^4(00|13)\s*(status code)?\s*\(no body\)/i;

// Rate limits are never overflow, even when their text matches a generic pattern (Cerebras' 429 says
// "too many tokens" for its per-minute token quota): compacting the context would not help, waiting does.
// Status forms as the SDKs print them: `429 {...}` / `429 status code`, `got status: 429`, `"code":429`.
const RATE_LIMIT = [
	/^429\b/,
	/\bstatus:? 429\b/i,
	/"code":\s*429\b/,
	/rate[ _-]?limit/i,
	/too many requests/i,
	/resource[ _]exhausted/i,
	/tokens per (min|minute|day)\b/i,
];

/** A copy of the patterns that mark a provider error as a context overflow. */
export function getOverflowPatterns(): RegExp[] {
	return OVERFLOW_PATTERNS.map((pattern) => new RegExp(pattern.source, pattern.flags));
}

/**
 * True when the reply failed because the context was too large, either reported by the provider
 * or (when `contextWindow` is given) silently, by a successful reply whose input exceeds the window.
 * Rate limits (429) are never overflow.
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
	if (message.stopReason === "error") {
		const text = message.errorMessage ?? "";
		if (RATE_LIMIT.some((pattern) => pattern.test(text))) return false;
		return OVERFLOW_PATTERNS.some((pattern) => pattern.test(text)) || NO_BODY_STATUS.test(text);
	}
	if (contextWindow !== undefined && message.stopReason === "stop") {
		return message.usage.input + message.usage.cacheRead > contextWindow;
	}
	return false;
}
