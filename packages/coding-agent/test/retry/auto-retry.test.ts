import { fauxError, fauxText, fauxToolCall } from "@agent/ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isRetryableError, planRetryDelay, retryCapExceededNote } from "../../src/core/session-runtime/retry-policy.js";
import { deferred } from "../helpers/deferred.js";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";
import { createCountingTool } from "../helpers/runtime-tools.js";

let harness: RuntimeHarness | undefined;
beforeEach(() => {
	// Only the backoff timers are fake; the faux provider's own scheduling (setImmediate) stays real.
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
	vi.useRealTimers();
	harness?.dispose();
	harness = undefined;
});

const OVERLOADED = '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';

function assistantCount(h: RuntimeHarness): number {
	return h.session.messages.filter((message) => message.role === "assistant").length;
}

describe("retry schedule", () => {
	it("waits 2 s, 4 s, 8 s between attempts and gives up after maxRetries with the last error", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxError(OVERLOADED), fauxError("503 service unavailable"), fauxError("502 bad gateway"));
		harness.faux.enqueue(fauxError("500 internal server error"));
		let settled = false;
		const running = harness.session.prompt("hi").then(() => {
			settled = true;
		});

		const first = await harness.nextEvent("auto_retry_start");
		expect(first).toEqual({
			type: "auto_retry_start",
			attempt: 1,
			maxAttempts: 3,
			delayMs: 2000,
			errorMessage: OVERLOADED,
		});
		expect(harness.session.isRetrying).toBe(true);
		expect(harness.session.isStreaming).toBe(true);
		await vi.advanceTimersByTimeAsync(1999);
		expect(harness.faux.requests).toHaveLength(1);
		await vi.advanceTimersByTimeAsync(1);
		const second = await harness.nextEvent("auto_retry_start", harness.events.indexOf(first) + 1);
		expect(second).toMatchObject({ attempt: 2, delayMs: 4000 });
		expect(harness.faux.requests).toHaveLength(2);
		await vi.advanceTimersByTimeAsync(4000);
		const third = await harness.nextEvent("auto_retry_start", harness.events.indexOf(second) + 1);
		expect(third).toMatchObject({ attempt: 3, delayMs: 8000 });
		await vi.advanceTimersByTimeAsync(8000);
		const end = await harness.nextEvent("auto_retry_end");
		await running;

		expect(settled).toBe(true);
		expect(end).toEqual({
			type: "auto_retry_end",
			success: false,
			attempt: 3,
			finalError: "500 internal server error",
		});
		expect(harness.faux.requests).toHaveLength(4);
		expect(harness.session.isRetrying).toBe(false);
	});

	it("reports success on the first reply that works, removes failed replies from context but keeps them in the file", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxError("429 rate limit exceeded"), fauxError(OVERLOADED), fauxText("finally"));
		const running = harness.session.prompt("hi");
		await harness.nextEvent("auto_retry_start");
		await vi.advanceTimersByTimeAsync(2000);
		await harness.nextEvent("auto_retry_start", harness.eventTypes().indexOf("auto_retry_start") + 1);
		await vi.advanceTimersByTimeAsync(4000);
		await running;

		expect(harness.eventsOf("auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: 2 }]);
		expect(harness.session.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(harness.session.getLastAssistantText()).toBe("finally");
		const stored = harness.sessionManager
			.getEntries()
			.filter((entry) => entry.type === "message" && entry.message.role === "assistant");
		expect(stored).toHaveLength(3);
		// Every retry re-sent the same context: the user message alone.
		for (const request of harness.faux.requests)
			expect(request.context.messages.map((m) => m.role)).toEqual(["user"]);
	});

	it.each([
		["The response stream ended before the server finished the response (no finish_reason received)"],
		["The response stream ended before the response completed (no response.completed event)"],
	])("retries a response stream that ended early: %s", async (message) => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxError(message), fauxText("whole answer"));
		const running = harness.session.prompt("hi");
		await harness.nextEvent("auto_retry_start");
		await vi.advanceTimersByTimeAsync(2000);
		await running;
		expect(harness.eventsOf("auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: 1 }]);
		expect(harness.session.getLastAssistantText()).toBe("whole answer");
	});

	it("starts counting from 1 again after a success", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxError(OVERLOADED), fauxText("ok"), fauxError(OVERLOADED), fauxText("ok again"));
		const first = harness.session.prompt("one");
		await harness.nextEvent("auto_retry_start");
		await vi.advanceTimersByTimeAsync(2000);
		await first;
		const from = harness.events.length;
		const second = harness.session.prompt("two");
		const start = await harness.nextEvent("auto_retry_start", from);
		expect(start).toMatchObject({ attempt: 1, delayMs: 2000 });
		await vi.advanceTimersByTimeAsync(2000);
		await second;
		expect(harness.eventsOf("auto_retry_end").map((event) => event.success)).toEqual([true, true]);
	});
});

describe("cancelling a retry", () => {
	it("abortRetry during the wait ends with 'Retry cancelled' and the prompt resolves without another request", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxError(OVERLOADED), fauxText("never sent"));
		const running = harness.session.prompt("hi");
		await harness.nextEvent("auto_retry_start");
		harness.session.abortRetry();
		await running;
		expect(harness.eventsOf("auto_retry_end")).toEqual([
			{ type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" },
		]);
		expect(harness.faux.requests).toHaveLength(1);
		expect(harness.session.isRetrying).toBe(false);
	});

	it("abort() during the wait cancels the retry the same way", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxError("503 service unavailable"));
		const running = harness.session.prompt("hi");
		await harness.nextEvent("auto_retry_start");
		await harness.session.abort();
		await running;
		expect(harness.eventsOf("auto_retry_end")[0]).toMatchObject({ success: false, finalError: "Retry cancelled" });
		expect(harness.session.isStreaming).toBe(false);
	});
});

describe("Retry-After hints", () => {
	it("waits as long as the server asked when that is longer than the backoff", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxError("429 Too Many Requests (retry after 7s)"), fauxText("ok"));
		const running = harness.session.prompt("hi");
		expect(await harness.nextEvent("auto_retry_start")).toMatchObject({ attempt: 1, delayMs: 7000 });
		await vi.advanceTimersByTimeAsync(6999);
		expect(harness.faux.requests).toHaveLength(1);
		await vi.advanceTimersByTimeAsync(1);
		await running;
		expect(harness.faux.requests).toHaveLength(2);
	});

	it("gives up at once with a clear final error when the hint exceeds retry.maxDelayMs", async () => {
		harness = await createRuntimeHarness({ settings: { retry: { maxDelayMs: 30_000 } } });
		harness.faux.enqueue(fauxError("429 Too Many Requests (retry after 120s)"));
		await harness.session.prompt("hi");
		expect(harness.eventsOf("auto_retry_start")).toEqual([]);
		const [end] = harness.eventsOf("auto_retry_end");
		expect(end?.success).toBe(false);
		expect(end?.attempt).toBe(0);
		const note = " (the server asked to wait 120s, longer than retry.maxDelayMs 30s)";
		expect(end?.finalError).toBe(`429 Too Many Requests (retry after 120s)${note}`);
		// The reply itself says so, in the context and in the session file.
		const failed = harness.session.messages.at(-1);
		expect(failed).toMatchObject({
			stopReason: "error",
			errorMessage: `429 Too Many Requests (retry after 120s)${note}`,
		});
		expect(JSON.stringify(harness.sessionManager.getEntries().at(-1))).toContain(note);
		expect(harness.faux.requests).toHaveLength(1);
	});
});

describe("the note for a wait beyond the cap", () => {
	const settings = { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60_000 };

	it("names the wait the server asked for and the cap, only when the wait is longer than a cap that is on", () => {
		expect(retryCapExceededNote("429 (retry after 3600s)", 60_000)).toBe(
			" (the server asked to wait 3600s, longer than retry.maxDelayMs 60s)",
		);
		expect(retryCapExceededNote("429 (retry after 1.5s)", 1000)).toBe(
			" (the server asked to wait 1.5s, longer than retry.maxDelayMs 1s)",
		);
		expect(retryCapExceededNote("429 (retry after 60s)", 60_000)).toBeUndefined();
		expect(retryCapExceededNote("429 (retry after 3600s)", 0)).toBeUndefined();
		expect(retryCapExceededNote("503 overloaded", 60_000)).toBeUndefined();
	});

	it("gives up instead of planning a wait", () => {
		expect(planRetryDelay(1, "429 (retry after 3600s)", settings)).toEqual({
			giveUpNote: " (the server asked to wait 3600s, longer than retry.maxDelayMs 60s)",
		});
		expect(planRetryDelay(2, "429 (retry after 10s)", settings)).toEqual({ delayMs: 10_000 });
		expect(planRetryDelay(3, "503", settings)).toEqual({ delayMs: 8000 });
	});
});

describe("which errors are retried", () => {
	const failed = (errorMessage: string) =>
		({ role: "assistant", stopReason: "error", errorMessage }) as Parameters<typeof isRetryableError>[0];

	it("retries server errors and rate limits named by their status code", () => {
		for (const message of ["500 Internal Server Error", "HTTP 502", "status 503: try later", "429 too many", "504"]) {
			expect(isRetryableError(failed(message)), message).toBe(true);
		}
	});

	it("does not take a status code out of a longer number", () => {
		for (const message of ["bad gateway config at 127.0.0.1:45004", "limit 15000 exceeded", "id 5029"]) {
			expect(isRetryableError(failed(message)), message).toBe(false);
		}
	});
});

describe("errors that are never retried", () => {
	it.each([
		["400 invalid_request_error: messages: text content blocks must be non-empty"],
		["401 authentication_error: invalid x-api-key"],
		["403 permission_error: forbidden"],
		["prompt is too long: 250000 tokens > 200000 maximum"],
		// Status codes count only as whole numbers: not inside a port or a token count.
		[
			"The provider at http://127.0.0.1:45004 redirected to http://127.0.0.1:35029/v1/messages (HTTP 307); not following it",
		],
		["400 invalid_request_error: max_tokens: 65000 > 64000, which is the maximum allowed"],
	])("does not retry %s", async (message) => {
		harness = await createRuntimeHarness({ settings: { compaction: { enabled: false } } });
		harness.faux.enqueue(fauxError(message));
		await harness.session.prompt("hi");
		expect(harness.eventsOf("auto_retry_start")).toEqual([]);
		expect(harness.faux.requests).toHaveLength(1);
	});

	it("does not retry when retry is disabled", async () => {
		harness = await createRuntimeHarness();
		harness.session.setAutoRetryEnabled(false);
		harness.faux.enqueue(fauxError(OVERLOADED));
		await harness.session.prompt("hi");
		expect(harness.eventsOf("auto_retry_start")).toEqual([]);
		expect(harness.settingsManager.getGlobalSettings().retry?.enabled).toBe(false);
	});
});

describe("retries and tools", () => {
	it("resolves the prompt only after the retried run's tools and final reply have finished", async () => {
		const gate = deferred();
		const probe = createCountingTool("probe", { gate: () => gate.promise });
		harness = await createRuntimeHarness({ customTools: [probe] });
		harness.faux.enqueue(fauxError(OVERLOADED), fauxToolCall("probe", { value: "x" }), fauxText("all done"));
		let settled = false;
		const running = harness.session.prompt("use the probe").then(() => {
			settled = true;
		});
		await harness.nextEvent("auto_retry_start");
		await vi.advanceTimersByTimeAsync(2000);
		await harness.nextEvent("tool_execution_start");
		expect(harness.eventsOf("auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: 1 }]);
		await vi.advanceTimersByTimeAsync(0);
		expect(settled).toBe(false);
		gate.resolve();
		await running;
		expect(probe.executions).toHaveLength(1);
		expect(harness.session.getLastAssistantText()).toBe("all done");
	});

	it("never re-executes a tool that already ran when a later turn is retried", async () => {
		const probe = createCountingTool("probe");
		harness = await createRuntimeHarness({ customTools: [probe] });
		harness.faux.enqueue(fauxToolCall("probe", { value: "once" }), fauxError("502 bad gateway"), fauxText("summary"));
		const running = harness.session.prompt("go");
		await harness.nextEvent("auto_retry_start");
		await vi.advanceTimersByTimeAsync(2000);
		await running;
		expect(probe.executions).toEqual([{ value: "once" }]);
		const retried = harness.faux.requests[2];
		expect(retried?.context.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(assistantCount(harness)).toBe(2);
	});
});
