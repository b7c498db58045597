// With reuse (no onPayload hook) a request converts only the messages added since the previous request over the
// same conversation and settings. These tests compare each request with the same history converted afresh, and
// fail if a request sees another model's or compat's conversion, an earlier history's messages, the images of a
// run of tool results that was at the end of an earlier history, or a change to an earlier request's array.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "../../../../../scripts/fast-check.js";
import { buildCompletionsPayload } from "../../../src/providers/openai-completions/build-payload.js";
import {
	detectCompletionsCompat,
	type ResolvedCompletionsCompat,
} from "../../../src/providers/openai-completions/compat.js";
import { convertCompletionsMessages } from "../../../src/providers/openai-completions/convert-messages.js";
import type { CompletionsPayload } from "../../../src/providers/openai-completions/wire-types.js";
import type { ImageContent, Message, Model, StopReason, ToolResultMessage } from "../../../src/types.js";
import { applyHistoryChange, historyChangeArb } from "../../helpers/history-changes.js";
import { assistant, toolCall, toolResult, user } from "../../helpers/messages.js";
import { openaiTestModel } from "../../helpers/provider-test-harness.js";
import { serializePayload } from "../../helpers/serialized-payload.js";

const png: ImageContent = { type: "image", data: "AAAA", mimeType: "image/png" };
const vision = openaiTestModel("openai-completions", "http://127.0.0.1:1/v1");
const textOnly = openaiTestModel("openai-completions", "http://127.0.0.1:1/v1", { input: ["text"] });
const otherModel = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" } as const;

// Synthetic tool results carry Date.now(); a fixed clock makes a remembered one equal to one made afresh.
beforeAll(() => {
	vi.useFakeTimers({ toFake: ["Date"], now: 1_000 });
});
afterAll(() => {
	vi.useRealTimers();
});

type CompatSwitches = Pick<
	ResolvedCompletionsCompat,
	"requiresAssistantAfterToolResult" | "requiresThinkingAsText" | "requiresToolResultName"
>;

function payload(
	model: Model<"openai-completions">,
	messages: Message[],
	switches: Partial<CompatSwitches>,
	reuse: boolean,
): CompletionsPayload {
	const compat = { ...detectCompletionsCompat(model), ...switches };
	return buildCompletionsPayload(model, { systemPrompt: "sys", messages }, {}, compat, { reuseConversions: reuse });
}

/** The same request converted afresh: a deep copy, no reuse. */
const afresh = (model: Model<"openai-completions">, messages: Message[], switches: Partial<CompatSwitches> = {}) =>
	payload(model, structuredClone(messages), switches, false);
const reused = (model: Model<"openai-completions">, messages: Message[], switches: Partial<CompatSwitches> = {}) =>
	payload(model, [...messages], switches, true);

function imageResult(id: string, withText = true): ToolResultMessage {
	return { ...toolResult(id), content: withText ? [{ type: "text", text: "shot" }, png] : [png] };
}

const TOOL_IDS = ["c1", "c2", "call|item"];

const messageArb: fc.Arbitrary<Message> = fc.oneof(
	fc.constantFrom("q", "next").map((text) => user(text)),
	fc.constant<Message>({ role: "user", content: [{ type: "text", text: "look" }, png], timestamp: 1 }),
	fc
		.record({
			from: fc.constantFrom(vision, textOnly, otherModel),
			text: fc.constantFrom("", "answer"),
			thinking: fc.constantFrom(undefined, "reasoning_content", "reasoning"),
			calls: fc.subarray(TOOL_IDS),
			stopReason: fc.constantFrom<(StopReason | undefined)[]>(undefined, "error", "aborted"),
		})
		.map(({ from, text, thinking, calls, stopReason }) =>
			assistant(
				from,
				[
					...(thinking ? [{ type: "thinking" as const, thinking: "hmm", thinkingSignature: thinking }] : []),
					{ type: "text" as const, text },
					...calls.map((id) => toolCall(id)),
				],
				stopReason,
			),
		),
	fc.constantFrom(...TOOL_IDS).map((id) => toolResult(id)),
	fc
		.record({ id: fc.constantFrom(...TOOL_IDS), withText: fc.boolean() })
		.map(({ id, withText }) => imageResult(id, withText)),
);

const switchesArb = fc.record({
	requiresAssistantAfterToolResult: fc.boolean(),
	requiresThinkingAsText: fc.boolean(),
	requiresToolResultName: fc.boolean(),
});

const stepArb = fc.record({
	change: historyChangeArb(messageArb),
	model: fc.constantFrom(vision, textOnly),
	switches: fc.oneof(fc.constant({}), switchesArb),
});

describe("a conversation's requests with reused conversions", () => {
	it("each give the payload and bytes of converting the history afresh", () => {
		fc.assert(
			fc.property(fc.array(messageArb, { maxLength: 6 }), fc.array(stepArb, { maxLength: 10 }), (start, steps) => {
				const history: Message[] = [user("first"), ...start];
				for (const { change, model, switches } of steps) {
					applyHistoryChange(history, change);
					const request = reused(model, history, switches);
					expect(request).toEqual(afresh(model, history, switches));
					expect(new TextDecoder().decode(serializePayload(request, "messages"))).toBe(JSON.stringify(request));
				}
			}),
		);
	});
});

describe("resuming a conversation's conversion", () => {
	it("keeps the wire messages of the history so far as the same objects", () => {
		const history: Message[] = [user("q"), assistant(vision, [toolCall("c1")]), imageResult("c1"), user("next")];
		const first = reused(vision, history, { requiresAssistantAfterToolResult: true });
		history.push(assistant(vision, [{ type: "text", text: "done" }]), user("more"));
		const second = reused(vision, history, { requiresAssistantAfterToolResult: true });
		// Including the assistant and user messages made for the tool result's image.
		for (const [index, message] of first.messages.entries()) expect(second.messages[index]).toBe(message);
		expect(second).toEqual(afresh(vision, history, { requiresAssistantAfterToolResult: true }));
	});

	it("puts a run's images after the whole run once its last result arrives, not after the part sent before", () => {
		const history: Message[] = [user("q"), assistant(vision, [toolCall("c1"), toolCall("c2")]), imageResult("c1")];
		const partial = reused(vision, history);
		expect(partial.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "user"]);
		history.push(imageResult("c2"));
		const complete = reused(vision, history);
		expect(complete.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "user"]);
		expect(JSON.stringify(complete.messages.at(-1)).match(/data:image/g)).toHaveLength(2);
		history.push(user("next"));
		const next = reused(vision, history);
		expect(next.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "user", "user"]);
		expect(next).toEqual(afresh(vision, history));
	});

	it("converts anew for another model or compat, and again for the first", () => {
		const history: Message[] = [
			user("q"),
			assistant(vision, [
				{ type: "thinking", thinking: "hmm", thinkingSignature: "reasoning_content" },
				toolCall("c1"),
			]),
			imageResult("c1"),
			user("next"),
		];
		const first = reused(vision, history);
		for (const [model, switches] of [
			[textOnly, {}],
			[vision, { requiresThinkingAsText: true }],
			[vision, { requiresAssistantAfterToolResult: true }],
			[vision, { requiresToolResultName: true }],
		] as const) {
			expect(reused(model, history, switches)).toEqual(afresh(model, history, switches));
		}
		expect(reused(vision, history)).toEqual(first);
	});

	it("is not changed by a caller changing the array it returned", () => {
		const history: Message[] = [user("q"), assistant(vision, [toolCall("c1")]), imageResult("c1")];
		const compat = detectCompletionsCompat(vision);
		const given = convertCompletionsMessages(vision, { messages: [...history] }, compat, { reuseConversions: true });
		given.splice(0, given.length, { role: "user", content: "replaced by the caller" });
		history.push(user("next"));
		const next = convertCompletionsMessages(vision, { messages: [...history] }, compat, { reuseConversions: true });
		expect(next).toEqual(convertCompletionsMessages(vision, { messages: structuredClone(history) }, compat));
		expect(JSON.stringify(next)).not.toContain("replaced by the caller");
	});
});
