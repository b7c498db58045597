import { describe, expect, it } from "vitest";
import {
	detectCompletionsCompat,
	type ResolvedCompletionsCompat,
} from "../../../src/providers/openai-completions/compat.js";
import { convertCompletionsMessages } from "../../../src/providers/openai-completions/convert-messages.js";
import type { AssistantMessage, Context, Message, Model, ToolResultMessage } from "../../../src/types.js";
import { assistant as assistantOf } from "../../helpers/messages.js";
import { openaiTestModel } from "../../helpers/provider-test-harness.js";

const target = (overrides: Partial<Model<"openai-completions">> = {}) =>
	openaiTestModel("openai-completions", "http://127.0.0.1:1/v1", { provider: "groq", id: "target", ...overrides });

function convert(
	messages: Message[],
	options: {
		model?: Model<"openai-completions">;
		compat?: Partial<ResolvedCompletionsCompat>;
		systemPrompt?: string;
	} = {},
) {
	const model = options.model ?? target();
	const compat = { ...detectCompletionsCompat(model), ...options.compat };
	const context: Context = { systemPrompt: options.systemPrompt, messages };
	return convertCompletionsMessages(model, context, compat);
}

function assistant(content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage {
	return { ...assistantOf(target(), content, "stop"), timestamp: 1, ...from };
}

function toolResult(toolCallId: string, content: ToolResultMessage["content"], toolName = "read"): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName, content, isError: false, timestamp: 1 };
}

const user = (content: Message["content"] & (string | unknown[])): Message =>
	({ role: "user", content, timestamp: 1 }) as Message;
const png = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

describe("system prompt", () => {
	it("is a developer message for reasoning models where the server supports the role", () => {
		expect(convert([], { model: target({ reasoning: true }), systemPrompt: "Be brief." })[0]).toEqual({
			role: "developer",
			content: "Be brief.",
		});
	});

	it("is a system message for non-reasoning models and for servers without the developer role", () => {
		expect(convert([], { systemPrompt: "S" })[0]).toEqual({ role: "system", content: "S" });
		expect(
			convert([], {
				model: target({ reasoning: true }),
				compat: { supportsDeveloperRole: false },
				systemPrompt: "S",
			})[0],
		).toEqual({ role: "system", content: "S" });
	});
});

describe("user messages", () => {
	it("keeps a string as a string and converts parts with images as data URLs", () => {
		expect(convert([user("hello")])).toEqual([{ role: "user", content: "hello" }]);
		expect(convert([user([{ type: "text", text: "look" }, png])])).toEqual([
			{
				role: "user",
				content: [
					{ type: "text", text: "look" },
					{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
				],
			},
		]);
	});

	it("drops images for text-only models and skips a message left empty", () => {
		const model = target({ input: ["text"] });
		expect(convert([user([png])], { model })).toEqual([]);
		expect(convert([user([{ type: "text", text: "t" }, png])], { model })).toEqual([
			{ role: "user", content: [{ type: "text", text: "t" }] },
		]);
	});

	it("removes unpaired surrogates", () => {
		expect(convert([user("a\uD800b")])).toEqual([{ role: "user", content: "ab" }]);
	});
});

describe("assistant messages", () => {
	it("joins text blocks with no separator into one string", () => {
		const wire = convert([
			user("q"),
			assistant([
				{ type: "text", text: "Hello " },
				{ type: "text", text: "world" },
			]),
		]);
		expect(wire[1]).toEqual({ role: "assistant", content: "Hello world" });
	});

	it("sends tool calls with JSON arguments and null content when there is no text", () => {
		const wire = convert([
			user("q"),
			assistant([{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } }], { stopReason: "toolUse" }),
			toolResult("c1", [{ type: "text", text: "file" }]),
		]);
		expect(wire[1]).toEqual({
			role: "assistant",
			content: null,
			tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }],
		});
	});

	it("uses empty-string content instead of null when the server needs an assistant after tool results", () => {
		const wire = convert(
			[user("q"), assistant([{ type: "toolCall", id: "c1", name: "ls", arguments: {} }]), toolResult("c1", [])],
			{ compat: { requiresAssistantAfterToolResult: true } },
		);
		expect(wire[1]).toMatchObject({ role: "assistant", content: "" });
	});

	it("replays same-model reasoning in the field it streamed in, joined with newlines", () => {
		const wire = convert([
			user("q"),
			assistant([
				{ type: "thinking", thinking: "step 1", thinkingSignature: "reasoning_content" },
				{ type: "thinking", thinking: "step 2", thinkingSignature: "reasoning_content" },
				{ type: "text", text: "answer" },
			]),
		]);
		expect(wire[1]).toEqual({ role: "assistant", content: "answer", reasoning_content: "step 1\nstep 2" });
	});

	it("replays reasoning as a text part before the text when the server requires it", () => {
		const wire = convert(
			[
				user("q"),
				assistant([
					{ type: "thinking", thinking: "a", thinkingSignature: "reasoning" },
					{ type: "thinking", thinking: "b", thinkingSignature: "reasoning" },
					{ type: "text", text: "answer" },
				]),
			],
			{ compat: { requiresThinkingAsText: true } },
		);
		expect(wire[1]).toEqual({
			role: "assistant",
			content: [
				{ type: "text", text: "a\n\nb" },
				{ type: "text", text: "answer" },
			],
		});
	});

	it("collects OpenRouter encrypted reasoning from tool calls into reasoning_details", () => {
		const detail = { type: "reasoning.encrypted", id: "c1", data: "xyz" };
		const wire = convert([
			user("q"),
			assistant([
				{ type: "toolCall", id: "c1", name: "ls", arguments: {}, thoughtSignature: JSON.stringify(detail) },
				{ type: "toolCall", id: "c2", name: "ls", arguments: {}, thoughtSignature: "not json" },
			]),
			toolResult("c1", [{ type: "text", text: "x" }]),
			toolResult("c2", [{ type: "text", text: "y" }]),
		]);
		expect(wire[1]).toMatchObject({ reasoning_details: [detail] });
	});

	it("skips an assistant message with neither text nor tool calls", () => {
		expect(convert([user("q"), assistant([{ type: "text", text: "  " }]), user("again")])).toEqual([
			{ role: "user", content: "q" },
			{ role: "user", content: "again" },
		]);
	});
});

describe("tool results", () => {
	const call = assistant([
		{ type: "toolCall", id: "c1", name: "read", arguments: {} },
		{ type: "toolCall", id: "c2", name: "screenshot", arguments: {} },
	]);

	it("become tool messages with the texts joined by newlines", () => {
		const wire = convert([
			user("q"),
			call,
			toolResult("c1", [
				{ type: "text", text: "a" },
				{ type: "text", text: "b" },
			]),
			toolResult("c2", []),
		]);
		expect(wire[2]).toEqual({ role: "tool", tool_call_id: "c1", content: "a\nb" });
	});

	it("carry the tool name when the server requires it", () => {
		const wire = convert([user("q"), call, toolResult("c1", [{ type: "text", text: "a" }]), toolResult("c2", [])], {
			compat: { requiresToolResultName: true },
		});
		expect(wire[2]).toEqual({ role: "tool", tool_call_id: "c1", content: "a", name: "read" });
	});

	it("move images of a run of results into one user message after the run", () => {
		const jpeg = { type: "image" as const, data: "BBBB", mimeType: "image/jpeg" };
		const wire = convert([
			user("q"),
			call,
			toolResult("c1", [png]),
			toolResult("c2", [{ type: "text", text: "shot" }, jpeg]),
		]);
		expect(wire.slice(2)).toEqual([
			{ role: "tool", tool_call_id: "c1", content: "(see attached image)" },
			{ role: "tool", tool_call_id: "c2", content: "shot" },
			{
				role: "user",
				content: [
					{ type: "text", text: "Attached image(s) from tool result:" },
					{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
					{ type: "image_url", image_url: { url: "data:image/jpeg;base64,BBBB" } },
				],
			},
		]);
	});

	it("put the synthetic assistant reply before the image message when the server requires it", () => {
		const wire = convert([user("q"), call, toolResult("c1", [png]), toolResult("c2", [])], {
			compat: { requiresAssistantAfterToolResult: true },
		});
		expect(wire.slice(4)).toEqual([
			{ role: "assistant", content: "I have processed the tool results." },
			{
				role: "user",
				content: [
					{ type: "text", text: "Attached image(s) from tool result:" },
					expect.objectContaining({ type: "image_url" }),
				],
			},
		]);
	});

	it("send no image message to a text-only model", () => {
		const wire = convert([user("q"), call, toolResult("c1", [png]), toolResult("c2", [])], {
			model: target({ input: ["text"] }),
		});
		expect(wire.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool"]);
	});

	it("get a synthetic assistant message before a following user message when the server requires it", () => {
		const wire = convert(
			[
				user("q"),
				call,
				toolResult("c1", [{ type: "text", text: "a" }]),
				toolResult("c2", [{ type: "text", text: "b" }]),
				user("next"),
			],
			{ compat: { requiresAssistantAfterToolResult: true } },
		);
		expect(wire.slice(4)).toEqual([
			{ role: "assistant", content: "I have processed the tool results." },
			{ role: "user", content: "next" },
		]);
	});
});

describe("cross-provider histories", () => {
	it("replays Anthropic thinking as plain text without its signature", () => {
		const wire = convert([
			user("q"),
			assistant(
				[
					{ type: "thinking", thinking: "Considering the files.", thinkingSignature: "EqQBCkgIARABGAIiQL..." },
					{ type: "text", text: "Done." },
				],
				{ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" },
			),
		]);
		expect(wire[1]).toEqual({ role: "assistant", content: "Considering the files.Done." });
		expect(JSON.stringify(wire)).not.toContain("EqQBCkgI");
	});

	it("drops redacted thinking from another model", () => {
		const wire = convert([
			user("q"),
			assistant(
				[
					{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "opaque", redacted: true },
					{ type: "text", text: "ok" },
				],
				{ api: "anthropic-messages", provider: "anthropic", model: "claude" },
			),
		]);
		expect(wire[1]).toEqual({ role: "assistant", content: "ok" });
	});

	it("keeps only the sanitised call part of Responses call|item ids, in calls and results alike", () => {
		const id = `call_abc.def|fc_${"x".repeat(80)}`;
		const wire = convert([
			user("q"),
			assistant([{ type: "toolCall", id, name: "ls", arguments: {} }], {
				api: "openai-responses",
				provider: "openai",
				model: "gpt-5",
			}),
			toolResult(id, [{ type: "text", text: "out" }]),
		]);
		expect(wire[1]).toMatchObject({ tool_calls: [{ id: "call_abc_def" }] });
		expect(wire[2]).toMatchObject({ role: "tool", tool_call_id: "call_abc_def" });
	});

	it("cuts other models' ids to 40 characters for OpenAI", () => {
		const longId = `toolu_${"a".repeat(60)}`;
		const wire = convert(
			[
				user("q"),
				assistant([{ type: "toolCall", id: longId, name: "ls", arguments: {} }], {
					api: "anthropic-messages",
					provider: "anthropic",
					model: "claude",
				}),
				toolResult(longId, [{ type: "text", text: "out" }]),
			],
			{ model: target({ provider: "openai" }) },
		);
		expect(wire[1]).toMatchObject({ tool_calls: [{ id: longId.slice(0, 40) }] });
		expect(wire[2]).toMatchObject({ tool_call_id: longId.slice(0, 40) });
	});

	it("gives other models' calls nine-character alphanumeric ids for Mistral, paired with their results", () => {
		const anthropicId = "toolu_01ABCdef";
		const responsesId = "call_x|fc_y";
		const wire = convert(
			[
				user("q"),
				assistant(
					[
						{ type: "toolCall", id: anthropicId, name: "ls", arguments: {} },
						{ type: "toolCall", id: responsesId, name: "read", arguments: {} },
					],
					{ api: "anthropic-messages", provider: "anthropic", model: "claude" },
				),
				toolResult(anthropicId, [{ type: "text", text: "a" }]),
				toolResult(responsesId, [{ type: "text", text: "b" }], "read"),
			],
			{ model: target({ provider: "mistral", baseUrl: "https://api.mistral.ai/v1" }) },
		);
		const calls = (wire[1] as { tool_calls: { id: string }[] }).tool_calls.map((call) => call.id);
		expect(calls).toHaveLength(2);
		for (const id of calls) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
		expect(new Set(calls).size).toBe(2);
		expect(wire.slice(2).map((m) => (m as { tool_call_id: string }).tool_call_id)).toEqual(calls);
	});

	it("answers an orphaned tool call with a synthetic error result before the next user message", () => {
		const wire = convert([
			user("q"),
			assistant([{ type: "toolCall", id: "c1", name: "bash", arguments: {} }], {
				provider: "anthropic",
				api: "anthropic-messages",
			}),
			user("never mind"),
		]);
		expect(wire.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
		expect(wire[2]).toEqual({ role: "tool", tool_call_id: "c1", content: "No result provided" });
	});

	it("never replays an aborted turn", () => {
		const wire = convert([
			user("q"),
			assistant([{ type: "text", text: "partial" }], { stopReason: "aborted" }),
			user("retry"),
		]);
		expect(wire).toEqual([
			{ role: "user", content: "q" },
			{ role: "user", content: "retry" },
		]);
	});
});
