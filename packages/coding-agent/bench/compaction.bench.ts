// Compaction preparation: everything before the model call (find the cut point, collect the messages and
// file operations, serialize the transcript, build the request text) on a 200,000-token branch.
//
// Method. A branch is generated with the shape of a real coding session: user prompts (~300 chars), assistant
// turns with thinking, text and one to three tool calls (read/edit/bash with realistic arguments), tool results
// of 1–12 KB, a thinking-level change every 40 entries and one earlier compaction (near the start), until the chars/4 estimate
// passes 200,000 tokens. The figure is the median of 15 runs after 3 warm-up runs, in wall time, with the
// default settings (keep 20,000 recent tokens). The model call itself is excluded: it is network time.
import { it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";
import { buildSummaryRequestText, prepareCompaction, SUMMARIZATION_PROMPT } from "../src/core/compaction/index.js";
import { DEFAULT_COMPACTION_SETTINGS, estimateTokens } from "../src/core/compaction/token-estimation.js";
import type { SessionEntry } from "../src/core/session/entries.js";
import { ASSISTANT_TURN_TOKENS, words } from "./helpers/session-content.js";

const TARGET_TOKENS = 200_000;
const usage = { ...ASSISTANT_TURN_TOKENS, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function generateBranch(): { entries: SessionEntry[]; tokens: number } {
	const entries: SessionEntry[] = [];
	let parentId: string | null = null;
	let clock = Date.parse("2025-01-15T09:00:00.000Z");
	let chars = 0;
	let n = 0;
	const push = (fields: Record<string, unknown>) => {
		const id = (++n).toString(16).padStart(8, "0");
		clock += 500;
		entries.push({ id, parentId, timestamp: new Date(clock).toISOString(), ...fields } as unknown as SessionEntry);
		parentId = id;
		return id;
	};
	let firstKept: string | undefined;
	while (chars / 4 < TARGET_TOKENS) {
		if (n % 40 === 0) push({ type: "thinking_level_change", thinkingLevel: n % 80 === 0 ? "high" : "medium" });
		const prompt = words(50, n);
		chars += prompt.length;
		const userId = push({
			type: "message",
			message: { role: "user", content: [{ type: "text", text: prompt }], timestamp: clock },
		});
		if (n > 40 && !firstKept) {
			firstKept = userId;
			push({
				type: "compaction",
				summary: words(400, n),
				firstKeptEntryId: userId,
				tokensBefore: 40_000,
				details: { readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] },
				fromHook: false,
			});
		}
		for (let step = 0; step < 3; step++) {
			const calls = Array.from({ length: 1 + ((n + step) % 3) }, (_, i) => {
				const kind = ["read", "edit", "bash"][(n + i) % 3] as string;
				const args =
					kind === "read"
						? { path: `src/module-${(n + i) % 97}.ts` }
						: kind === "edit"
							? { path: `src/module-${(n + i) % 97}.ts`, oldText: words(20, n), newText: words(24, n + 1) }
							: { command: `npm test -- --filter module-${(n + i) % 97}` };
				return { type: "toolCall", id: `call_${n}_${step}_${i}`, name: kind, arguments: args };
			});
			const thinking = words(60, n + step);
			const text = words(30, n + step + 1);
			chars += thinking.length + text.length + JSON.stringify(calls).length;
			push({
				type: "message",
				message: {
					role: "assistant",
					content: [{ type: "thinking", thinking }, { type: "text", text }, ...calls],
					api: "anthropic-messages",
					provider: "anthropic",
					model: "claude-sonnet-4-5",
					usage,
					stopReason: "toolUse",
					timestamp: clock,
				},
			});
			for (const call of calls) {
				const output = words(n % 10 === 0 ? 2000 : 200, n + step);
				chars += output.length;
				push({
					type: "message",
					message: {
						role: "toolResult",
						toolCallId: call.id,
						toolName: call.name,
						content: [{ type: "text", text: output }],
						isError: false,
						timestamp: clock,
					},
				});
			}
		}
	}
	return { entries, tokens: Math.round(chars / 4) };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] as number;
}

it("prepares a compaction of a 200,000-token branch", () => {
	const { entries, tokens } = generateBranch();
	const run = () => {
		const preparation = prepareCompaction(entries, DEFAULT_COMPACTION_SETTINGS);
		if (!preparation) throw new Error("nothing to compact");
		const text = buildSummaryRequestText(
			preparation.messagesToSummarize,
			SUMMARIZATION_PROMPT,
			preparation.previousSummary,
		);
		return { preparation, text };
	};
	for (let i = 0; i < 3; i++) run();
	const times: number[] = [];
	let last = run();
	for (let i = 0; i < 15; i++) {
		const start = performance.now();
		last = run();
		times.push(performance.now() - start);
	}
	const estimate = last.preparation.messagesToSummarize.reduce((sum, message) => sum + estimateTokens(message), 0);
	reportBenchmark("compaction", [
		{ name: "branch size (chars/4)", value: tokens, unit: "tokens", note: `${entries.length} entries` },
		{
			name: "summarized part (chars/4)",
			value: estimate,
			unit: "tokens",
			note: `${last.preparation.messagesToSummarize.length} messages`,
		},
		{ name: "request text", value: last.text.length, unit: "chars" },
		{ name: "prepare + serialize (median of 15)", value: median(times), unit: "ms", target: { max: 100 } },
	]);
});
