// transformMessages resumes where the previous call over the same conversation, target and normalizer stopped.
// These tests compare each call with the same history converted afresh (a deep copy: no object of it was seen
// before, so nothing remembered can apply), and fail if a call sees another target's or normalizer's result,
// an earlier history's messages, the synthetic results of an earlier history's end, or a caller's change to
// an array it was given.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "../../../scripts/fast-check.js";
import { createMistralToolCallIdNormalizer, transformMessages } from "../src/index.js";
import { MISSING_TOOL_RESULT_TEXT, type ToolCallIdNormalizer } from "../src/providers/transform-messages.js";
import type { AssistantMessage, Message, StopReason, ToolResultMessage } from "../src/types.js";
import { applyHistoryChange, historyChangeArb } from "./helpers/history-changes.js";
import { assistant, testModel, toolCall, toolResult, user } from "./helpers/messages.js";

const claude = testModel("anthropic", "anthropic-messages", "claude-sonnet-4-5");
const otherClaude = testModel("anthropic", "anthropic-messages", "claude-opus-4-6");
const gpt = testModel("openai", "openai-responses", "gpt-5.4");
const models = [claude, otherClaude, gpt];

const underscoreIds: ToolCallIdNormalizer = (id) => id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
/** The normalizers a request may use: none, one function for every request, a new one per request (Mistral's). */
const normalizers: (() => ToolCallIdNormalizer | undefined)[] = [
	() => undefined,
	() => underscoreIds,
	() => {
		const toMistralId = createMistralToolCallIdNormalizer();
		return (id) => toMistralId(id);
	},
];

// Synthetic results carry Date.now(); a fixed clock makes a remembered one equal to one made afresh.
beforeAll(() => {
	vi.useFakeTimers({ toFake: ["Date"], now: 1_000 });
});
afterAll(() => {
	vi.useRealTimers();
});

/** The history converted afresh: a deep copy has no message any earlier call has seen. */
function afresh(messages: Message[], target = claude, normalize?: ToolCallIdNormalizer): Message[] {
	return transformMessages(structuredClone(messages), target, normalize);
}

const TOOL_IDS = ["a", "b|fc+1", "toolu_01", "c d"];

const blockArb = fc.oneof(
	fc.record({ type: fc.constant("text" as const), text: fc.constantFrom("", " ", "text") }),
	fc.record({
		type: fc.constant("text" as const),
		text: fc.constantFrom("", "signed"),
		textSignature: fc.constant("text-sig"),
	}),
	fc.record({ type: fc.constant("thinking" as const), thinking: fc.constantFrom("", " ", "plan") }),
	fc.record({
		type: fc.constant("thinking" as const),
		thinking: fc.constantFrom("", "plan"),
		thinkingSignature: fc.constant("sig"),
		redacted: fc.boolean(),
	}),
	fc
		.record({ id: fc.constantFrom(...TOOL_IDS), signed: fc.boolean() })
		.map(({ id, signed }) => toolCall(id, "read", signed ? { thoughtSignature: "ts" } : {})),
);

const messageArb: fc.Arbitrary<Message> = fc.oneof(
	fc.constantFrom("q", "next").map((text) => user(text)),
	fc
		.record({
			from: fc.constantFrom(...models),
			content: fc.array(blockArb, { maxLength: 4 }),
			stopReason: fc.constantFrom<(StopReason | undefined)[]>(undefined, "error", "aborted"),
		})
		.map(({ from, content, stopReason }) => assistant(from, content, stopReason)),
	fc.constantFrom(...TOOL_IDS).map((id) => toolResult(id)),
	fc.constantFrom(...TOOL_IDS).map((id) => toolResult(id)),
);

/** What happens to the history before a request, and the request's target and normalizer. */
const stepArb = fc.record({
	change: historyChangeArb(messageArb),
	target: fc.nat(models.length - 1),
	normalizer: fc.nat(normalizers.length - 1),
});

describe("a conversation's requests, one after another", () => {
	it("each give the result of converting the history afresh, and leave the history as it was", () => {
		fc.assert(
			fc.property(fc.array(messageArb, { maxLength: 6 }), fc.array(stepArb, { maxLength: 12 }), (start, steps) => {
				// Every case its own first message, so no case resumes another case's conversation.
				const history: Message[] = [user("first"), ...start];
				for (const { change, target, normalizer } of steps) {
					applyHistoryChange(history, change);
					const before = structuredClone(history);
					const output = transformMessages([...history], models[target], normalizers[normalizer]());
					expect(output).toEqual(afresh(history, models[target], normalizers[normalizer]()));
					expect(history).toEqual(before);
				}
			}),
		);
	});
});

describe("resuming a conversation", () => {
	const history = (): Message[] => [
		user("q"),
		assistant(gpt, [{ type: "thinking", thinking: "plan", thinkingSignature: "{}" }, toolCall("b|fc+1")]),
		toolResult("b|fc+1"),
		assistant(claude, [toolCall("a"), toolCall("toolu_01")]),
		toolResult("a"),
		user("next"),
	];

	it("keeps the messages it produced for the history so far as the same objects", () => {
		const messages = history();
		const first = transformMessages([...messages], claude, underscoreIds);
		messages.push(assistant(claude, [{ type: "text", text: "done" }]), user("more"));
		const second = transformMessages([...messages], claude, underscoreIds);
		// The other model's turn, its renamed result and the synthetic result for toolu_01 are not made again.
		for (const [index, message] of first.entries()) expect(second[index]).toBe(message);
		expect(second).toEqual(afresh(messages, claude, underscoreIds));
	});

	it("gives another target or normalizer its own result, not the conversation's earlier one", () => {
		const messages = history();
		const forClaude = transformMessages([...messages], claude, underscoreIds);
		expect(forClaude[1]).toMatchObject({ content: [{ type: "text", text: "plan" }, { id: "b_fc_1" }] });
		for (const [target, normalize] of [
			[gpt, underscoreIds],
			[claude, undefined],
			[claude, (id: string) => id.slice(0, 1)],
			[otherClaude, underscoreIds],
		] as const) {
			expect(transformMessages([...messages], target, normalize)).toEqual(afresh(messages, target, normalize));
		}
		// Back to the first target: the same result as before.
		expect(transformMessages([...messages], claude, underscoreIds)).toEqual(forClaude);
	});

	it("fills in the missing results at the end of one history only, not in the next that has them", () => {
		const messages: Message[] = [user("q"), assistant(claude, [toolCall("a"), toolCall("b")]), toolResult("a")];
		const partial = transformMessages([...messages], claude);
		expect(partial.map((m) => (m.role === "toolResult" ? m.content[0] : m.role))).toEqual([
			"user",
			"assistant",
			{ type: "text", text: "ok" },
			{ type: "text", text: MISSING_TOOL_RESULT_TEXT },
		]);
		messages.push(toolResult("b", "second"));
		const complete = [...messages];
		expect(transformMessages(complete, claude)).toBe(complete);
	});

	it("sees a message replaced in the history it resumes, and a shorter history", () => {
		const messages = history();
		transformMessages([...messages], claude, underscoreIds);
		messages[1] = assistant(gpt, [{ type: "thinking", thinking: "other plan", thinkingSignature: "{}" }]);
		const edited = transformMessages([...messages], claude, underscoreIds);
		expect(edited[1]).toMatchObject({ content: [{ type: "text", text: "other plan" }] });
		expect(edited).toEqual(afresh(messages, claude, underscoreIds));
		const shorter = messages.slice(0, 3);
		expect(transformMessages(shorter, claude, underscoreIds)).toEqual(afresh(shorter, claude, underscoreIds));
	});

	it("is not changed by a caller changing the array it returned or the array it was given", () => {
		const messages = history();
		const given = [...messages];
		const output = transformMessages(given, claude, underscoreIds);
		output.push(user("pushed by the caller"));
		output.splice(1, 1);
		given.length = 2;
		expect(transformMessages([...messages], claude, underscoreIds)).toEqual(afresh(messages, claude, underscoreIds));
		// A clean history comes back as the array given; the caller's change to it is not remembered either.
		const clean: Message[] = [user("q"), assistant(claude, [toolCall("a")]), toolResult("a")];
		const same = transformMessages(clean, claude);
		expect(same).toBe(clean);
		same.push(user("pushed"), assistant(claude, [], "error"));
		const later: Message[] = [...clean.slice(0, 3), assistant(claude, [toolCall("b")]), user("after")];
		const repaired = transformMessages(later, claude);
		expect(repaired).toEqual(afresh(later));
		expect((repaired[4] as ToolResultMessage).toolCallId).toBe("b");
	});

	it("keeps a failed turn's renames for the results after it, across requests", () => {
		const messages: Message[] = [user("q"), assistant(gpt, [toolCall("b|fc+1")])];
		transformMessages([...messages], claude, underscoreIds);
		messages.push(assistant(gpt, [toolCall("c d")], "aborted"));
		transformMessages([...messages], claude, underscoreIds);
		messages.push(toolResult("b|fc+1"), toolResult("c d"));
		const output = transformMessages([...messages], claude, underscoreIds);
		expect(output.map((m) => (m.role === "toolResult" ? m.toolCallId : m.role))).toEqual([
			"user",
			"assistant",
			"b_fc_1",
		]);
		expect(output).toEqual(afresh(messages, claude, underscoreIds));
		expect((output[1] as AssistantMessage).content).toEqual([toolCall("b_fc_1")]);
	});
});
