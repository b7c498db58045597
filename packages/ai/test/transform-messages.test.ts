import { describe, expect, it } from "vitest";
import fc from "../../../scripts/fast-check.js";
import { createMistralToolCallIdNormalizer, transformMessages } from "../src/index.js";
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from "../src/types.js";
import { assistant, testModel, toolCall, toolResult, user } from "./helpers/messages.js";

const claude = testModel("anthropic", "anthropic-messages", "claude-sonnet-4-5");
const otherClaude = testModel("anthropic", "anthropic-messages", "claude-opus-4-6");
const gpt = testModel("openai", "openai-responses", "gpt-5.4");
const proxiedClaude = testModel("openrouter", "openai-completions", "claude-sonnet-4-5");

const underscoreIds = (id: string) => id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);

function assistantAt(messages: Message[], index: number): AssistantMessage {
	const message = messages[index];
	if (message?.role !== "assistant") throw new Error(`message ${index} is ${message?.role}, not assistant`);
	return message;
}

describe("user messages", () => {
	it("pass through as the same objects", () => {
		const input = [user("hi")];
		expect(transformMessages(input, gpt)[0]).toBe(input[0]);
	});
});

describe("thinking from the same model", () => {
	it("keeps signed thinking even when its text is empty", () => {
		const block = { type: "thinking" as const, thinking: "", thinkingSignature: "sig" };
		const out = transformMessages([user("q"), assistant(claude, [block, { type: "text", text: "a" }])], claude);
		expect(assistantAt(out, 1).content).toEqual([block, { type: "text", text: "a" }]);
	});

	it("keeps redacted thinking with its payload", () => {
		const block = {
			type: "thinking" as const,
			thinking: "[Reasoning redacted]",
			thinkingSignature: "enc",
			redacted: true,
		};
		const out = transformMessages([user("q"), assistant(claude, [block])], claude);
		expect(assistantAt(out, 1).content).toEqual([block]);
	});

	it("drops unsigned whitespace-only thinking and keeps unsigned thinking with text", () => {
		const out = transformMessages(
			[
				user("q"),
				assistant(claude, [
					{ type: "thinking", thinking: " \n" },
					{ type: "thinking", thinking: "hmm" },
				]),
			],
			claude,
		);
		expect(assistantAt(out, 1).content).toEqual([{ type: "thinking", thinking: "hmm" }]);
	});

	it("keeps text signatures and tool-call thought signatures", () => {
		const content: AssistantMessage["content"] = [
			{ type: "text", text: "a", textSignature: '{"v":1,"id":"msg_1"}' },
			toolCall("call_1|fc_1", "read", { thoughtSignature: "ts" }),
		];
		const out = transformMessages(
			[user("q"), assistant(gpt, content), toolResult("call_1|fc_1")],
			gpt,
			() => "renamed",
		);
		expect(assistantAt(out, 1).content).toEqual(content);
		expect((out[2] as ToolResultMessage).toolCallId).toBe("call_1|fc_1");
	});
});

describe("content from another model", () => {
	it("turns thinking into plain text and drops redacted and empty thinking", () => {
		const out = transformMessages(
			[
				user("q"),
				assistant(claude, [
					{ type: "thinking", thinking: "step 1", thinkingSignature: "sig" },
					{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "enc", redacted: true },
					{ type: "thinking", thinking: "", thinkingSignature: "sig2" },
					{ type: "text", text: "answer" },
				]),
			],
			gpt,
		);
		expect(assistantAt(out, 1).content).toEqual([
			{ type: "text", text: "step 1" },
			{ type: "text", text: "answer" },
		]);
	});

	it("treats a different model id of the same provider and api as another model", () => {
		const out = transformMessages(
			[user("q"), assistant(claude, [{ type: "thinking", thinking: "x", thinkingSignature: "sig" }])],
			otherClaude,
		);
		expect(assistantAt(out, 1).content).toEqual([{ type: "text", text: "x" }]);
	});

	it("treats the same model id served by another provider as another model", () => {
		const out = transformMessages(
			[user("q"), assistant(claude, [{ type: "text", text: "a", textSignature: "s" }])],
			proxiedClaude,
		);
		expect(assistantAt(out, 1).content).toEqual([{ type: "text", text: "a" }]);
	});

	it("removes thought signatures from tool calls", () => {
		const out = transformMessages(
			[user("q"), assistant(gpt, [toolCall("c1", "read", { thoughtSignature: "ts" })]), toolResult("c1")],
			claude,
		);
		expect(assistantAt(out, 1).content).toEqual([toolCall("c1")]);
	});

	it("renames normalized tool-call ids on the call and its result", () => {
		const out = transformMessages(
			[user("q"), assistant(gpt, [toolCall("call_1|fc+1")]), toolResult("call_1|fc+1"), user("next")],
			claude,
			underscoreIds,
		);
		expect(assistantAt(out, 1).content).toEqual([toolCall("call_1_fc_1")]);
		expect((out[2] as ToolResultMessage).toolCallId).toBe("call_1_fc_1");
	});

	it("passes the source assistant message to the normalizer", () => {
		const source = assistant(gpt, [toolCall("a|b")]);
		const seen: unknown[] = [];
		transformMessages([user("q"), source, toolResult("a|b")], claude, (id, model, from) => {
			seen.push([id, model.id, from]);
			return id;
		});
		expect(seen).toEqual([["a|b", claude.id, source]]);
	});
});

describe("orphaned tool calls", () => {
	it("inserts a synthetic error result before the next user message", () => {
		const out = transformMessages(
			[user("q"), assistant(claude, [toolCall("t1"), toolCall("t2")]), toolResult("t1"), user("stop")],
			claude,
		);
		expect(out.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "user"]);
		expect(out[3]).toMatchObject({
			role: "toolResult",
			toolCallId: "t2",
			toolName: "read",
			content: [{ type: "text", text: "No result provided" }],
			isError: true,
		});
		expect(typeof (out[3] as ToolResultMessage).timestamp).toBe("number");
	});

	it("inserts synthetic results before the next assistant message", () => {
		const out = transformMessages(
			[user("q"), assistant(claude, [toolCall("t1")]), assistant(claude, [{ type: "text", text: "done" }])],
			claude,
		);
		expect(out.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect((out[2] as ToolResultMessage).toolCallId).toBe("t1");
	});

	it("leaves calls of a final assistant message without results", () => {
		const out = transformMessages([user("q"), assistant(claude, [toolCall("t1")])], claude);
		expect(out.map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	it("completes the results of the final turn when the history ends with some of them", () => {
		const out = transformMessages(
			[user("q"), assistant(claude, [toolCall("t1"), toolCall("t2")]), toolResult("t1")],
			claude,
		);
		expect(out.map((m) => (m.role === "toolResult" ? m.toolCallId : m.role))).toEqual([
			"user",
			"assistant",
			"t1",
			"t2",
		]);
	});

	it("drops a result that arrives after the next user message and keeps the synthetic one", () => {
		const out = transformMessages(
			[user("q"), assistant(claude, [toolCall("t1")]), user("wait"), toolResult("t1", "late")],
			claude,
		);
		expect(out.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
		expect((out[2] as ToolResultMessage).isError).toBe(true);
	});

	it("keeps only the first of two results for the same call", () => {
		const out = transformMessages(
			[user("q"), assistant(claude, [toolCall("t1")]), toolResult("t1", "first"), toolResult("t1", "second")],
			claude,
		);
		expect(out).toHaveLength(3);
		expect((out[2] as ToolResultMessage).content).toEqual([{ type: "text", text: "first" }]);
	});
});

describe("failed turns", () => {
	it.each(["error", "aborted"] as const)("removes an assistant message that ended with %s", (stopReason) => {
		const out = transformMessages(
			[user("q"), assistant(claude, [{ type: "text", text: "partial" }], stopReason), user("again")],
			claude,
		);
		expect(out.map((m) => m.role)).toEqual(["user", "user"]);
	});

	it("removes the tool results of a removed turn along with it", () => {
		const out = transformMessages(
			[user("q"), assistant(claude, [toolCall("t1")], "aborted"), toolResult("t1"), user("again")],
			claude,
		);
		expect(out.map((m) => m.role)).toEqual(["user", "user"]);
	});

	it("places synthetic results for the turn before a failed one ahead of the next valid message", () => {
		const out = transformMessages(
			[user("q"), assistant(claude, [toolCall("t1")]), assistant(claude, [], "error"), user("again")],
			claude,
		);
		expect(out.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
	});

	it("keeps a real result that follows a failed turn when it answers the earlier call", () => {
		const out = transformMessages(
			[user("q"), assistant(gpt, [toolCall("a|b")]), assistant(gpt, [toolCall("c|d")], "error"), toolResult("a|b")],
			claude,
			underscoreIds,
		);
		expect(out).toHaveLength(3);
		expect(out[2]).toMatchObject({ toolCallId: "a_b", isError: false });
	});
});

describe("immutability", () => {
	it("never changes the input messages", () => {
		const input: Message[] = [
			user("q"),
			assistant(gpt, [
				{ type: "thinking", thinking: "t", thinkingSignature: "{}" },
				toolCall("a|b", "read", { thoughtSignature: "ts" }),
			]),
			toolResult("a|b"),
			assistant(gpt, [toolCall("x")], "aborted"),
			user("next"),
		];
		const before = structuredClone(input);
		transformMessages(input, claude, underscoreIds);
		expect(input).toEqual(before);
	});
});

describe("Mistral tool-call ids through transformMessages", () => {
	const mistral = testModel("mistral", "openai-completions", "devstral-medium-latest");

	it("gives every foreign call a 9-alphanumeric id and its result the same one", () => {
		const normalize = createMistralToolCallIdNormalizer();
		const out = transformMessages(
			[
				user("q"),
				assistant(gpt, [toolCall("call_abc|fc_123"), toolCall("toolu_01XYZ")]),
				toolResult("call_abc|fc_123"),
				toolResult("toolu_01XYZ"),
			],
			mistral,
			normalize,
		);
		const ids = assistantAt(out, 1).content.map((block) => (block as ToolCall).id);
		for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
		expect(new Set(ids).size).toBe(2);
		expect(out.slice(2).map((m) => (m as ToolResultMessage).toolCallId)).toEqual(ids);
	});

	it("keeps ids that are already valid and maps a repeated id to the same result", () => {
		const normalize = createMistralToolCallIdNormalizer();
		expect(normalize("aB3dE6gH9")).toBe("aB3dE6gH9");
		expect(normalize("toolu_01XYZ")).toBe(normalize("toolu_01XYZ"));
	});

	it("never hands out one id for two different inputs", () => {
		fc.assert(
			fc.property(fc.uniqueArray(fc.string(), { maxLength: 50 }), (ids) => {
				const normalize = createMistralToolCallIdNormalizer();
				const normalized = ids.map(normalize);
				expect(new Set(normalized).size).toBe(ids.length);
				for (const id of normalized) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
			}),
		);
	});
});

describe("repeated requests over one history", () => {
	it("pass a turn replayed to its own model through as the same object", () => {
		const turn = assistant(claude, [{ type: "text", text: "a" }, toolCall("c1")]);
		const out = transformMessages([user("q"), turn, toolResult("c1")], claude);
		expect(out[1]).toBe(turn);
	});

	it("return the input array when nothing changes, and a new one without touching the input when it does", () => {
		const clean = [user("q"), assistant(claude, [toolCall("c1")]), toolResult("c1"), user("next")];
		expect(transformMessages(clean, claude)).toBe(clean);
		const broken = [user("q"), assistant(claude, [toolCall("c1")]), assistant(claude, [], "error"), user("next")];
		const snapshot = [...broken];
		const repaired = transformMessages(broken, claude);
		expect(repaired).not.toBe(broken);
		expect(repaired.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
		expect(broken).toEqual(snapshot);
	});

	it("reuse another model's adapted turn for the same target, and adapt it anew for another target", () => {
		const turn = assistant(claude, [{ type: "thinking", thinking: "x", thinkingSignature: "sig" }]);
		const history = [user("q"), turn];
		const first = transformMessages(history, gpt);
		expect(transformMessages(history, gpt)[1]).toBe(first[1]);
		expect(assistantAt(first, 1).content).toEqual([{ type: "text", text: "x" }]);
		// Back to the model that wrote it: the signed thinking again, not the cached text.
		expect(assistantAt(transformMessages(history, claude), 1).content).toEqual(turn.content);
		expect(assistantAt(transformMessages(history, otherClaude), 1).content).toEqual([{ type: "text", text: "x" }]);
		expect(turn.content).toEqual([{ type: "thinking", thinking: "x", thinkingSignature: "sig" }]);
	});

	it("rename ids again when the normalizer changes, on the call and its result", () => {
		const history = [user("q"), assistant(gpt, [toolCall("call_1|fc+1")]), toolResult("call_1|fc+1"), user("n")];
		const underscored = transformMessages(history, claude, underscoreIds);
		expect((underscored[2] as ToolResultMessage).toolCallId).toBe("call_1_fc_1");
		const shortened = transformMessages(history, claude, (id) => id.slice(0, 6));
		expect(assistantAt(shortened, 1).content).toEqual([toolCall("call_1")]);
		expect((shortened[2] as ToolResultMessage).toolCallId).toBe("call_1");
		expect(transformMessages(history, claude, underscoreIds)).toEqual(underscored);
		expect((history[2] as ToolResultMessage).toolCallId).toBe("call_1|fc+1");
	});

	it("give the same result on every call when a failed turn's renames carry over", () => {
		const history = [
			user("q"),
			assistant(gpt, [toolCall("a|1")]),
			assistant(gpt, [toolCall("b|2")], "error"),
			toolResult("a|1"),
		];
		const first = transformMessages(history, claude, underscoreIds);
		expect(first.map((m) => (m.role === "toolResult" ? m.toolCallId : m.role))).toEqual(["user", "assistant", "a_1"]);
		expect(transformMessages(history, claude, underscoreIds)).toEqual(first);
	});

	it("see a replaced message rather than the earlier one's conversion", () => {
		const history: Message[] = [user("q"), assistant(claude, [{ type: "thinking", thinking: "old" }])];
		expect(assistantAt(transformMessages(history, gpt), 1).content).toEqual([{ type: "text", text: "old" }]);
		history[1] = assistant(claude, [{ type: "thinking", thinking: "new" }]);
		expect(assistantAt(transformMessages(history, gpt), 1).content).toEqual([{ type: "text", text: "new" }]);
	});
});
