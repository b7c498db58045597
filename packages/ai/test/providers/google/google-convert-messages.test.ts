import { describe, expect, it } from "vitest";
import {
	convertMessages,
	isValidThoughtSignature,
	SKIP_THOUGHT_SIGNATURE,
} from "../../../src/providers/google/convert-messages.js";
import type { Message, Model, ToolResultMessage } from "../../../src/types.js";
import { assistant, testModel, toolCall, toolResult, user } from "../../helpers/messages.js";

const gemini25 = testModel("google", "google-generative-ai", "gemini-2.5-pro");
const gemini3 = testModel("google", "google-generative-ai", "gemini-3-pro-preview");
const claudeViaGoogle = testModel("google", "google-generative-ai", "claude-sonnet-4-5");
const gptOss = testModel("google", "google-generative-ai", "gpt-oss-120b");
const image = { type: "image" as const, data: "aW1n", mimeType: "image/png" };
const inline = { inlineData: { mimeType: "image/png", data: "aW1n" } };

describe("user messages", () => {
	it("becomes a user turn of text and inlineData parts", () => {
		const messages: Message[] = [
			user("hi"),
			{ role: "user", content: [{ type: "text", text: "look" }, image], timestamp: 1 },
		];
		expect(convertMessages(messages, gemini25)).toEqual([
			{ role: "user", parts: [{ text: "hi" }] },
			{ role: "user", parts: [{ text: "look" }, inline] },
		]);
	});

	it("drops images for text-only models and empty messages", () => {
		const textOnly: Model = { ...gemini25, input: ["text"] };
		const messages: Message[] = [{ role: "user", content: [image], timestamp: 1 }, user(" "), user("ok")];
		expect(convertMessages(messages, textOnly)).toEqual([{ role: "user", parts: [{ text: "ok" }] }]);
	});

	it("removes unpaired surrogates", () => {
		const json = JSON.stringify(convertMessages([user("a\uD800b 😀")], gemini25));
		expect(json).toContain("ab 😀");
	});
});

describe("assistant messages from the same model", () => {
	it("become model turns keeping thinking as thought parts and valid signatures", () => {
		const message = assistant(gemini25, [
			{ type: "thinking", thinking: "reasoning", thinkingSignature: "c2lnMQ==" },
			{ type: "text", text: "answer", textSignature: "dGV4dA==" },
			{ type: "text", text: "" },
			toolCall("call_1", "read", { thoughtSignature: "Y2FsbA==" }),
		]);
		expect(convertMessages([user("q"), message, toolResult("call_1")], gemini25)[1]).toEqual({
			role: "model",
			parts: [
				{ thought: true, text: "reasoning", thoughtSignature: "c2lnMQ==" },
				{ text: "answer", thoughtSignature: "dGV4dA==" },
				{ functionCall: { name: "read", args: { path: "a.txt" } }, thoughtSignature: "Y2FsbA==" },
			],
		});
	});

	it("drops signatures that are not valid base64", () => {
		expect(isValidThoughtSignature("abc")).toBe(false);
		expect(isValidThoughtSignature("ab!=")).toBe(false);
		expect(isValidThoughtSignature("YWJj")).toBe(true);
		const message = assistant(gemini25, [
			{ type: "text", text: "answer", textSignature: '{"v":1,"id":"msg_1"}' },
			{ type: "thinking", thinking: "t", thinkingSignature: "not base64!" },
		]);
		expect(convertMessages([user("q"), message], gemini25)[1].parts).toEqual([
			{ text: "answer" },
			{ thought: true, text: "t" },
		]);
	});
});

describe("assistant messages from other models", () => {
	const other = testModel("anthropic", "anthropic-messages", "claude-sonnet-4-0");

	it("replay thinking as plain text and drop signatures", () => {
		const message = assistant(other, [
			{ type: "thinking", thinking: "their reasoning", thinkingSignature: "c2ln" },
			{ type: "text", text: "answer", textSignature: "dGV4dA==" },
		]);
		expect(convertMessages([user("q"), message], gemini25)[1].parts).toEqual([
			{ text: "their reasoning" },
			{ text: "answer" },
		]);
	});

	it("treats the same id from another provider as another model", () => {
		const vertex = testModel("google-vertex", "google-vertex", "gemini-2.5-pro");
		const message = assistant(vertex, [{ type: "thinking", thinking: "t", thinkingSignature: "c2ln" }]);
		expect(convertMessages([user("q"), message], gemini25)[1].parts).toEqual([{ text: "t" }]);
	});

	it("gives unsigned function calls the skip sentinel for Gemini 3 targets only", () => {
		const message = assistant(other, [toolCall("toolu_1", "read", { thoughtSignature: "c2ln" })]);
		const history: Message[] = [user("q"), message, toolResult("toolu_1")];
		expect(convertMessages(history, gemini3)[1].parts).toEqual([
			{ functionCall: { name: "read", args: { path: "a.txt" } }, thoughtSignature: SKIP_THOUGHT_SIGNATURE },
		]);
		expect(convertMessages(history, gemini25)[1].parts).toEqual([
			{ functionCall: { name: "read", args: { path: "a.txt" } } },
		]);
	});
});

describe("function-call ids", () => {
	const responses = testModel("openai", "openai-responses", "gpt-5.4");
	const history: Message[] = [
		user("q"),
		assistant(responses, [toolCall("call_1|fc_a.b")]),
		toolResult("call_1|fc_a.b", "done"),
	];

	it("are left out for Gemini targets", () => {
		const converted = convertMessages(history, gemini25);
		expect(converted[1].parts).toEqual([{ functionCall: { name: "read", args: { path: "a.txt" } } }]);
		expect(converted[2].parts).toEqual([{ functionResponse: { name: "read", response: { output: "done" } } }]);
	});

	it.each([
		["claude-", claudeViaGoogle],
		["gpt-oss-", gptOss],
	])("are included and normalized for %s targets, on calls and their results", (_prefix, target) => {
		const converted = convertMessages(history, target);
		expect(converted[1].parts).toEqual([
			{ functionCall: { name: "read", args: { path: "a.txt" }, id: "call_1_fc_a_b" } },
		]);
		expect(converted[2].parts).toEqual([
			{ functionResponse: { name: "read", response: { output: "done" }, id: "call_1_fc_a_b" } },
		]);
	});
});

describe("tool results", () => {
	it("merge consecutive results into one user turn, with errors under error and texts joined", () => {
		const failed: ToolResultMessage = {
			...toolResult("t2", "x"),
			content: [
				{ type: "text", text: "line1" },
				{ type: "text", text: "line2" },
			],
			isError: true,
		};
		const history: Message[] = [
			user("q"),
			assistant(gemini25, [toolCall("t1"), toolCall("t2")]),
			toolResult("t1", "ok"),
			failed,
		];
		expect(convertMessages(history, gemini25).slice(2)).toEqual([
			{
				role: "user",
				parts: [
					{ functionResponse: { name: "read", response: { output: "ok" } } },
					{ functionResponse: { name: "read", response: { error: "line1\nline2" } } },
				],
			},
		]);
	});

	it("nest images in the function response for Gemini 3", () => {
		const shot: ToolResultMessage = { ...toolResult("t1"), content: [image] };
		const history: Message[] = [user("q"), assistant(gemini3, [toolCall("t1")]), shot];
		expect(convertMessages(history, gemini3)[2]).toEqual({
			role: "user",
			parts: [
				{
					functionResponse: {
						name: "read",
						response: { output: "(see attached image)" },
						parts: [{ inlineData: { mimeType: "image/png", data: "aW1n" } }],
					},
				},
			],
		});
	});

	it("send images of older models in one user turn after the whole run of results", () => {
		const shot1: ToolResultMessage = { ...toolResult("t1"), content: [{ type: "text", text: "first" }, image] };
		const shot2: ToolResultMessage = { ...toolResult("t2"), content: [image] };
		const history: Message[] = [user("q"), assistant(gemini25, [toolCall("t1"), toolCall("t2")]), shot1, shot2];
		expect(convertMessages(history, gemini25).slice(2)).toEqual([
			{
				role: "user",
				parts: [
					{ functionResponse: { name: "read", response: { output: "first" } } },
					{ functionResponse: { name: "read", response: { output: "(see attached image)" } } },
				],
			},
			{ role: "user", parts: [{ text: "Tool result image:" }, inline, inline] },
		]);
	});

	it("drop images for text-only models and leave an empty output for an image-only result", () => {
		const textOnly: Model = { ...gemini25, input: ["text"] };
		const shot: ToolResultMessage = { ...toolResult("t1"), content: [image] };
		const history: Message[] = [user("q"), assistant(textOnly, [toolCall("t1")]), shot];
		expect(convertMessages(history, textOnly).slice(2)).toEqual([
			{ role: "user", parts: [{ functionResponse: { name: "read", response: { output: "" } } }] },
		]);
	});

	it("fill in a result for an orphaned call before the next user message", () => {
		const history: Message[] = [user("q"), assistant(gemini25, [toolCall("t1")]), user("never mind")];
		expect(convertMessages(history, gemini25).slice(2)).toEqual([
			{ role: "user", parts: [{ functionResponse: { name: "read", response: { error: "No result provided" } } }] },
			{ role: "user", parts: [{ text: "never mind" }] },
		]);
	});
});
