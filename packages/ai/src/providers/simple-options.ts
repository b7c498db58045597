import type { Model, SimpleStreamOptions, StreamOptions, ThinkingBudgets, ThinkingLevel } from "../types.js";

export const DEFAULT_THINKING_BUDGETS: Required<ThinkingBudgets> = {
	minimal: 1024,
	low: 2048,
	medium: 8192,
	high: 16384,
};

/** The options every `streamSimple` passes on: maxTokens defaulted, everything else unchanged. */
export function buildBaseOptions(
	model: Model,
	options: SimpleStreamOptions | undefined,
	apiKey: string,
): StreamOptions {
	return {
		temperature: options?.temperature,
		maxTokens: options?.maxTokens || Math.min(model.maxTokens, 32000),
		signal: options?.signal,
		apiKey,
		transport: options?.transport,
		cacheRetention: options?.cacheRetention,
		sessionId: options?.sessionId,
		onPayload: options?.onPayload,
		headers: options?.headers,
		maxRetryDelayMs: options?.maxRetryDelayMs,
		metadata: options?.metadata,
		maxReplyBytes: options?.maxReplyBytes,
		replyTimeoutMs: options?.replyTimeoutMs,
	};
}

/** `xhigh` becomes `high`; other levels pass through. */
export function clampReasoning(level: ThinkingLevel | undefined): Exclude<ThinkingLevel, "xhigh"> | undefined {
	return level === "xhigh" ? "high" : level;
}

/**
 * Budget-based thinking: adds the level's budget to the output allowance (capped by the model),
 * and shrinks the budget when the cap leaves no room for an answer.
 */
export function adjustMaxTokensForThinking(
	baseMaxTokens: number,
	modelMaxTokens: number,
	level: ThinkingLevel,
	customBudgets?: ThinkingBudgets,
): { maxTokens: number; thinkingBudget: number } {
	const clamped = clampReasoning(level) ?? "medium";
	const budgets = { ...DEFAULT_THINKING_BUDGETS, ...customBudgets };
	let thinkingBudget = budgets[clamped];
	const maxTokens = Math.min(baseMaxTokens + thinkingBudget, modelMaxTokens);
	if (maxTokens <= thinkingBudget) thinkingBudget = Math.max(0, maxTokens - 1024);
	return { maxTokens, thinkingBudget };
}

/** Extended prompt caching is opted into by env AGENT_CACHE_RETENTION=long; "short" otherwise. */
export function resolveCacheRetention(
	retention: StreamOptions["cacheRetention"],
): NonNullable<StreamOptions["cacheRetention"]> {
	if (retention) return retention;
	return process.env.AGENT_CACHE_RETENTION === "long" ? "long" : "short";
}
