import { describe, expect, it } from "vitest";
import {
	adjustMaxTokensForThinking,
	buildBaseOptions,
	clampReasoning,
	DEFAULT_THINKING_BUDGETS,
	getModel,
	type Model,
	type SimpleStreamOptions,
} from "../src/index.js";
import { resolveCacheRetention } from "../src/providers/simple-options.js";
import { testModel } from "./helpers/messages.js";

function withMaxTokens(maxTokens: number): Model {
	return { ...testModel("anthropic", "anthropic-messages", "claude-sonnet-4-5"), maxTokens };
}

describe("buildBaseOptions", () => {
	it("defaults maxTokens to the model's limit capped at 32000", () => {
		expect(buildBaseOptions(withMaxTokens(128_000), undefined, "k").maxTokens).toBe(32_000);
		expect(buildBaseOptions(withMaxTokens(8192), {}, "k").maxTokens).toBe(8192);
	});

	it("keeps the caller's maxTokens, even above the cap", () => {
		expect(buildBaseOptions(withMaxTokens(128_000), { maxTokens: 64_000 }, "k").maxTokens).toBe(64_000);
	});

	it("treats maxTokens 0 as unset", () => {
		expect(buildBaseOptions(withMaxTokens(4096), { maxTokens: 0 }, "k").maxTokens).toBe(4096);
	});

	it("passes every other option through and sets the resolved key", () => {
		const signal = new AbortController().signal;
		const onPayload = () => undefined;
		const options: SimpleStreamOptions = {
			temperature: 0.2,
			signal,
			apiKey: "ignored-in-favour-of-resolved",
			transport: "sse",
			cacheRetention: "long",
			sessionId: "s1",
			onPayload,
			headers: { "x-a": "1" },
			maxRetryDelayMs: 0,
			metadata: { user_id: "u" },
			maxReplyBytes: 1024,
			replyTimeoutMs: 500,
			reasoning: "high",
		};
		expect(buildBaseOptions(withMaxTokens(1000), options, "resolved")).toEqual({
			temperature: 0.2,
			maxTokens: 1000,
			signal,
			apiKey: "resolved",
			transport: "sse",
			cacheRetention: "long",
			sessionId: "s1",
			onPayload,
			headers: { "x-a": "1" },
			maxRetryDelayMs: 0,
			metadata: { user_id: "u" },
			maxReplyBytes: 1024,
			replyTimeoutMs: 500,
		});
	});
});

describe("clampReasoning", () => {
	it("maps xhigh to high and leaves the other levels alone", () => {
		expect(clampReasoning("xhigh")).toBe("high");
		for (const level of ["minimal", "low", "medium", "high"] as const) expect(clampReasoning(level)).toBe(level);
		expect(clampReasoning(undefined)).toBeUndefined();
	});
});

describe("adjustMaxTokensForThinking", () => {
	it("uses the default budgets 1024 / 2048 / 8192 / 16384", () => {
		expect(DEFAULT_THINKING_BUDGETS).toEqual({ minimal: 1024, low: 2048, medium: 8192, high: 16384 });
	});

	it.each([
		// base, model max, level, expected maxTokens, expected budget
		[32_000, 64_000, "minimal", 33_024, 1024],
		[32_000, 64_000, "low", 34_048, 2048],
		[32_000, 64_000, "medium", 40_192, 8192],
		[32_000, 64_000, "high", 48_384, 16_384],
		[32_000, 64_000, "xhigh", 48_384, 16_384],
		// The model's limit caps the sum; the budget still fits below it.
		[32_000, 40_000, "high", 40_000, 16_384],
		// Budget shrink: the cap leaves no room beyond the budget, so the budget becomes cap - 1024.
		[8192, 8192, "medium", 8192, 7168],
		[4096, 8000, "high", 8000, 6976],
		// A cap below 1024 leaves no thinking budget at all.
		[512, 800, "minimal", 800, 0],
	] as const)(
		"base %i, model max %i, %s gives maxTokens %i and budget %i",
		(base, modelMax, level, maxTokens, budget) => {
			expect(adjustMaxTokensForThinking(base, modelMax, level)).toEqual({ maxTokens, thinkingBudget: budget });
		},
	);

	it("uses custom budgets for the levels they set and defaults for the rest", () => {
		expect(adjustMaxTokensForThinking(10_000, 100_000, "high", { high: 30_000 })).toEqual({
			maxTokens: 40_000,
			thinkingBudget: 30_000,
		});
		expect(adjustMaxTokensForThinking(10_000, 100_000, "low", { high: 30_000 })).toEqual({
			maxTokens: 12_048,
			thinkingBudget: 2048,
		});
	});

	it("leaves room for an answer with a catalog model's real limits", () => {
		const haiku = getModel("anthropic", "claude-3-5-haiku-latest");
		if (!haiku) throw new Error("catalog lacks claude-3-5-haiku-latest");
		const { maxTokens, thinkingBudget } = adjustMaxTokensForThinking(haiku.maxTokens, haiku.maxTokens, "high");
		expect(maxTokens).toBe(8192);
		expect(maxTokens - thinkingBudget).toBe(1024);
	});
});

describe("resolveCacheRetention", () => {
	function withRetentionEnv(value: string | undefined, check: () => void): void {
		const previous = process.env.AGENT_CACHE_RETENTION;
		if (value === undefined) delete process.env.AGENT_CACHE_RETENTION;
		else process.env.AGENT_CACHE_RETENTION = value;
		try {
			check();
		} finally {
			if (previous === undefined) delete process.env.AGENT_CACHE_RETENTION;
			else process.env.AGENT_CACHE_RETENTION = previous;
		}
	}

	it("defaults to short", () => {
		withRetentionEnv(undefined, () => expect(resolveCacheRetention(undefined)).toBe("short"));
	});

	it("upgrades the default to long with AGENT_CACHE_RETENTION=long", () => {
		withRetentionEnv("long", () => expect(resolveCacheRetention(undefined)).toBe("long"));
		withRetentionEnv("forever", () => expect(resolveCacheRetention(undefined)).toBe("short"));
	});

	it("lets an explicit option win over the environment", () => {
		withRetentionEnv("long", () => {
			expect(resolveCacheRetention("none")).toBe("none");
			expect(resolveCacheRetention("short")).toBe("short");
		});
	});
});
