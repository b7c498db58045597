// With reuse (no onPayload hook) a request converts only the messages added since the previous request over the
// same conversation and settings. These tests compare each request with the same history converted afresh, and
// fail if a request sees another model's or tool-name mapping's conversion, an earlier history's messages, a
// run of tool results as it was at the end of an earlier history, or a change to an earlier request's array.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "../../../../../scripts/fast-check.js";
import { buildRequestParams } from "../../../src/providers/anthropic/build-request.js";
import { convertMessages } from "../../../src/providers/anthropic/convert-messages.js";
import { resolveAuth } from "../../../src/providers/anthropic/headers.js";
import type { ImageContent, Message, Model, StopReason, ToolResultMessage } from "../../../src/types.js";
import { applyHistoryChange, historyChangeArb } from "../../helpers/history-changes.js";
import { assistant, toolCall, toolResult, user } from "../../helpers/messages.js";
import { claudeSonnet4 } from "../../helpers/provider-test-harness.js";
import { serializePayload } from "../../helpers/serialized-payload.js";

const png: ImageContent = { type: "image", data: "AAAA", mimeType: "image/png" };
const vision = claudeSonnet4("http://127.0.0.1:1");
const textOnly = claudeSonnet4("http://127.0.0.1:1", { input: ["text"] });
const gpt = { provider: "openai", api: "openai-responses", id: "gpt-5.4" } as const;
const API_KEY = "sk-ant-api03-key";
const SUBSCRIPTION = "sk-ant-oat01-token";

// Synthetic tool results carry Date.now(); a fixed clock makes a remembered one equal to one made afresh.
beforeAll(() => {
	vi.useFakeTimers({ toFake: ["Date"], now: 1_000 });
});
afterAll(() => {
	vi.useRealTimers();
});

function params(model: Model<"anthropic-messages">, messages: Message[], apiKey: string, reuse: boolean) {
	const auth = resolveAuth(model, apiKey);
	return buildRequestParams(model, { systemPrompt: "sys", messages }, {}, auth, undefined, {
		reuseConversions: reuse,
	});
}
/** The same request converted afresh: a deep copy, no reuse. */
const afresh = (model: Model<"anthropic-messages">, messages: Message[], apiKey = API_KEY) =>
	params(model, structuredClone(messages), apiKey, false);
const reused = (model: Model<"anthropic-messages">, messages: Message[], apiKey = API_KEY) =>
	params(model, [...messages], apiKey, true);

function imageResult(id: string): ToolResultMessage {
	return { ...toolResult(id), content: [png] };
}

const TOOL_IDS = ["toolu_1", "toolu_2", "call_1|fc_1"];

const messageArb: fc.Arbitrary<Message> = fc.oneof(
	fc.constantFrom("q", "next", " ").map((text) => user(text)),
	fc.constant<Message>({ role: "user", content: [{ type: "text", text: "look" }, png], timestamp: 1 }),
	fc
		.record({
			from: fc.constantFrom(vision, gpt),
			text: fc.constantFrom("", "answer"),
			thinking: fc.constantFrom(undefined, "", "plan"),
			calls: fc.subarray(TOOL_IDS),
			stopReason: fc.constantFrom<(StopReason | undefined)[]>(undefined, "error", "aborted"),
		})
		.map(({ from, text, thinking, calls, stopReason }) =>
			assistant(
				from,
				[
					...(thinking === undefined ? [] : [{ type: "thinking" as const, thinking, thinkingSignature: "sig" }]),
					{ type: "text" as const, text },
					...calls.map((id) => toolCall(id)),
				],
				stopReason,
			),
		),
	fc.constantFrom(...TOOL_IDS).map((id) => toolResult(id)),
	fc.constantFrom(...TOOL_IDS).map((id) => imageResult(id)),
);

const stepArb = fc.record({
	change: historyChangeArb(messageArb),
	model: fc.constantFrom(vision, textOnly),
	apiKey: fc.constantFrom(API_KEY, SUBSCRIPTION),
});

describe("a conversation's requests with reused conversions", () => {
	it("each give the payload and bytes of converting the history afresh", () => {
		fc.assert(
			fc.property(fc.array(messageArb, { maxLength: 6 }), fc.array(stepArb, { maxLength: 10 }), (start, steps) => {
				const history: Message[] = [user("first"), ...start];
				for (const { change, model, apiKey } of steps) {
					applyHistoryChange(history, change);
					const request = reused(model, history, apiKey);
					expect(request).toEqual(afresh(model, history, apiKey));
					expect(new TextDecoder().decode(serializePayload(request, "messages"))).toBe(JSON.stringify(request));
				}
			}),
		);
	});
});

describe("resuming a conversation's conversion", () => {
	const convert = (messages: Message[], reuse = true) =>
		convertMessages(messages, vision, undefined, reuse ? { reuseKey: "images" } : {});

	it("keeps the wire messages of the history so far as the same objects", () => {
		const history: Message[] = [
			user("q"),
			assistant(gpt, [{ type: "thinking", thinking: "plan", thinkingSignature: "{}" }, toolCall("call_1|fc_1")]),
			toolResult("call_1|fc_1"),
			assistant(vision, [toolCall("toolu_1"), toolCall("toolu_2")]),
			toolResult("toolu_1"),
			imageResult("toolu_2"),
		];
		const first = convert([...history]);
		history.push(assistant(vision, [{ type: "text", text: "done" }]), user("next"));
		const second = convert([...history]);
		for (const [index, message] of first.entries()) expect(second[index]).toBe(message);
		expect(second).toEqual(convert(structuredClone(history), false));
	});

	it("gives a run of tool results that grew its whole run, not the part that ended an earlier history", () => {
		const history: Message[] = [user("q"), assistant(vision, [toolCall("toolu_1"), toolCall("toolu_2")])];
		history.push(toolResult("toolu_1", "first"));
		expect(JSON.stringify(convert([...history]))).toContain("No result provided");
		history.push(toolResult("toolu_2", "second"));
		const grown = convert([...history]);
		expect(grown).toHaveLength(3);
		expect(grown[2].content).toMatchObject([{ content: "first" }, { content: "second" }]);
		history.push(user("next"));
		expect(convert([...history])).toEqual(convert(structuredClone(history), false));
	});

	it("converts anew for a model without images or another tool-name mapping, and again for the first", () => {
		const history: Message[] = [user("q"), assistant(vision, [toolCall("toolu_1")]), imageResult("toolu_1")];
		const first = reused(vision, history);
		expect(reused(textOnly, history)).toEqual(afresh(textOnly, history));
		expect(reused(vision, history, SUBSCRIPTION)).toEqual(afresh(vision, history, SUBSCRIPTION));
		expect(reused(vision, history)).toEqual(first);
	});

	it("is not changed by a caller changing the array it returned", () => {
		const history: Message[] = [user("q"), assistant(vision, [toolCall("toolu_1")]), toolResult("toolu_1")];
		const given = convert([...history]);
		given.splice(0, given.length, { role: "user", content: "replaced by the caller" });
		history.push(user("next"));
		const next = convert([...history]);
		expect(next).toEqual(convert(structuredClone(history), false));
		expect(JSON.stringify(next)).not.toContain("replaced by the caller");
	});
});
