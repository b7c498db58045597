// A conversation's history between requests, for property tests of what a request reuses from the previous
// one: usually messages added at the end, sometimes one replaced (an edit) or the history cut short (a branch,
// compaction).
import fc from "../../../../scripts/fast-check.js";
import type { Message } from "../../src/types.js";

export type HistoryChange =
	| { kind: "append"; messages: Message[] }
	| { kind: "replace"; at: number; message: Message }
	| { kind: "truncate"; to: number };

export function historyChangeArb(messageArb: fc.Arbitrary<Message>): fc.Arbitrary<HistoryChange> {
	return fc.oneof(
		{
			weight: 6,
			arbitrary: fc.record({
				kind: fc.constant("append" as const),
				messages: fc.array(messageArb, { maxLength: 3 }),
			}),
		},
		{ weight: 1, arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), message: messageArb }) },
		{ weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), to: fc.nat() }) },
	);
}

/** Applies `change` in place; the first message (the conversation's) is never replaced or removed. */
export function applyHistoryChange(history: Message[], change: HistoryChange): void {
	if (change.kind === "append") history.push(...change.messages);
	else if (change.kind === "replace") history[1 + (change.at % history.length)] = change.message;
	else history.length = Math.max(1, change.to % (history.length + 1));
}
