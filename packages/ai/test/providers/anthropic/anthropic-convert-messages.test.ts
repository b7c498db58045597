import { describe, expect, it } from "vitest";
import { convertMessages, normalizeToolCallId } from "../../../src/providers/anthropic/convert-messages.js";
import type { AssistantMessage, Message, Model, ToolResultMessage } from "../../../src/types.js";
import { assistant, testModel, toolCall, toolResult, user } from "../../helpers/messages.js";

const target: Model = testModel("anthropic", "anthropic-messages", "claude-sonnet-4-0");
const textOnly: Model = { ...target, input: ["text"] };
const image = { type: "image" as const, data: "aW1n", mimeType: "image/png" };
const imageBlock = { type: "image", source: { type: "base64", media_type: "image/png", data: "aW1n" } };

describe("user messages", () => {
	it("drops whitespace-only strings and keeps others as strings", () => {
		expect(convertMessages([user("   \n"), user("hi")], target)).toEqual([{ role: "user", content: "hi" }]);
	});

	it("converts arrays to text and image blocks, dropping empty text and messages left empty", () => {
		const messages: Message[] = [
			{ role: "user", content: [{ type: "text", text: "" }, { type: "text", text: "look" }, image], timestamp: 1 },
			{ role: "user", content: [{ type: "text", text: " " }], timestamp: 2 },
		];
		expect(convertMessages(messages, target)).toEqual([
			{ role: "user", content: [{ type: "text", text: "look" }, imageBlock] },
		]);
	});

	it("removes images for a text-only model, and a message of only images disappears", () => {
		const messages: Message[] = [
			{ role: "user", content: [{ type: "text", text: "look" }, image], timestamp: 1 },
			{ role: "user", content: [image], timestamp: 2 },
		];
		expect(convertMessages(messages, textOnly)).toEqual([
			{ role: "user", content: [{ type: "text", text: "look" }] },
		]);
	});

	it("removes unpaired surrogates from every text", () => {
		const broken = "a\uD800b\uDC00c 😀";
		const messages: Message[] = [
			user(broken),
			assistant(target, [{ type: "text", text: broken }]),
			toolResult("t", broken),
		];
		const json = JSON.stringify(convertMessages(messages, target));
		expect(json).toContain("abc 😀");
		expect(json).not.toMatch(/\\ud800|\\udc00/i);
	});
});

describe("assistant messages", () => {
	it("skips empty text, keeps signed thinking, and turns unsigned thinking into plain text", () => {
		const message = assistant(target, [
			{ type: "thinking", thinking: "signed", thinkingSignature: "sig" },
			{ type: "thinking", thinking: "unsigned reasoning" },
			{ type: "thinking", thinking: "   " },
			{ type: "text", text: "" },
			{ type: "text", text: "answer" },
		]);
		expect(convertMessages([user("q"), message], target)[1]).toEqual({
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "signed", signature: "sig" },
				{ type: "text", text: "unsigned reasoning" },
				{ type: "text", text: "answer" },
			],
		});
	});

	it("replays signed thinking with empty text (encrypted reasoning) instead of dropping it", () => {
		const message = assistant(target, [
			{ type: "thinking", thinking: "", thinkingSignature: "encrypted-sig" },
			toolCall("toolu_1"),
		]);
		const converted = convertMessages([user("q"), message, toolResult("toolu_1")], target);
		expect(converted[1].content).toEqual([
			{ type: "thinking", thinking: "", signature: "encrypted-sig" },
			{ type: "tool_use", id: "toolu_1", name: "read", input: { path: "a.txt" } },
		]);
	});

	it("turns redacted thinking into redacted_thinking with its payload", () => {
		const message = assistant(target, [
			{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "PAYLOAD", redacted: true },
			{ type: "text", text: "ok" },
		]);
		expect(convertMessages([user("q"), message], target)[1].content).toEqual([
			{ type: "redacted_thinking", data: "PAYLOAD" },
			{ type: "text", text: "ok" },
		]);
	});

	it("drops an assistant message left with no blocks", () => {
		const empty = assistant(target, [{ type: "text", text: "  " }]);
		expect(convertMessages([user("q"), empty, user("again")], target)).toEqual([
			{ role: "user", content: "q" },
			{ role: "user", content: "again" },
		]);
	});
});

describe("tool results", () => {
	it("merges consecutive tool results into one user message of tool_result blocks", () => {
		const messages: Message[] = [
			user("q"),
			assistant(target, [toolCall("t1"), toolCall("t2")]),
			toolResult("t1", "one"),
			{ ...toolResult("t2", "two"), isError: true },
			user("next"),
		];
		const converted = convertMessages(messages, target);
		expect(converted.map((m) => m.role)).toEqual(["user", "assistant", "user", "user"]);
		expect(converted[2]).toEqual({
			role: "user",
			content: [
				{ type: "tool_result", tool_use_id: "t1", content: "one", is_error: false },
				{ type: "tool_result", tool_use_id: "t2", content: "two", is_error: true },
			],
		});
	});

	it("joins texts with newlines, sends images as blocks, and puts a placeholder before image-only results", () => {
		const withText: ToolResultMessage = {
			...toolResult("t1"),
			content: [
				{ type: "text", text: "a" },
				{ type: "text", text: "b" },
			],
		};
		const mixed: ToolResultMessage = { ...toolResult("t2"), content: [{ type: "text", text: "shot:" }, image] };
		const imageOnly: ToolResultMessage = { ...toolResult("t3"), content: [image] };
		const messages: Message[] = [
			user("q"),
			assistant(target, [toolCall("t1"), toolCall("t2"), toolCall("t3")]),
			withText,
			mixed,
			imageOnly,
		];
		const results = convertMessages(messages, target)[2].content as { content: unknown }[];
		expect(results.map((r) => r.content)).toEqual([
			"a\nb",
			[{ type: "text", text: "shot:" }, imageBlock],
			[{ type: "text", text: "(see attached image)" }, imageBlock],
		]);
		const textOnlyResults = convertMessages(messages, textOnly)[2].content as { content: unknown }[];
		expect(textOnlyResults.map((r) => r.content)).toEqual(["a\nb", "shot:", ""]);
	});
});

describe("cross-provider histories", () => {
	const responses = testModel("openai", "openai-responses", "gpt-5.4");

	it("normalizes OpenAI Responses pipe ids and renames their results to match", () => {
		const longId = `call_${"x".repeat(40)}|fc_${"y".repeat(40)}`;
		const history: Message[] = [
			user("q"),
			assistant(responses, [
				{ type: "thinking", thinking: "their reasoning", thinkingSignature: '{"type":"reasoning","id":"rs_1"}' },
				{ type: "text", text: "calling", textSignature: '{"v":1,"id":"msg_1"}' },
				toolCall(longId, "read", { thoughtSignature: "sig" }),
			]),
			toolResult(longId, "contents"),
		];
		const converted = convertMessages(history, target);
		const expectedId = normalizeToolCallId(longId);
		expect(expectedId).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
		expect(expectedId).toHaveLength(64);
		expect(converted[1].content).toEqual([
			{ type: "text", text: "their reasoning" },
			{ type: "text", text: "calling" },
			{ type: "tool_use", id: expectedId, name: "read", input: { path: "a.txt" } },
		]);
		expect(converted[2].content).toEqual([
			{ type: "tool_result", tool_use_id: expectedId, content: "contents", is_error: false },
		]);
	});

	it("keeps ids of the same model untouched", () => {
		const sameModelId = "toolu_keep.me|as-is";
		const history: Message[] = [user("q"), assistant(target, [toolCall(sameModelId)]), toolResult(sameModelId)];
		const converted = convertMessages(history, target);
		expect((converted[1].content as { id: string }[])[0].id).toBe(sameModelId);
	});

	it("drops redacted thinking from another model", () => {
		const other = testModel("anthropic", "anthropic-messages", "claude-opus-4-6");
		const history: Message[] = [
			user("q"),
			assistant(other, [
				{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "X", redacted: true },
				{ type: "text", text: "answer" },
			]),
		];
		expect(convertMessages(history, target)[1].content).toEqual([{ type: "text", text: "answer" }]);
	});

	it("gives orphaned tool calls a synthetic error result before the next user message", () => {
		const history: Message[] = [user("q"), assistant(responses, [toolCall("call_1|fc_1")]), user("never mind")];
		const converted = convertMessages(history, target);
		expect(converted.map((m) => m.role)).toEqual(["user", "assistant", "user", "user"]);
		expect(converted[2].content).toEqual([
			{ type: "tool_result", tool_use_id: "call_1_fc_1", content: "No result provided", is_error: true },
		]);
	});

	it("removes aborted and failed assistant turns entirely", () => {
		const aborted: AssistantMessage = assistant(target, [{ type: "text", text: "half" }], "aborted");
		const failed: AssistantMessage = assistant(target, [{ type: "text", text: "boom" }], "error");
		const converted = convertMessages([user("q"), aborted, user("retry"), failed, user("again")], target);
		expect(JSON.stringify(converted)).not.toMatch(/half|boom/);
	});
});
