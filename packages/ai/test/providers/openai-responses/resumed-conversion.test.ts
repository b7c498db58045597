// With reuse (no onPayload hook) a request converts only the messages added since the previous request over the
// same conversation and settings. These tests compare each request with the same history converted afresh, and
// fail if a request sees another model's or id normalisation's items, an earlier history's messages, or a
// change to an earlier request's array.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "../../../../../scripts/fast-check.js";
import { convertResponsesInput } from "../../../src/providers/openai-responses/convert-messages.js";
import type { ImageContent, Message, Model, StopReason, ToolResultMessage } from "../../../src/types.js";
import { applyHistoryChange, historyChangeArb } from "../../helpers/history-changes.js";
import { assistant, toolCall, toolResult, user } from "../../helpers/messages.js";
import { openaiTestModel } from "../../helpers/provider-test-harness.js";
import { serializePayload } from "../../helpers/serialized-payload.js";

const png: ImageContent = { type: "image", data: "AAAA", mimeType: "image/png" };
const vision = openaiTestModel("openai-responses", "http://127.0.0.1:1/v1");
const textOnly = openaiTestModel("openai-responses", "http://127.0.0.1:1/v1", { input: ["text"] });
const sibling = openaiTestModel("openai-responses", "http://127.0.0.1:1/v1", { id: "gpt-sibling" });
const claude = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" } as const;
const ID_PROVIDER_LISTS: (readonly string[] | undefined)[] = [undefined, ["azure-openai-responses"], []];

// Synthetic tool results carry Date.now(); a fixed clock makes a remembered one equal to one made afresh.
beforeAll(() => {
	vi.useFakeTimers({ toFake: ["Date"], now: 1_000 });
});
afterAll(() => {
	vi.useRealTimers();
});

function input(model: Model, messages: Message[], normalizeIdsFor: readonly string[] | undefined, reuse: boolean) {
	return convertResponsesInput(model, { systemPrompt: "sys", messages }, { normalizeIdsFor, reuseConversions: reuse });
}
/** The same request converted afresh: a deep copy, no reuse. */
const afresh = (model: Model, messages: Message[], normalizeIdsFor?: readonly string[]) =>
	input(model, structuredClone(messages), normalizeIdsFor, false);
const reused = (model: Model, messages: Message[], normalizeIdsFor?: readonly string[]) =>
	input(model, [...messages], normalizeIdsFor, true);

function imageResult(id: string): ToolResultMessage {
	return { ...toolResult(id), content: [png] };
}

const TOOL_IDS = ["call_1|fc_1", "call+2|item 2", "toolu_01"];

const messageArb: fc.Arbitrary<Message> = fc.oneof(
	fc.constantFrom("q", "next").map((text) => user(text)),
	fc.constant<Message>({ role: "user", content: [{ type: "text", text: "look" }, png], timestamp: 1 }),
	fc
		.record({
			from: fc.constantFrom(vision, sibling, claude),
			text: fc.constantFrom("", "answer"),
			thinking: fc.boolean(),
			calls: fc.subarray(TOOL_IDS),
			stopReason: fc.constantFrom<(StopReason | undefined)[]>(undefined, "error", "aborted"),
		})
		.map(({ from, text, thinking, calls, stopReason }) =>
			assistant(
				from,
				[
					...(thinking ? [{ type: "thinking" as const, thinking: "hmm", thinkingSignature: "sig" }] : []),
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
	model: fc.constantFrom(vision, textOnly, sibling),
	ids: fc.nat(ID_PROVIDER_LISTS.length - 1),
});

describe("a conversation's requests with reused items", () => {
	it("each give the items and bytes of converting the history afresh", () => {
		fc.assert(
			fc.property(fc.array(messageArb, { maxLength: 6 }), fc.array(stepArb, { maxLength: 10 }), (start, steps) => {
				const history: Message[] = [user("first"), ...start];
				for (const { change, model, ids } of steps) {
					applyHistoryChange(history, change);
					const items = reused(model, history, ID_PROVIDER_LISTS[ids]);
					expect(items).toEqual(afresh(model, history, ID_PROVIDER_LISTS[ids]));
					const bytes = serializePayload({ input: items }, "input");
					expect(new TextDecoder().decode(bytes)).toBe(JSON.stringify({ input: items }));
				}
			}),
		);
	});
});

describe("resuming a conversation's items", () => {
	const history = (): Message[] => [
		user("q"),
		assistant(claude, [{ type: "thinking", thinking: "plan", thinkingSignature: "sig" }, toolCall("toolu_01")]),
		toolResult("toolu_01"),
		assistant(vision, [{ type: "text", text: "unsigned" }, toolCall("call_1|fc_1")]),
		imageResult("call_1|fc_1"),
	];

	it("keeps the items of the history so far as the same objects", () => {
		const messages = history();
		const first = reused(vision, messages);
		messages.push(user("next"), assistant(vision, [{ type: "text", text: "done" }]));
		const second = reused(vision, messages);
		for (const [index, item] of first.entries()) expect(second[index]).toBe(item);
		expect(second).toEqual(afresh(vision, messages));
	});

	it("converts anew for another model or id normalisation, and again for the first", () => {
		const messages = history();
		const first = reused(vision, messages);
		for (const [model, ids] of [
			[textOnly, undefined],
			[sibling, undefined],
			[vision, ["azure-openai-responses"]],
		] as const) {
			expect(reused(model, messages, ids)).toEqual(afresh(model, messages, ids));
		}
		expect(reused(vision, messages)).toEqual(first);
	});

	it("is not changed by a caller changing the array it returned", () => {
		// Codex sends the system prompt apart: the items are the history's alone.
		const codexInput = (messages: Message[], reuseConversions: boolean) =>
			convertResponsesInput(
				vision,
				{ systemPrompt: "sys", messages },
				{ includeSystemPrompt: false, reuseConversions },
			);
		const messages = history();
		const given = codexInput([...messages], true);
		given.splice(0, given.length, { role: "user", content: "replaced by the caller" });
		messages.push(user("next"));
		const next = codexInput([...messages], true);
		expect(next).toEqual(codexInput(structuredClone(messages), false));
		expect(JSON.stringify(next)).not.toContain("replaced by the caller");
	});
});
