// Reading the window out of a provider's overflow error, and the budget of the compaction that recovers from it.
import { type AssistantMessage, isContextOverflow } from "@agent/ai";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import {
	compactionSettingsForWindow,
	parseContextOverflowLimits,
	planOverflowCompaction,
} from "../../src/core/compaction/overflow-recovery.js";
import { DEFAULT_COMPACTION_SETTINGS } from "../../src/core/compaction/token-estimation.js";

function failedReply(errorMessage: string): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: "openai-completions",
		provider: "local",
		model: "small",
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "error",
		errorMessage,
		timestamp: 0,
	};
}

/** The overflow texts with figures, as providers write them: `requested` tokens against a `window`. */
const FORMS: readonly ((requested: number, window: number) => string)[] = [
	(r, w) => `prompt is too long: ${r} tokens > ${w} maximum`,
	(r, w) => `input length and \`max_tokens\` exceed context limit: ${r} + 16000 > ${w}, decrease input length`,
	(r, w) => `The input token count (${r}) exceeds the maximum number of tokens allowed (${w}).`,
	(r, w) => `This model's maximum prompt length is ${w} but the request contains ${r} tokens.`,
	(r, w) =>
		`This model's maximum context length is ${w} tokens. However, you requested ${r} tokens (${r - 1} in the messages, 1 in the completion).`,
	(r, w) => `This endpoint's maximum context length is ${w} tokens. However, you requested about ${r} tokens.`,
	(r, w) => `This model's maximum context length is ${w} tokens. However, your messages resulted in ${r} tokens.`,
	(r, w) => `prompt token count of ${r} exceeds the limit of ${w}`,
	(r, w) => `request (${r} tokens) exceeds the available context size (${w} tokens), try increasing it`,
	(r, w) => `Your request exceeded model token limit: ${w} (requested: ${r})`,
	(r, w) => `Prompt contains ${r} tokens and 0 draft tokens, too large for model with ${w} maximum context length`,
];

describe("the window an overflow error states", () => {
	it.each(FORMS.map((form) => [form(213462, 200000)]))("reads it, and the request's size, from %s", (text) => {
		expect(parseContextOverflowLimits(text)).toEqual({ contextWindow: 200000, requestedTokens: 213462 });
	});

	it("reads every form @agent/ai recognises as an overflow, with any figures and around any provider wrapping", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: FORMS.length - 1 }),
				fc.integer({ min: 2, max: 10_000_000 }),
				fc.integer({ min: 1, max: 10_000_000 }),
				fc.constantFrom("", "400 ", '400 {"error":{"message":"', "Error: "),
				fc.constantFrom("", '"}}', " (request id abc123)"),
				(index, requested, window, prefix, suffix) => {
					const text = `${prefix}${(FORMS[index] as (r: number, w: number) => string)(requested, window)}${suffix}`;
					// The same texts are what the overflow detection recognises.
					expect(isContextOverflow(failedReply(text))).toBe(true);
					expect(parseContextOverflowLimits(text)).toEqual({ contextWindow: window, requestedTokens: requested });
				},
			),
		);
	});

	it("reads figures written with thousands separators", () => {
		expect(
			parseContextOverflowLimits("maximum context length is 128,000 tokens. However, you requested 130,512 tokens"),
		).toEqual({ contextWindow: 128000, requestedTokens: 130512 });
	});

	it("states nothing for overflow texts without figures, and never takes an error code for a window", () => {
		for (const text of [
			"input is too long for requested model",
			"Your input exceeds the context window of this model. Please adjust your input and try again.",
			"Please reduce the length of the messages or completion.",
			"invalid params, context window exceeds limit (2013)",
			"model_context_window_exceeded",
			"400 status code (no body)",
			"the request exceeds the available context size, try increasing it",
			"The number of tokens to keep from the initial prompt is greater than the context length.",
		]) {
			expect(parseContextOverflowLimits(text)).toEqual({});
		}
	});

	it("never throws and gives only positive whole token counts, whatever the text", () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 300 }), (text) => {
				const limits = parseContextOverflowLimits(text);
				for (const value of [limits.contextWindow, limits.requestedTokens]) {
					if (value !== undefined) expect(Number.isSafeInteger(value) && value > 0).toBe(true);
				}
			}),
		);
	});
});

describe("the recovery's budget", () => {
	const settings = DEFAULT_COMPACTION_SETTINGS;

	it("fits the window the error states, scaled by how much more the provider counted than we estimated", () => {
		const plan = planOverflowCompaction({
			currentWindow: 128_000,
			limits: { contextWindow: 8192, requestedTokens: 9000 },
			estimatedTokens: 4500,
			settings,
		});
		expect(plan.contextWindow).toBe(8192);
		expect(plan.settings.keepRecentTokens).toBe(Math.floor((8192 * 0.25) / 2));
		expect(plan.settings.reserveTokens).toBe(2048);
	});

	it("without a stated window, learns no window but keeps a quarter of what overflowed, then half as much each time", () => {
		const first = planOverflowCompaction({ currentWindow: 128_000, limits: {}, estimatedTokens: 6000, settings });
		expect(first.contextWindow).toBeUndefined();
		expect(first.settings.keepRecentTokens).toBe(1500);
		const second = planOverflowCompaction({
			currentWindow: 128_000,
			limits: {},
			estimatedTokens: 5000,
			settings,
			previousKeepTokens: first.settings.keepRecentTokens,
		});
		expect(second.settings.keepRecentTokens).toBe(750);
	});

	it("always keeps less than the window, never less than one token, and never widens the window", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 2_000_000 }),
				fc.option(fc.integer({ min: 1, max: 2_000_000 }), { nil: undefined }),
				fc.option(fc.integer({ min: 1, max: 4_000_000 }), { nil: undefined }),
				fc.integer({ min: 0, max: 4_000_000 }),
				fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
				(currentWindow, stated, requested, estimatedTokens, previousKeepTokens) => {
					const plan = planOverflowCompaction({
						currentWindow,
						limits: {
							...(stated !== undefined ? { contextWindow: stated } : {}),
							...(requested !== undefined ? { requestedTokens: requested } : {}),
						},
						estimatedTokens,
						settings,
						...(previousKeepTokens !== undefined ? { previousKeepTokens } : {}),
					});
					if (stated === undefined) expect(plan.contextWindow).toBeUndefined();
					else expect(plan.contextWindow).toBe(Math.min(stated, currentWindow));
					const window = plan.contextWindow ?? currentWindow;
					expect(plan.settings.keepRecentTokens).toBeGreaterThanOrEqual(1);
					expect(plan.settings.keepRecentTokens).toBeLessThanOrEqual(settings.keepRecentTokens);
					if (window >= 4) expect(plan.settings.keepRecentTokens).toBeLessThan(window);
					if (window >= 4) expect(plan.settings.reserveTokens).toBeLessThan(window);
					if (stated === undefined && estimatedTokens >= 4) {
						expect(plan.settings.keepRecentTokens).toBeLessThan(estimatedTokens);
					}
					if (stated === undefined && previousKeepTokens !== undefined && previousKeepTokens >= 2) {
						expect(plan.settings.keepRecentTokens).toBeLessThan(previousKeepTokens);
					}
				},
			),
		);
	});

	it("sizes the settings of a learned window, leaving a large one as configured", () => {
		expect(compactionSettingsForWindow(settings, 4096)).toEqual({
			enabled: true,
			reserveTokens: 1024,
			keepRecentTokens: 1024,
		});
		expect(compactionSettingsForWindow(settings, 200_000)).toEqual(settings);
	});
});
