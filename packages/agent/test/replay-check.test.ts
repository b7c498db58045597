import { type AssistantMessage, FauxProvider, type Message, transformMessages } from "@agent/ai";
import { describe, expect, it } from "vitest";
import fc from "../../../scripts/fast-check.js";
import { needsPairingRepair } from "../src/replay-check.js";

const model = new FauxProvider().model();
const ids = ["a", "b", "c"];

const assistant = (stopReason: AssistantMessage["stopReason"], callIds: string[]): AssistantMessage => ({
	role: "assistant",
	content: callIds.map((id) => ({ type: "toolCall", id, name: "t", arguments: {} })),
	api: model.api,
	provider: model.provider,
	model: model.id,
	usage: {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	},
	stopReason,
	timestamp: 0,
});

const messageArbitrary: fc.Arbitrary<Message> = fc.oneof(
	fc.constant<Message>({ role: "user", content: "u", timestamp: 0 }),
	fc
		.tuple(fc.constantFrom<AssistantMessage["stopReason"]>("stop", "toolUse", "error", "aborted"), fc.subarray(ids))
		.map(([stopReason, callIds]) => assistant(stopReason, callIds)),
	fc.constantFrom(...ids).map(
		(id): Message => ({
			role: "toolResult",
			toolCallId: id,
			toolName: "t",
			content: [],
			isError: false,
			timestamp: 0,
		}),
	),
);

/** Roles and tool ids in order: what pairing repair can change. */
const shape = (messages: Message[]) =>
	messages.map((m) =>
		m.role === "toolResult"
			? `result:${m.toolCallId}`
			: m.role === "assistant"
				? `assistant:${m.content.map((b) => (b.type === "toolCall" ? b.id : "")).join(",")}`
				: m.role,
	);

describe("needsPairingRepair", () => {
	it("is true exactly when transformMessages would change the history's structure", () => {
		fc.assert(
			fc.property(fc.array(messageArbitrary, { maxLength: 12 }), (messages) => {
				const repaired = transformMessages(messages, model);
				expect(needsPairingRepair(messages)).toBe(shape(repaired).join("|") !== shape(messages).join("|"));
			}),
			{ numRuns: 2000 },
		);
	});

	it("gives the same answer when a history grows, is edited or is cut back between calls", () => {
		const needsRepair = (messages: Message[]) =>
			shape(transformMessages(messages, model)).join("|") !== shape(messages).join("|");
		fc.assert(
			fc.property(
				fc.array(messageArbitrary, { minLength: 1, maxLength: 12 }),
				fc.nat(),
				messageArbitrary,
				(messages, at, replacement) => {
					// Each call scans only what the previous one did not see; each must match a full check.
					for (let length = 1; length <= messages.length; length++) {
						const history = messages.slice(0, length);
						expect(needsPairingRepair(history)).toBe(needsRepair(history));
					}
					const edited = [...messages];
					edited[at % edited.length] = { ...replacement };
					expect(needsPairingRepair(edited)).toBe(needsRepair(edited));
					const cut = messages.slice(0, at % messages.length);
					expect(needsPairingRepair(cut)).toBe(needsRepair(cut));
				},
			),
			{ numRuns: 1000 },
		);
	});

	it("gives the same answer when the caller grows or edits one array in place between calls (an identity convertToLlm)", () => {
		const needsRepair = (messages: Message[]) =>
			shape(transformMessages(messages, model)).join("|") !== shape(messages).join("|");
		fc.assert(
			fc.property(fc.array(messageArbitrary, { minLength: 1, maxLength: 12 }), (messages) => {
				const history: Message[] = [];
				for (const message of messages) {
					history.push(message);
					expect(needsPairingRepair(history)).toBe(needsRepair(history));
				}
				// Edited in place, anywhere.
				history[history.length >> 1] = { ...messages[0] };
				expect(needsPairingRepair(history)).toBe(needsRepair(history));
			}),
			{ numRuns: 1000 },
		);
	});

	it("accepts a well-formed history and the turn in progress", () => {
		const history: Message[] = [
			{ role: "user", content: "go", timestamp: 0 },
			assistant("toolUse", ["a", "b"]),
			{ role: "toolResult", toolCallId: "b", toolName: "t", content: [], isError: false, timestamp: 0 },
			{ role: "toolResult", toolCallId: "a", toolName: "t", content: [], isError: false, timestamp: 0 },
			assistant("stop", []),
		];
		expect(needsPairingRepair(history)).toBe(false);
		expect(needsPairingRepair(history.slice(0, 2))).toBe(false);
		expect(needsPairingRepair(history.slice(0, 3))).toBe(true);
	});
});
