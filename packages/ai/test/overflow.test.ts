import { describe, expect, it } from "vitest";
import { type AssistantMessage, getOverflowPatterns, isContextOverflow, type StopReason } from "../src/index.js";
import { assistant, testModel } from "./helpers/messages.js";

const model = testModel("anthropic", "anthropic-messages", "claude-sonnet-4-5");

function failure(errorMessage: string, stopReason: StopReason = "error"): AssistantMessage {
	return { ...assistant(model, [], stopReason), errorMessage };
}

function reply(input: number, cacheRead: number, stopReason: StopReason = "stop"): AssistantMessage {
	const message = assistant(model, [{ type: "text", text: "ok" }], stopReason);
	return { ...message, usage: { ...message.usage, input, cacheRead, totalTokens: input + cacheRead } };
}

const REPORTED_OVERFLOWS: [provider: string, errorMessage: string][] = [
	[
		"Anthropic",
		'400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 213462 tokens > 200000 maximum"}}',
	],
	["Bedrock", "ValidationException: Input is too long for requested model."],
	["OpenAI", "Your input exceeds the context window of this model. Please adjust your input and try again."],
	[
		"Google",
		'{"error":{"code":400,"message":"The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).","status":"INVALID_ARGUMENT"}}',
	],
	["xAI", "This model's maximum prompt length is 131072 but the request contains 537812 tokens."],
	["Groq", "Please reduce the length of the messages or completion."],
	[
		"OpenRouter",
		'This endpoint\'s maximum context length is 128000 tokens. However, you requested about 131072 tokens (120000 of text input, 11072 in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
	],
	["Copilot", "prompt token count of 133421 exceeds the limit of 128000"],
	["llama.cpp", "the request exceeds the available context size, try increasing it"],
	["LM Studio", "The number of tokens to keep from the initial prompt is greater than the context length."],
	["MiniMax", "invalid params, context window exceeds limit (2013)"],
	["Kimi", "Your request exceeded model token limit: 262144 (requested: 300512)"],
	[
		"Mistral",
		"Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length",
	],
	["z.ai", "model_context_window_exceeded"],
	["generic context_length_exceeded", "400 This model's context_length_exceeded"],
	["generic context length exceeded", "Error: context length exceeded"],
	["generic too many tokens", "Too many tokens in request"],
	["generic token limit exceeded", "Token limit exceeded for this request"],
	[
		"Anthropic input + max_tokens",
		"input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again",
	],
	["Cerebras 400 without body", "400 status code (no body)"],
	["Cerebras 413 without body", "413 (no body)"],
];

describe("reported overflow: one realistic message per provider pattern", () => {
	it.each(REPORTED_OVERFLOWS)("%s", (_provider, errorMessage) => {
		expect(isContextOverflow(failure(errorMessage))).toBe(true);
	});

	it("exercises every pattern of the list with at least one of those messages", () => {
		for (const pattern of getOverflowPatterns()) {
			expect(
				REPORTED_OVERFLOWS.some(([, text]) => pattern.test(text)),
				String(pattern),
			).toBe(true);
		}
	});

	it("only counts errors, not the same text on a successful or aborted reply", () => {
		expect(isContextOverflow(failure("prompt is too long: 213462 tokens > 200000 maximum", "aborted"))).toBe(false);
		expect(isContextOverflow({ ...reply(10, 0), errorMessage: "prompt is too long" })).toBe(false);
	});
});

describe("errors that are not overflow", () => {
	it.each([
		["a bare 429", "429 status code (no body)"],
		[
			"Anthropic rate limit",
			'429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 30,000 input tokens per minute."}}',
		],
		[
			"OpenAI TPM limit",
			"429 Request too large for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Requested 45210.",
		],
		["Cerebras token quota", "429 Tokens per minute limit exceeded - too many tokens processed."],
		[
			"Google quota",
			'{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}',
		],
		["Gemini client status", "got status: 429 Too Many Requests. too many tokens"],
		[
			"Anthropic invalid thinking signature",
			"messages.1.content.0.thinking: Invalid `signature` in `thinking` block",
		],
		[
			"Anthropic modified thinking",
			"messages.3.content.1: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.",
		],
		[
			"Anthropic output cap",
			"max_tokens: 128000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5",
		],
		[
			"orphaned tool call",
			"messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01",
		],
		["server error", "500 Internal server error"],
		["overloaded", '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'],
		["402 without body", "402 status code (no body)"],
		["missing message", ""],
	])("%s", (_case, errorMessage) => {
		expect(isContextOverflow(failure(errorMessage))).toBe(false);
	});

	it("is false for an error without an errorMessage", () => {
		expect(isContextOverflow(assistant(model, [], "error"))).toBe(false);
	});
});

describe("silent overflow (z.ai accepts the request and truncates)", () => {
	it("is detected when input plus cache reads exceed the window", () => {
		expect(isContextOverflow(reply(150_000, 60_000), 200_000)).toBe(true);
		expect(isContextOverflow(reply(200_001, 0), 200_000)).toBe(true);
	});

	it("is not detected at or below the window", () => {
		expect(isContextOverflow(reply(150_000, 50_000), 200_000)).toBe(false);
		expect(isContextOverflow(reply(1000, 0), 200_000)).toBe(false);
	});

	it("is not checked without a context window", () => {
		expect(isContextOverflow(reply(10_000_000, 0))).toBe(false);
	});

	it.each(["length", "toolUse"] as const)("is only judged on replies that stopped normally, not %s", (stopReason) => {
		expect(isContextOverflow(reply(300_000, 0, stopReason), 200_000)).toBe(false);
	});
});

describe("getOverflowPatterns", () => {
	it("returns copies that callers cannot use to change detection", () => {
		const patterns = getOverflowPatterns();
		patterns.length = 0;
		expect(getOverflowPatterns().length).toBeGreaterThan(0);
		expect(isContextOverflow(failure("prompt is too long"))).toBe(true);
	});

	it("matches case-insensitively", () => {
		expect(getOverflowPatterns().every((pattern) => pattern.flags.includes("i"))).toBe(true);
		expect(isContextOverflow(failure("PROMPT IS TOO LONG"))).toBe(true);
	});
});
