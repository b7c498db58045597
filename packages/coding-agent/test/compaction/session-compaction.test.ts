import { type FauxRequest, type FauxScript, fauxError, fauxText } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { STREAMING_WITHOUT_BEHAVIOR_TEXT } from "../../src/core/agent-session.js";
import { SUMMARIZATION_SYSTEM_PROMPT } from "../../src/core/compaction/prompts.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import {
	COMPACTION_IN_PROGRESS_TEXT,
	NOTHING_TO_COMPACT_TEXT,
	OVERFLOW_RECOVERY_FAILED_TEXT,
} from "../../src/core/session-runtime/compaction-controller.js";
import { deferred } from "../helpers/deferred.js";
import { messageTextsOf } from "../helpers/message-text.js";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";

let harness: RuntimeHarness | undefined;
afterEach(() => {
	harness?.dispose();
	harness = undefined;
});

const LONG = "x".repeat(400);
const OVERFLOW = "prompt is too long: 12000 tokens > 10000 maximum";
const SMALL_WINDOW = { models: [{ contextWindow: 10_000 }] };
const COMPACTION_SETTINGS = { compaction: { reserveTokens: 2000, keepRecentTokens: 50 }, retry: { baseDelayMs: 1 } };

function isSummaryRequest(request: FauxRequest): boolean {
	return request.context.systemPrompt === SUMMARIZATION_SYSTEM_PROMPT;
}

/** Queues the first turn's answer (3000 input tokens, under the threshold) and then `later`; runs the first turn. */
async function runFirstTurn(h: RuntimeHarness, ...later: FauxScript[]): Promise<void> {
	h.faux.enqueue(fauxText("first answer", { usage: { input: 3000 } }), ...later);
	await h.session.prompt("first");
}

async function compactingHarness() {
	return createRuntimeHarness({ ...SMALL_WINDOW, settings: COMPACTION_SETTINGS });
}

describe("threshold compaction", () => {
	it("compacts after a run that passes contextWindow − reserveTokens, persists the entry, and a reload rebuilds the same context", async () => {
		harness = await compactingHarness();
		await runFirstTurn(harness, fauxText("ok", { usage: { input: 8500 } }), fauxText("## Goal\nThe summary"));
		expect(harness.eventsOf("auto_compaction_start")).toEqual([]);
		await harness.session.prompt(LONG);

		const types = harness.eventTypes();
		expect(types.slice(types.lastIndexOf("agent_end"))).toEqual([
			"agent_end",
			"auto_compaction_start",
			"auto_compaction_end",
		]);
		expect(harness.eventsOf("auto_compaction_start")).toEqual([
			{ type: "auto_compaction_start", reason: "threshold" },
		]);
		const [end] = harness.eventsOf("auto_compaction_end");
		expect(end).toMatchObject({ aborted: false, willRetry: false });
		expect(end?.result?.summary).toBe("## Goal\nThe summary");

		const compaction = harness.sessionManager.getEntries().at(-1);
		expect(compaction?.type).toBe("compaction");
		expect(compaction).toMatchObject({ summary: "## Goal\nThe summary", fromHook: false });
		expect(harness.session.messages.map((message) => message.role)).toEqual([
			"compactionSummary",
			"user",
			"assistant",
		]);
		expect(harness.faux.requests.filter(isSummaryRequest)).toHaveLength(1);

		const file = harness.session.sessionFile as string;
		harness.sessionManager.close();
		const reopened = SessionManager.open(file);
		try {
			expect(reopened.buildSessionContext().messages).toEqual(harness.session.messages);
		} finally {
			reopened.close();
		}
	});

	it("sends the compacted context, system prompt unchanged, on the next prompt", async () => {
		harness = await compactingHarness();
		await runFirstTurn(
			harness,
			fauxText("ok", { usage: { input: 8500 } }),
			fauxText("The summary"),
			fauxText("next"),
		);
		await harness.session.prompt(LONG);
		await harness.session.prompt("continue");
		const [before, after] = [harness.faux.requests[1], harness.faux.requests[3]];
		expect(after?.context.systemPrompt).toBe(before?.context.systemPrompt);
		const texts = messageTextsOf(after);
		expect(texts[0]).toBe(
			"The conversation history before this point was compacted into the following summary:\n\n<summary>\nThe summary\n</summary>",
		);
		expect(texts.slice(1)).toEqual([LONG, "ok", "continue"]);
	});

	it("reports a failed summary, keeps the context, and stays usable without retrying in a loop", async () => {
		harness = await compactingHarness();
		await runFirstTurn(
			harness,
			fauxText("ok", { usage: { input: 8500 } }),
			fauxError("400 prompt is too long for the summarizer"),
		);
		await harness.session.prompt(LONG);

		expect(harness.eventsOf("auto_compaction_end")).toEqual([
			{
				type: "auto_compaction_end",
				aborted: false,
				willRetry: false,
				errorMessage: "Auto-compaction failed: Summarization failed: 400 prompt is too long for the summarizer",
			},
		]);
		expect(harness.sessionManager.getEntries().some((entry) => entry.type === "compaction")).toBe(false);
		expect(harness.session.messages).toHaveLength(4);
		expect(harness.session.isCompacting).toBe(false);
		expect(harness.faux.pending).toBe(0);

		// The next prompt tries once more before sending (still over the threshold), then runs normally.
		harness.faux.enqueue(fauxError("400 still too long"), fauxText("still here", { usage: { input: 100 } }));
		await harness.session.prompt("are you there?");
		expect(harness.session.getLastAssistantText()).toBe("still here");
		expect(harness.eventsOf("auto_compaction_start")).toHaveLength(2);
	});

	it("delivers messages queued during compaction afterwards", async () => {
		harness = await compactingHarness();
		const gate = deferred();
		await runFirstTurn(
			harness,
			fauxText("ok", { usage: { input: 8500 } }),
			fauxText("The summary", { holdUntil: gate.promise }),
			fauxText("handled the queued message", { usage: { input: 100 } }),
		);
		const running = harness.session.prompt(LONG);
		await harness.nextEvent("auto_compaction_start");
		expect(harness.session.isCompacting).toBe(true);
		await expect(harness.session.prompt("without behaviour")).rejects.toThrow(STREAMING_WITHOUT_BEHAVIOR_TEXT);
		await harness.session.prompt("also check the docs", { streamingBehavior: "followUp" });
		expect(harness.session.pendingMessageCount).toBe(1);
		gate.resolve();
		await running;

		expect(harness.session.pendingMessageCount).toBe(0);
		expect(harness.session.getLastAssistantText()).toBe("handled the queued message");
		expect(messageTextsOf(harness.faux.requests.at(-1)).at(-1)).toBe("also check the docs");
	});
});

describe("overflow recovery", () => {
	it("compacts, then retries the failed request once on the compacted context", async () => {
		harness = await compactingHarness();
		await runFirstTurn(harness, fauxError(OVERFLOW), fauxText("The summary"), fauxText("recovered"));
		await harness.session.prompt(LONG);

		expect(harness.eventsOf("auto_compaction_start")).toEqual([
			{ type: "auto_compaction_start", reason: "overflow" },
		]);
		expect(harness.eventsOf("auto_compaction_end")[0]).toMatchObject({ aborted: false, willRetry: true });
		expect(harness.eventsOf("auto_retry_start")).toEqual([]);
		expect(harness.session.getLastAssistantText()).toBe("recovered");
		const retried = harness.faux.requests[3];
		expect(messageTextsOf(retried)).toHaveLength(2);
		expect(messageTextsOf(retried)[1]).toBe(LONG);
		// The failed reply stays in the file but not in the context.
		expect(harness.session.messages.map((message) => message.role)).toEqual([
			"compactionSummary",
			"user",
			"assistant",
		]);
		const stored = harness.sessionManager.getEntries().filter((entry) => entry.type === "message");
		expect(
			stored.some(
				(entry) =>
					entry.type === "message" && entry.message.role === "assistant" && entry.message.stopReason === "error",
			),
		).toBe(true);
	});

	it("gives up after one compact-and-retry attempt per prompt instead of looping", async () => {
		harness = await compactingHarness();
		await runFirstTurn(harness, fauxError(OVERFLOW), fauxText("The summary"), fauxError(OVERFLOW));
		await harness.session.prompt(LONG);

		expect(harness.eventsOf("auto_compaction_start")).toHaveLength(1);
		expect(harness.eventsOf("auto_compaction_end").at(-1)).toEqual({
			type: "auto_compaction_end",
			aborted: false,
			willRetry: false,
			errorMessage: OVERFLOW_RECOVERY_FAILED_TEXT,
		});
		expect(harness.faux.requests).toHaveLength(4);
		expect(harness.session.isStreaming).toBe(false);
	});

	it("does not retry after the user aborts during the pause before the retry", async () => {
		harness = await compactingHarness();
		await runFirstTurn(harness, fauxError(OVERFLOW), fauxText("The summary"), fauxText("should not be requested"));
		const running = harness.session.prompt(LONG);
		await harness.nextEvent("auto_compaction_end");
		await harness.session.abort();
		await running;
		expect(harness.faux.requests).toHaveLength(3);
		expect(harness.faux.pending).toBe(1);
		expect(harness.session.isStreaming).toBe(false);
	});

	it("keeps the failed reply as the last message when there is nothing to compact, and does not recover it again before the next prompt", async () => {
		harness = await compactingHarness();
		harness.faux.enqueue(fauxError(OVERFLOW), fauxText("shorter answer"));
		await harness.session.prompt(LONG);
		expect(harness.eventsOf("auto_compaction_end")).toEqual([
			{ type: "auto_compaction_end", aborted: false, willRetry: false },
		]);
		const last = harness.session.messages.at(-1);
		expect(last).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: OVERFLOW });

		await harness.session.prompt("shorter");
		expect(harness.eventsOf("auto_compaction_start")).toHaveLength(1);
		expect(harness.eventsOf("auto_compaction_end")).toHaveLength(1);
		expect(harness.session.getLastAssistantText()).toBe("shorter answer");
	});

	it("keeps the failed reply as the last message when the summary fails", async () => {
		harness = await compactingHarness();
		await runFirstTurn(harness, fauxError(OVERFLOW), fauxError("503 overloaded"));
		await harness.session.prompt(LONG);
		expect(harness.session.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
	});

	it("reports a failed summary as a failed recovery and does not retry", async () => {
		harness = await compactingHarness();
		await runFirstTurn(harness, fauxError(OVERFLOW), fauxError("503 overloaded"));
		await harness.session.prompt(LONG);
		expect(harness.eventsOf("auto_compaction_end")).toEqual([
			{
				type: "auto_compaction_end",
				aborted: false,
				willRetry: false,
				errorMessage: "Context overflow recovery failed: Summarization failed: 503 overloaded",
			},
		]);
		expect(harness.faux.requests).toHaveLength(3);
	});
});

describe("errors that must not compact", () => {
	it("retries a 429 whose text mentions too many tokens instead of compacting", async () => {
		harness = await compactingHarness();
		harness.faux.enqueue(fauxError('429 {"error":{"message":"Too many tokens per minute, please slow down"}}'));
		harness.faux.enqueue(fauxText("fine", { usage: { input: 100 } }));
		await harness.session.prompt("hi");
		expect(harness.eventsOf("auto_retry_start")).toHaveLength(1);
		expect(harness.eventsOf("auto_compaction_start")).toEqual([]);
		expect(harness.session.getLastAssistantText()).toBe("fine");
	});

	it("treats a thinking-block ordering error as neither overflow nor transient", async () => {
		harness = await compactingHarness();
		await runFirstTurn(
			harness,
			fauxError(
				'400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block."}}',
			),
		);
		await harness.session.prompt("second");
		expect(harness.eventsOf("auto_compaction_start")).toEqual([]);
		expect(harness.eventsOf("auto_retry_start")).toEqual([]);
		expect(harness.faux.requests).toHaveLength(2);
	});
});

describe("cancelling compaction", () => {
	it("abortCompaction ends a running automatic compaction as aborted and the session carries on", async () => {
		harness = await compactingHarness();
		const gate = deferred();
		await runFirstTurn(
			harness,
			fauxText("ok", { usage: { input: 8500 } }),
			fauxText("never used", { holdUntil: gate.promise }),
		);
		const running = harness.session.prompt(LONG);
		await harness.nextEvent("auto_compaction_start");
		harness.session.abortCompaction();
		await running;
		expect(harness.eventsOf("auto_compaction_end")).toEqual([
			{ type: "auto_compaction_end", aborted: true, willRetry: false },
		]);
		expect(harness.sessionManager.getEntries().some((entry) => entry.type === "compaction")).toBe(false);
		expect(harness.session.isCompacting).toBe(false);
	});
});

describe("manual compaction", () => {
	it("returns the result and persists it; a second one says there is nothing new to compact", async () => {
		harness = await compactingHarness();
		harness.faux.enqueue(fauxText(LONG, { usage: { input: 100 } }), fauxText("ok", { usage: { input: 100 } }));
		harness.faux.enqueue(fauxText("Manual summary"));
		await harness.session.prompt("first");
		await harness.session.prompt(LONG);
		const result = await harness.session.compact("keep the API notes");
		expect(result.summary).toBe("Manual summary");
		expect(harness.sessionManager.getEntries().at(-1)).toMatchObject({
			type: "compaction",
			summary: "Manual summary",
		});
		const summaryRequest = harness.faux.requests.find(isSummaryRequest);
		expect(messageTextsOf(summaryRequest)[0]).toMatch(/Additional focus: keep the API notes$/);
		// Manual compaction reports through its result, not through auto_compaction events.
		expect(harness.eventsOf("auto_compaction_start")).toEqual([]);
		await expect(harness.session.compact()).rejects.toThrow("Already compacted");
	});

	it("compacts a short session: what precedes the last turn (the reference kept everything)", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxText("first answer"), fauxText("second answer"), fauxText("Short summary"));
		await harness.session.prompt("first question");
		await harness.session.prompt("second question");
		const result = await harness.session.compact();
		expect(result.summary).toBe("Short summary");
		const summarized = messageTextsOf(harness.faux.requests.find(isSummaryRequest))[0];
		expect(summarized).toContain("[User]: first question");
		expect(summarized).toContain("[Assistant]: first answer");
		expect(summarized).not.toContain("second question");
		expect(harness.session.messages.map((message) => message.role)).toEqual([
			"compactionSummary",
			"user",
			"assistant",
		]);
	});

	it("compacts a single exchange by summarizing its prompt as the turn's prefix", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxText("hello"), fauxText("Prefix summary"));
		await harness.session.prompt("hi");
		const result = await harness.session.compact();
		expect(result.summary).toContain("Prefix summary");
		expect(harness.session.messages.map((message) => message.role)).toEqual(["compactionSummary", "assistant"]);
	});

	it("refuses only when there is truly nothing: a lone prompt whose reply failed", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxError("400 invalid_request_error: bad request"));
		await harness.session.prompt("hi");
		await expect(harness.session.compact()).rejects.toThrow(NOTHING_TO_COMPACT_TEXT);
	});

	it("refuses to start while an automatic compaction runs", async () => {
		harness = await compactingHarness();
		const gate = deferred();
		await runFirstTurn(
			harness,
			fauxText("ok", { usage: { input: 8500 } }),
			fauxText("The summary", { holdUntil: gate.promise }),
		);
		const running = harness.session.prompt(LONG);
		await harness.nextEvent("auto_compaction_start");
		await expect(harness.session.compact()).rejects.toThrow(COMPACTION_IN_PROGRESS_TEXT);
		gate.resolve();
		await running;
		expect(harness.sessionManager.getEntries().filter((entry) => entry.type === "compaction")).toHaveLength(1);
	});
});

describe("an overflow the estimate does not see (a smaller real window than configured)", () => {
	const STATED = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.";

	/** Two small exchanges on a model configured with 200k tokens: far from any threshold by our estimate. */
	async function twoSmallTurns(h: RuntimeHarness): Promise<void> {
		h.faux.enqueue(
			fauxText("first answer", { usage: { input: 300 } }),
			fauxText("second answer", { usage: { input: 600 } }),
		);
		await h.session.prompt("first question");
		await h.session.prompt("second question");
	}

	it("compacts what precedes the failed turn, retries, and uses the stated window from then on", async () => {
		harness = await createRuntimeHarness();
		await twoSmallTurns(harness);
		harness.faux.enqueue(fauxError(STATED), fauxText("The summary"), fauxText("recovered"));
		await harness.session.prompt("third question");

		const [end] = harness.eventsOf("auto_compaction_end");
		expect(end).toMatchObject({ aborted: false, willRetry: true });
		expect(end?.result?.summary).toBe("The summary");
		expect(harness.session.getLastAssistantText()).toBe("recovered");
		expect(messageTextsOf(harness.faux.requests.at(-1))).toEqual([
			expect.stringContaining("The summary"),
			"third question",
		]);
		// The learned window: context usage and the threshold use it for the rest of the session.
		expect(harness.session.getContextUsage()?.contextWindow).toBe(4096);
		harness.faux.enqueue(fauxText("long answer", { usage: { input: 3500 } }), fauxText("Second summary"));
		await harness.session.prompt("fourth question");
		expect(harness.eventsOf("auto_compaction_start").map((event) => event.reason)).toEqual(["overflow", "threshold"]);
		expect(harness.eventsOf("auto_compaction_end").at(-1)?.result?.summary).toBe("Second summary");
	});

	it("without a stated window, still compacts (and learns no window)", async () => {
		harness = await createRuntimeHarness();
		await twoSmallTurns(harness);
		harness.faux.enqueue(
			fauxError("Your input exceeds the context window of this model. Please adjust your input and try again."),
			fauxText("The summary"),
			fauxText("recovered"),
		);
		await harness.session.prompt("third question");
		expect(harness.eventsOf("auto_compaction_end")[0]?.result?.summary).toBe("The summary");
		expect(harness.session.getLastAssistantText()).toBe("recovered");
		expect(harness.session.getContextUsage()?.contextWindow).toBe(200_000);
	});
});
