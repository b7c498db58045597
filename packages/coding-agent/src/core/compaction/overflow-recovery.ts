// Ours: recovering from a context overflow the provider reported but our estimate did not see (a local server
// with a smaller real window, a wrong `contextWindow` in models.json, a tokenizer that counts more than chars/4).
// The reference compacted with the usual budget, found "nothing to compact", and the run ended. Here the error's
// own figures decide the budget: the window it states, and how far our estimate was off. Pure.
import type { CompactionSettings } from "../config/settings-schema.js";

/** What an overflow error says about the window, as far as it says anything. */
export interface ContextOverflowLimits {
	/** The model's real window (or input limit), in tokens. */
	contextWindow?: number;
	/** The tokens the request had, by the provider's count. */
	requestedTokens?: number;
}

// A number as providers print it: `131072`, `128,000`, `128_000`.
const N = String.raw`(\d{1,3}(?:[,_]\d{3})+|\d+)`;

/**
 * The overflow texts `@agent/ai` recognises (utils/overflow.ts) that carry figures, with which group is the window
 * and which the request. Texts without figures (Bedrock, Groq, OpenAI's "exceeds the context window", LM Studio,
 * z.ai, MiniMax's error code) give nothing.
 */
const LIMIT_PATTERNS: readonly { pattern: RegExp; window: number; requested?: number }[] = [
	// (LM Studio's recognised text, "greater than the context length", has no figures.)
	// Anthropic: prompt is too long: 213462 tokens > 200000 maximum
	{ pattern: new RegExp(String.raw`prompt is too long:\s*${N} tokens?\s*>\s*${N}`, "i"), window: 2, requested: 1 },
	// Anthropic: input length and `max_tokens` exceed context limit: 195000 + 16000 > 200000
	{
		pattern: new RegExp(String.raw`exceed context limit:\s*${N}\s*\+\s*${N}\s*>\s*${N}`, "i"),
		window: 3,
		requested: 1,
	},
	// Google: The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)
	{
		pattern: new RegExp(String.raw`input token count\D{0,20}${N}\D{0,80}?maximum[^\d]{0,60}${N}`, "i"),
		window: 2,
		requested: 1,
	},
	// xAI: This model's maximum prompt length is 131072 but the request contains 537812 tokens
	{
		pattern: new RegExp(String.raw`maximum prompt length is ${N}(?:\D{0,40}?contains ${N})?`, "i"),
		window: 1,
		requested: 2,
	},
	// OpenRouter, vLLM, OpenAI (older): maximum context length is 8192 tokens. However, you requested 9000 tokens
	{
		pattern: new RegExp(
			String.raw`maximum context length is ${N} tokens(?:\D{0,60}?(?:requested(?: about)?|resulted in) ${N})?`,
			"i",
		),
		window: 1,
		requested: 2,
	},
	// Copilot: prompt token count of 13000 exceeds the limit of 12288
	{
		pattern: new RegExp(String.raw`(?:token count of ${N}\D{0,20})?exceeds the limit of ${N}`, "i"),
		window: 2,
		requested: 1,
	},
	// llama.cpp: request (4512 tokens) exceeds the available context size (4096 tokens)
	{
		pattern: new RegExp(String.raw`(?:\(${N} tokens\)\s*)?exceeds the available context size\s*\(${N}`, "i"),
		window: 2,
		requested: 1,
	},
	// Kimi: Your request exceeded model token limit: 262144 (requested: 291351)
	{
		pattern: new RegExp(String.raw`exceeded model token limit:?\s*${N}(?:\s*\(requested:?\s*${N})?`, "i"),
		window: 1,
		requested: 2,
	},
	// Mistral: Prompt contains 170000 tokens and 0 draft tokens, too large for model with 131072 maximum context length
	{
		pattern: new RegExp(String.raw`(?:contains ${N} tokens[\s\S]{0,60}?)?too large for model with ${N}`, "i"),
		window: 2,
		requested: 1,
	},
];

function tokenCount(text: string | undefined): number | undefined {
	if (text === undefined) return undefined;
	const value = Number(text.replace(/[,_]/g, ""));
	return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** The window (and the request's size) an overflow error states; `{}` when it states neither. */
export function parseContextOverflowLimits(errorMessage: string): ContextOverflowLimits {
	for (const { pattern, window, requested } of LIMIT_PATTERNS) {
		const match = pattern.exec(errorMessage);
		if (!match) continue;
		const contextWindow = tokenCount(match[window]);
		if (contextWindow === undefined) continue;
		const requestedTokens = requested === undefined ? undefined : tokenCount(match[requested]);
		return { contextWindow, ...(requestedTokens !== undefined ? { requestedTokens } : {}) };
	}
	return {};
}

/** Share of a learned window the kept messages may take, and the reserve for the reply (and the summary). */
const KEEP_SHARE_OF_WINDOW = 0.25;
const RESERVE_SHARE_OF_WINDOW = 0.25;

export interface OverflowCompactionInput {
	/** The window compaction worked with until now: a learned one, else the model's. */
	currentWindow: number;
	limits: ContextOverflowLimits;
	/** Our estimate of the context that overflowed (`estimateContextTokens`). */
	estimatedTokens: number;
	settings: Required<CompactionSettings>;
	/** The budget of the previous overflow compaction in this session, if any. */
	previousKeepTokens?: number;
}

export interface OverflowCompactionPlan {
	/** The window the error states (never more than the current one): to use for the rest of the session. */
	contextWindow?: number;
	/** The compaction settings for the recovery. */
	settings: Required<CompactionSettings>;
}

/**
 * The budget for the compaction that recovers from an overflow, and the window to believe from then on. With a
 * stated window, the kept part takes at most a quarter of it, scaled down by how much more the provider counted
 * than we estimated. Without one, nothing is learned about the window, but the kept part is at most a quarter of
 * what overflowed (and of the current window) and at most half of the previous recovery's budget, so repeated
 * overflows cut ever deeper.
 */
export function planOverflowCompaction(input: OverflowCompactionInput): OverflowCompactionPlan {
	const { limits, settings } = input;
	const stated = limits.contextWindow === undefined ? undefined : Math.min(input.currentWindow, limits.contextWindow);
	const window = stated ?? input.currentWindow;
	let keepRecentTokens: number;
	if (stated !== undefined) {
		// How many tokens the provider counts for one of ours (never taken as less than 1).
		const undercount =
			limits.requestedTokens !== undefined && input.estimatedTokens > 0
				? Math.max(1, limits.requestedTokens / input.estimatedTokens)
				: 1;
		keepRecentTokens = Math.floor((stated * KEEP_SHARE_OF_WINDOW) / undercount);
	} else {
		keepRecentTokens = Math.floor(Math.min(window, Math.max(0, input.estimatedTokens)) * KEEP_SHARE_OF_WINDOW);
		if (input.previousKeepTokens !== undefined) {
			keepRecentTokens = Math.min(keepRecentTokens, Math.floor(input.previousKeepTokens / 2));
		}
	}
	return {
		...(stated !== undefined ? { contextWindow: Math.max(1, stated) } : {}),
		settings: {
			...settings,
			keepRecentTokens: Math.max(1, Math.min(settings.keepRecentTokens, keepRecentTokens)),
			reserveTokens: Math.max(1, Math.min(settings.reserveTokens, Math.floor(window * RESERVE_SHARE_OF_WINDOW))),
		},
	};
}

/** Compaction settings for a window learned from an overflow: reserve and kept part sized to fit it. */
export function compactionSettingsForWindow(
	settings: Required<CompactionSettings>,
	contextWindow: number,
): Required<CompactionSettings> {
	return {
		...settings,
		keepRecentTokens: Math.max(
			1,
			Math.min(settings.keepRecentTokens, Math.floor(contextWindow * KEEP_SHARE_OF_WINDOW)),
		),
		reserveTokens: Math.max(1, Math.min(settings.reserveTokens, Math.floor(contextWindow * RESERVE_SHARE_OF_WINDOW))),
	};
}
