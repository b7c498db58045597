import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import { prepareCompaction } from "../../src/core/compaction/compaction.js";
import { findCutPoint } from "../../src/core/compaction/cut-point.js";
import { estimateTokens } from "../../src/core/compaction/token-estimation.js";
import type { SessionEntry } from "../../src/core/session/entries.js";
import {
	assistant,
	chain,
	messageEntry,
	text,
	thinkingEntry,
	toolCall,
	toolResult,
	user,
} from "../helpers/runtime-entries.js";

interface TurnSpec {
	userChars: number;
	steps: { toolCalls: number; chars: number; resultChars: number }[];
	settingsChangeBefore: boolean;
}

const turnArbitrary: fc.Arbitrary<TurnSpec> = fc.record({
	userChars: fc.integer({ min: 1, max: 4000 }),
	steps: fc.array(
		fc.record({
			toolCalls: fc.integer({ min: 0, max: 2 }),
			chars: fc.integer({ min: 0, max: 4000 }),
			resultChars: fc.integer({ min: 1, max: 8000 }),
		}),
		{ minLength: 1, maxLength: 3 },
	),
	settingsChangeBefore: fc.boolean(),
});

function buildBranch(turns: TurnSpec[]): SessionEntry[] {
	const entries: SessionEntry[] = [];
	for (const turn of turns) {
		if (turn.settingsChangeBefore) entries.push(thinkingEntry());
		entries.push(messageEntry(user(text(turn.userChars))));
		for (const step of turn.steps) {
			const calls = Array.from({ length: step.toolCalls }, () => toolCall("read", { path: "a.ts" }));
			entries.push(messageEntry(assistant(text(step.chars), { toolCalls: calls })));
			for (const call of calls) entries.push(messageEntry(toolResult(call, text(step.resultChars))));
		}
	}
	return chain(entries);
}

function messageTokens(entries: readonly SessionEntry[], from: number): number {
	let tokens = 0;
	for (let i = from; i < entries.length; i++) {
		const entry = entries[i] as SessionEntry;
		if (entry.type === "message") tokens += estimateTokens(entry.message);
	}
	return tokens;
}

describe("findCutPoint", () => {
	it("keeps the newest messages up to the budget and cuts at the user message that starts their turn", () => {
		const entries = chain([
			messageEntry(user(text(400))),
			messageEntry(assistant(text(400))),
			messageEntry(user(text(400))),
			messageEntry(assistant(text(400))),
		]);
		expect(findCutPoint(entries, 0, entries.length, 150)).toEqual({
			firstKeptEntryIndex: 2,
			turnStartIndex: -1,
			isSplitTurn: false,
		});
	});

	it("never cuts at a tool result: the cut moves to the next assistant message and the turn is split", () => {
		const call = toolCall("read", { path: "big.txt" });
		const entries = chain([
			messageEntry(user(text(40))),
			messageEntry(assistant("", { toolCalls: [call] })),
			messageEntry(toolResult(call, text(4000))),
			messageEntry(assistant(text(40))),
		]);
		const cut = findCutPoint(entries, 0, entries.length, 500);
		expect(cut).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: 0, isSplitTurn: true });
	});

	it("keeps settings changes just before the cut with the kept part, without splitting the turn", () => {
		const entries = chain([
			messageEntry(user(text(400))),
			messageEntry(assistant(text(400))),
			thinkingEntry(),
			messageEntry(user(text(400))),
			messageEntry(assistant(text(400))),
		]);
		expect(findCutPoint(entries, 0, entries.length, 150)).toEqual({
			firstKeptEntryIndex: 2,
			turnStartIndex: -1,
			isSplitTurn: false,
		});
	});

	it("keeps everything from the boundary when there is no valid cut point", () => {
		const call = toolCall("read", { path: "a" });
		const entries = chain([messageEntry(toolResult(call, text(100)))]);
		expect(findCutPoint(entries, 0, 1, 10)).toEqual({
			firstKeptEntryIndex: 0,
			turnStartIndex: -1,
			isSplitTurn: false,
		});
	});

	it("holds its invariants on random branches (property)", () => {
		fc.assert(
			fc.property(
				fc.array(turnArbitrary, { minLength: 1, maxLength: 8 }),
				fc.integer({ min: 1, max: 6000 }),
				(turns, keepRecentTokens) => {
					const entries = buildBranch(turns);
					const cut = findCutPoint(entries, 0, entries.length, keepRecentTokens);
					const first = entries[cut.firstKeptEntryIndex] as SessionEntry;
					// A tool result never starts the kept part.
					expect(first.type === "message" && first.message.role === "toolResult").toBe(false);
					// At least the budget is kept, except that the cut may move forward over tool results (which
					// must stay with their call) to the next valid cut point.
					let crossing = Number.POSITIVE_INFINITY;
					for (let i = entries.length - 1; i >= 0; i--) {
						if (messageTokens(entries, i) >= keepRecentTokens) {
							crossing = i;
							break;
						}
					}
					let cutPoint = cut.firstKeptEntryIndex;
					while ((entries[cutPoint] as SessionEntry).type !== "message") cutPoint++;
					if (crossing === Number.POSITIVE_INFINITY) expect(cut.firstKeptEntryIndex).toBeLessThanOrEqual(cutPoint);
					for (let i = crossing; i < cutPoint; i++) {
						const entry = entries[i] as SessionEntry;
						expect(entry.type !== "message" || entry.message.role === "toolResult").toBe(true);
					}
					if (cut.isSplitTurn) {
						const start = entries[cut.turnStartIndex] as SessionEntry;
						expect(cut.turnStartIndex).toBeLessThan(cut.firstKeptEntryIndex);
						expect(start.type === "message" && start.message.role === "user").toBe(true);
						// No other user message between the turn start and the cut.
						for (let i = cut.turnStartIndex + 1; i < cut.firstKeptEntryIndex; i++) {
							const entry = entries[i] as SessionEntry;
							expect(entry.type === "message" && entry.message.role === "user").toBe(false);
						}
					} else {
						expect(cut.turnStartIndex).toBe(-1);
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("prepareCompaction that must make progress", () => {
	const hugeBudget = { enabled: true, reserveTokens: 16384, keepRecentTokens: 10_000_000 };

	it("summarizes what precedes the last turn when the budget keeps everything", () => {
		fc.assert(
			fc.property(fc.array(turnArbitrary, { minLength: 2, maxLength: 5 }), (turns) => {
				const entries = buildBranch(turns);
				expect(prepareCompaction(entries, hugeBudget)).toBeUndefined();
				const preparation = prepareCompaction(entries, hugeBudget, { mustMakeProgress: true });
				expect(preparation).toBeDefined();
				const kept = entries.findIndex((entry) => entry.id === preparation?.firstKeptEntryId);
				const lastUser = entries.findLastIndex(
					(entry) => entry.type === "message" && entry.message.role === "user",
				);
				// The kept part starts at the last prompt, with the settings changes just before it.
				expect(kept).toBeLessThanOrEqual(lastUser);
				expect(entries.slice(kept, lastUser).every((entry) => entry.type !== "message")).toBe(true);
				expect(preparation?.isSplitTurn).toBe(false);
				expect(preparation?.messagesToSummarize.length).toBeGreaterThan(0);
			}),
		);
	});

	it("splits the only turn, keeping its last cut point, and refuses a lone prompt", () => {
		fc.assert(
			fc.property(turnArbitrary, (turn) => {
				const entries = buildBranch([turn]);
				const preparation = prepareCompaction(entries, hugeBudget, { mustMakeProgress: true });
				expect(preparation?.isSplitTurn).toBe(true);
				expect(preparation?.turnPrefixMessages[0]?.role).toBe("user");
				const kept = entries.find((entry) => entry.id === preparation?.firstKeptEntryId);
				expect(kept?.type === "message" && kept.message.role).toBe("assistant");
			}),
		);
		const lone = chain([thinkingEntry(), messageEntry(user(text(10)))]);
		expect(prepareCompaction(lone, hugeBudget, { mustMakeProgress: true })).toBeUndefined();
		const failed = chain([
			messageEntry(user(text(10))),
			messageEntry({ ...assistant(""), stopReason: "error", errorMessage: "prompt is too long" }),
		]);
		expect(prepareCompaction(failed, hugeBudget, { mustMakeProgress: true })).toBeUndefined();
	});
});
