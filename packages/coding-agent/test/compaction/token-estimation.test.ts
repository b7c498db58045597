import { describe, expect, it } from "vitest";
import {
	calculateContextTokens,
	estimateContextTokens,
	estimateTokens,
	shouldCompact,
} from "../../src/core/compaction/token-estimation.js";
import { assistant, toolCall, user } from "../helpers/runtime-entries.js";

const IMAGE = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

describe("estimateTokens", () => {
	it("counts a user message's text parts at chars/4, rounded up, ignoring images", () => {
		expect(estimateTokens({ role: "user", content: [{ type: "text", text: "abcde" }, IMAGE], timestamp: 0 })).toBe(2);
		expect(estimateTokens({ role: "user", content: "abcd", timestamp: 0 })).toBe(1);
	});

	it("counts an assistant's text, thinking and tool calls (name plus JSON arguments)", () => {
		const message = assistant("12345678", { toolCalls: [toolCall("read", { path: "a" })] });
		message.content.push({ type: "thinking", thinking: "1234" });
		// 8 text + 4 thinking + 4 ("read") + 12 ('{"path":"a"}') = 28 chars
		expect(estimateTokens(message)).toBe(7);
	});

	it("counts 4800 characters per image in tool results and custom messages", () => {
		expect(
			estimateTokens({
				role: "toolResult",
				toolCallId: "c",
				toolName: "read",
				content: [{ type: "text", text: "1234" }, IMAGE],
				isError: false,
				timestamp: 0,
			}),
		).toBe(1201);
		expect(estimateTokens({ role: "custom", customType: "x", content: [IMAGE], display: true, timestamp: 0 })).toBe(
			1200,
		);
	});

	it("counts command and output of bash executions, and the summary of summaries", () => {
		expect(
			estimateTokens({
				role: "bashExecution",
				command: "ls",
				output: "abcdef",
				cancelled: false,
				truncated: false,
				timestamp: 0,
			}),
		).toBe(2);
		expect(
			estimateTokens({ role: "compactionSummary", summary: "x".repeat(40), tokensBefore: 1, timestamp: 0 }),
		).toBe(10);
		expect(estimateTokens({ role: "branchSummary", summary: "x".repeat(41), fromId: "a", timestamp: 0 })).toBe(11);
	});

	it("estimates mixed English and CJK text at chars/4 like every other text", () => {
		// The estimate is deliberately provider-neutral; real usage replaces it as soon as a reply reports it.
		expect(estimateTokens(user("Hello 你好 World 世界"))).toBe(Math.ceil("Hello 你好 World 世界".length / 4));
	});
});

describe("context token accounting", () => {
	it("uses totalTokens, or the sum of the parts for records without it", () => {
		const usage = {
			input: 10,
			output: 5,
			cacheRead: 3,
			cacheWrite: 2,
			totalTokens: 0,
			cost: assistant("").usage.cost,
		};
		expect(calculateContextTokens(usage)).toBe(20);
		expect(calculateContextTokens({ ...usage, totalTokens: 99 })).toBe(99);
	});

	it("is zero for an empty context", () => {
		expect(estimateContextTokens([])).toEqual({ tokens: 0, usageTokens: 0, trailingTokens: 0, lastUsageIndex: null });
	});

	it("takes the last usable reply's usage plus estimates for what follows it", () => {
		const messages = [
			user("x".repeat(400)),
			assistant("ok", { totalTokens: 5000 }),
			assistant("failed", { totalTokens: 9999, stopReason: "error" }),
			user("x".repeat(40)),
		];
		expect(estimateContextTokens(messages)).toEqual({
			tokens: 5000 + 2 + 10,
			usageTokens: 5000,
			trailingTokens: 12,
			lastUsageIndex: 1,
		});
	});

	it("compacts only above contextWindow − reserveTokens and only when enabled", () => {
		const settings = { enabled: true, reserveTokens: 16384 };
		expect(shouldCompact(200_000 - 16384, 200_000, settings)).toBe(false);
		expect(shouldCompact(200_000 - 16383, 200_000, settings)).toBe(true);
		expect(shouldCompact(199_000, 200_000, { ...settings, enabled: false })).toBe(false);
	});
});
