import { describe, expect, it } from "vitest";
import { shortHash } from "../../../src/index.js";
import { convertResponsesInput } from "../../../src/providers/openai-responses/convert-messages.js";
import { normalizeResponsesToolCallId } from "../../../src/providers/openai-responses/tool-call-id.js";
import type { AssistantMessage, Context, Message, Model, ToolResultMessage } from "../../../src/types.js";
import { assistant as assistantOf } from "../../helpers/messages.js";
import { openaiTestModel } from "../../helpers/provider-test-harness.js";

const target = (overrides: Partial<Model<"openai-responses">> = {}) =>
	openaiTestModel("openai-responses", "https://api.openai.com/v1", {
		provider: "openai",
		id: "gpt-5",
		reasoning: true,
		...overrides,
	});

const convert = (messages: Message[], model = target(), systemPrompt?: string) =>
	convertResponsesInput(model, { systemPrompt, messages } satisfies Context);

function assistant(content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage {
	return { ...assistantOf(target(), content, "stop"), timestamp: 1, ...from };
}

const user = (content: string | (Message & { role: "user" })["content"]): Message => ({
	role: "user",
	content,
	timestamp: 1,
});
const toolResult = (toolCallId: string, content: ToolResultMessage["content"]): ToolResultMessage => ({
	role: "toolResult",
	toolCallId,
	toolName: "read",
	content,
	isError: false,
	timestamp: 1,
});
const png = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

describe("system prompt and users", () => {
	it("puts the system prompt first, as developer for reasoning models and system otherwise", () => {
		expect(convert([], target(), "Rules")[0]).toEqual({ role: "developer", content: "Rules" });
		expect(convert([], target({ reasoning: false }), "Rules")[0]).toEqual({ role: "system", content: "Rules" });
	});

	it("turns user strings and parts into input_text and input_image items", () => {
		expect(convert([user("hello"), user([{ type: "text", text: "see" }, png])])).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "hello" }] },
			{
				role: "user",
				content: [
					{ type: "input_text", text: "see" },
					{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,AAAA" },
				],
			},
		]);
	});

	it("drops images for text-only models and skips a message left empty", () => {
		expect(convert([user([png])], target({ input: ["text"] }))).toEqual([]);
	});
});

describe("assistant replay", () => {
	const reasoningItem = {
		type: "reasoning",
		id: "rs_1",
		summary: [{ type: "summary_text", text: "s" }],
		encrypted_content: "enc==",
	};

	it("replays reasoning items verbatim from the signature and message items with their ids", () => {
		const input = convert([
			user("q"),
			assistant([
				{ type: "thinking", thinking: "s", thinkingSignature: JSON.stringify(reasoningItem) },
				{
					type: "text",
					text: "Answer",
					textSignature: JSON.stringify({ v: 1, id: "msg_real", phase: "final_answer" }),
				},
			]),
		]);
		expect(input.slice(1)).toEqual([
			reasoningItem,
			{
				type: "message",
				role: "assistant",
				content: [{ type: "output_text", text: "Answer", annotations: [] }],
				status: "completed",
				id: "msg_real",
				phase: "final_answer",
			},
		]);
	});

	it("accepts a legacy plain-id text signature", () => {
		const input = convert([user("q"), assistant([{ type: "text", text: "A", textSignature: "msg_legacy" }])]);
		expect(input[1]).toMatchObject({ type: "message", id: "msg_legacy" });
		expect(input[1]).not.toHaveProperty("phase");
	});

	it("names unsigned text msg_<index of the message>", () => {
		const input = convert([
			user("q"),
			assistant([{ type: "text", text: "A" }]),
			user("q2"),
			assistant([{ type: "text", text: "B" }]),
		]);
		expect(input.filter((i) => "type" in i && i.type === "message").map((i) => (i as { id: string }).id)).toEqual([
			"msg_1",
			"msg_3",
		]);
	});

	it("hashes message ids longer than 64 characters", () => {
		const longId = `msg_${"z".repeat(80)}`;
		const input = convert([
			user("q"),
			assistant([{ type: "text", text: "A", textSignature: JSON.stringify({ v: 1, id: longId }) }]),
		]);
		expect(input[1]).toMatchObject({ id: `msg_${shortHash(longId)}` });
	});

	it("sends function calls with call_id and item id, and outputs with the call id only", () => {
		const input = convert([
			user("q"),
			assistant([{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a" } }], {
				stopReason: "toolUse",
			}),
			toolResult("call_1|fc_1", [
				{ type: "text", text: "line1" },
				{ type: "text", text: "line2" },
			]),
		]);
		expect(input.slice(1)).toEqual([
			{ type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: '{"path":"a"}' },
			{ type: "function_call_output", call_id: "call_1", output: "line1\nline2" },
		]);
	});

	it("omits fc_ item ids of another model of the same provider and API", () => {
		const input = convert([
			user("q"),
			assistant([{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: {} }], { model: "gpt-5-mini" }),
			toolResult("call_1|fc_1", [{ type: "text", text: "x" }]),
		]);
		expect(input[1]).toEqual({ type: "function_call", call_id: "call_1", name: "read", arguments: "{}" });
	});

	it("returns tool-result images as input_image items for image models, and a placeholder otherwise", () => {
		const history = [
			user("q"),
			assistant([
				{ type: "toolCall", id: "call_1|fc_1", name: "shot", arguments: {} },
				{ type: "toolCall", id: "call_2|fc_2", name: "shot", arguments: {} },
			]),
			toolResult("call_1|fc_1", [{ type: "text", text: "Screenshot" }, png]),
			toolResult("call_2|fc_2", [png]),
		];
		expect(convert(history).slice(3)).toEqual([
			{
				type: "function_call_output",
				call_id: "call_1",
				output: [
					{ type: "input_text", text: "Screenshot" },
					{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,AAAA" },
				],
			},
			{
				type: "function_call_output",
				call_id: "call_2",
				output: [{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,AAAA" }],
			},
		]);
		expect(convert(history, target({ input: ["text"] })).slice(3)).toEqual([
			{ type: "function_call_output", call_id: "call_1", output: "Screenshot" },
			{ type: "function_call_output", call_id: "call_2", output: "(see attached image)" },
		]);
	});
});

describe("cross-provider histories", () => {
	it("replays Anthropic thinking as a message of plain text, never as a reasoning item", () => {
		const input = convert([
			user("q"),
			assistant(
				[
					{ type: "thinking", thinking: "Reasoning here.", thinkingSignature: "EqQBCkgIARAB" },
					{ type: "toolCall", id: "toolu_01ABC", name: "ls", arguments: {} },
				],
				{ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" },
			),
			toolResult("toolu_01ABC", [{ type: "text", text: "out" }]),
		]);
		expect(input.slice(1)).toEqual([
			{
				type: "message",
				role: "assistant",
				content: [{ type: "output_text", text: "Reasoning here.", annotations: [] }],
				status: "completed",
				id: "msg_1",
			},
			{ type: "function_call", call_id: "toolu_01ABC", name: "ls", arguments: "{}" },
			{ type: "function_call_output", call_id: "toolu_01ABC", output: "out" },
		]);
	});

	it("normalises pipe ids from another provider for OpenAI and renames their results to match", () => {
		const foreign = `call.weird/1|item:${"x".repeat(70)}`;
		const input = convert([
			user("q"),
			assistant([{ type: "toolCall", id: foreign, name: "ls", arguments: {} }], {
				provider: "opencode",
				model: "other",
			}),
			toolResult(foreign, [{ type: "text", text: "out" }]),
		]);
		const normalized = normalizeResponsesToolCallId(foreign);
		const [callId, itemId] = normalized.split("|");
		expect(callId).toBe("call_weird_1");
		expect(itemId.startsWith("fc_item_")).toBe(true);
		expect(itemId.length).toBeLessThanOrEqual(64);
		expect(input[1]).toEqual({ type: "function_call", id: itemId, call_id: callId, name: "ls", arguments: "{}" });
		expect(input[2]).toEqual({ type: "function_call_output", call_id: callId, output: "out" });
	});

	it("leaves ids alone for providers that do not check them", () => {
		const id = "call.x|item.y";
		const input = convert(
			[
				user("q"),
				assistant([{ type: "toolCall", id, name: "ls", arguments: {} }], { provider: "other" }),
				toolResult(id, []),
			],
			target({ provider: "github-copilot" }),
		);
		expect(input[1]).toMatchObject({ id: "item.y", call_id: "call.x" });
	});

	it("drops signed reasoning of another OpenAI model instead of replaying an item it cannot decrypt", () => {
		const item = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc" };
		const input = convert([
			user("q"),
			assistant(
				[
					{ type: "thinking", thinking: "", thinkingSignature: JSON.stringify(item) },
					{ type: "text", text: "A" },
				],
				{
					model: "gpt-5-mini",
				},
			),
		]);
		expect(input.some((i) => "type" in i && i.type === "reasoning")).toBe(false);
	});

	it("answers an orphaned call with a synthetic error output", () => {
		const input = convert([
			user("q"),
			assistant([{ type: "toolCall", id: "call_1|fc_1", name: "ls", arguments: {} }]),
			user("next"),
		]);
		expect(input.slice(2)).toEqual([
			{ type: "function_call_output", call_id: "call_1", output: "No result provided" },
			{ role: "user", content: [{ type: "input_text", text: "next" }] },
		]);
	});
});

describe("tool-call id normalisation", () => {
	it("prefixes fc_ unless the item id already starts with fc, cuts halves to 64 and strips trailing underscores", () => {
		expect(normalizeResponsesToolCallId("call_1|abc")).toBe("call_1|fc_abc");
		expect(normalizeResponsesToolCallId("call_1|fcx")).toBe("call_1|fcx");
		const long = normalizeResponsesToolCallId(`${"a".repeat(63)}.b|fc_${"c".repeat(100)}`);
		const [call, item] = long.split("|");
		expect(call).toBe("a".repeat(63));
		expect(item).toHaveLength(64);
	});

	it("leaves ids without a pipe unchanged", () => {
		expect(normalizeResponsesToolCallId("toolu_01.x")).toBe("toolu_01.x");
	});
});
