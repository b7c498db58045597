import { fauxText } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";
import { createCountingTool } from "../helpers/runtime-tools.js";

let harness: RuntimeHarness | undefined;
afterEach(() => {
	harness?.dispose();
	harness = undefined;
});

const COST = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const USAGE = { input: 1000, output: 100, cacheRead: 500, cacheWrite: 200 };

describe("session stats", () => {
	it("counts messages by role, tool calls, tokens and cost of the replies in context", async () => {
		harness = await createRuntimeHarness({
			models: [{ cost: COST, contextWindow: 100_000 }],
			customTools: [createCountingTool("probe")],
		});
		harness.faux.enqueue(
			{
				content: [
					{ type: "toolCall", name: "probe", arguments: {} },
					{ type: "toolCall", name: "probe", arguments: {} },
				],
				usage: USAGE,
			},
			fauxText("done", { usage: USAGE }),
		);
		await harness.session.prompt("go");

		const perReply = (1000 * 3 + 100 * 15 + 500 * 0.3 + 200 * 3.75) / 1_000_000;
		const stats = harness.session.getSessionStats();
		expect(stats).toEqual({
			sessionFile: harness.session.sessionFile,
			sessionId: harness.session.sessionId,
			userMessages: 1,
			assistantMessages: 2,
			toolCalls: 2,
			toolResults: 2,
			totalMessages: 5,
			tokens: { input: 2000, output: 200, cacheRead: 1000, cacheWrite: 400, total: 3600 },
			cost: expect.closeTo(2 * perReply, 10),
		});
	});

	it("leaves sessionFile out for an in-memory session", async () => {
		harness = await createRuntimeHarness({ persist: false });
		expect(harness.session.getSessionStats().sessionFile).toBeUndefined();
		expect("sessionFile" in harness.session.getSessionStats()).toBe(false);
	});

	it("reports context usage as a share of the window, unknown right after a compaction", async () => {
		harness = await createRuntimeHarness({ models: [{ contextWindow: 10_000 }] });
		harness.faux.enqueue(fauxText("ok", { usage: { input: 2000, output: 500 } }));
		await harness.session.prompt("hi");
		expect(harness.session.getContextUsage()).toEqual({ tokens: 2500, contextWindow: 10_000, percent: 25 });
		harness.faux.enqueue(fauxText("ok again", { usage: { input: 2600, output: 100 } }), fauxText("Summary"));
		await harness.session.prompt("y".repeat(400));
		harness.settingsManager.applyOverrides({ compaction: { keepRecentTokens: 10 } });
		await harness.session.compact();
		expect(harness.session.getContextUsage()).toEqual({ tokens: null, contextWindow: 10_000, percent: null });
	});
});
