import {
	type AssistantMessage,
	type AssistantMessageEvent,
	AssistantMessageEventStream,
	type Context,
	createAssistantOutput,
	FauxProvider,
	fauxText,
	type SimpleStreamOptions,
} from "@agent/ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { streamStalledText, withStallWatchdog } from "../../src/core/session-runtime/stall-watchdog.js";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
	vi.useRealTimers();
});

const model = new FauxProvider().model();
const context: Context = { messages: [] };

/** A provider stream the test drives by hand, and the options the watchdog called it with. */
function manualProvider() {
	const inner = new AssistantMessageEventStream();
	const calls: (SimpleStreamOptions | undefined)[] = [];
	const output = createAssistantOutput(model);
	return {
		inner,
		calls,
		output,
		streamFn: (_model: unknown, _context: unknown, options?: SimpleStreamOptions) => {
			calls.push(options);
			return inner;
		},
		pushText(text: string) {
			output.content = [{ type: "text", text }];
			inner.push({ type: "text_delta", contentIndex: 0, delta: text, partial: output });
		},
	};
}

async function collect(stream: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

/** Lets queued stream events reach the watchdog. */
async function flush(): Promise<void> {
	await vi.advanceTimersByTimeAsync(0);
}

describe("withStallWatchdog", () => {
	it("fails a call that sends nothing for the timeout and aborts the provider request", async () => {
		const provider = manualProvider();
		const stream = await withStallWatchdog(provider.streamFn, () => 120_000)(model, context, {});
		const events = collect(stream);
		await vi.advanceTimersByTimeAsync(119_999);
		expect(provider.calls[0]?.signal?.aborted).toBe(false);
		await vi.advanceTimersByTimeAsync(1);
		const [terminal] = await events;
		expect(terminal?.type).toBe("error");
		const failed = (await stream.result()) as AssistantMessage;
		expect(failed).toMatchObject({
			stopReason: "error",
			errorMessage: "Stream stalled: no data from the provider for 120s",
		});
		expect(provider.calls[0]?.signal?.aborted).toBe(true);
	});

	it("restarts the timer on every event, so a slow but steady stream completes", async () => {
		const provider = manualProvider();
		const stream = await withStallWatchdog(provider.streamFn, () => 120_000)(model, context, {});
		const events = collect(stream);
		for (const text of ["a", "ab", "abc"]) {
			await vi.advanceTimersByTimeAsync(100_000);
			provider.pushText(text);
			await flush();
		}
		provider.inner.push({ type: "done", reason: "stop", message: provider.output });
		provider.inner.end();
		expect((await events).map((event) => event.type)).toEqual(["text_delta", "text_delta", "text_delta", "done"]);
		expect(provider.calls[0]?.signal?.aborted).toBe(false);
	});

	it("keeps the content that arrived before the stream went quiet", async () => {
		const provider = manualProvider();
		const stream = await withStallWatchdog(provider.streamFn, () => 5000)(model, context, {});
		const events = collect(stream);
		provider.pushText("partial answer");
		await flush();
		await vi.advanceTimersByTimeAsync(5000);
		await events;
		expect(await stream.result()).toMatchObject({
			content: [{ type: "text", text: "partial answer" }],
			errorMessage: streamStalledText(5000),
		});
	});

	it("passes the caller's abort through and does not report a stall", async () => {
		const provider = manualProvider();
		const caller = new AbortController();
		const stream = await withStallWatchdog(provider.streamFn, () => 120_000)(model, context, {
			signal: caller.signal,
		});
		const events = collect(stream);
		caller.abort();
		expect(provider.calls[0]?.signal?.aborted).toBe(true);
		provider.output.stopReason = "aborted";
		provider.output.errorMessage = "Request was aborted";
		provider.inner.push({ type: "error", reason: "aborted", error: provider.output });
		provider.inner.end();
		await events;
		await vi.advanceTimersByTimeAsync(200_000);
		expect(await stream.result()).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
	});

	it("is off when the timeout is 0, and lets failures before the stream exists propagate", async () => {
		const provider = manualProvider();
		const unwatched = await withStallWatchdog(provider.streamFn, () => 0)(model, context, {});
		expect(unwatched).toBe(provider.inner);
		const throwing = withStallWatchdog(
			() => {
				throw new Error("No API key for provider: faux");
			},
			() => 1000,
		);
		await expect(throwing(model, context, {})).rejects.toThrow("No API key for provider: faux");
		await vi.advanceTimersByTimeAsync(5000);
	});
});

describe("stall watchdog in a session", () => {
	let harness: RuntimeHarness | undefined;
	afterEach(() => {
		harness?.dispose();
		harness = undefined;
	});

	async function untilRequests(h: RuntimeHarness, count: number): Promise<void> {
		while (h.faux.requests.length < count) await new Promise((resolve) => setImmediate(resolve));
	}

	it("turns a provider that never answers into a retry after 120 s", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(() => new Promise(() => {}), fauxText("recovered"));
		const running = harness.session.prompt("hi");
		await untilRequests(harness, 1);
		const retryStart = harness.nextEvent("auto_retry_start");
		await vi.advanceTimersByTimeAsync(120_000);
		const start = await retryStart;
		expect(start).toMatchObject({ attempt: 1, delayMs: 2000, errorMessage: streamStalledText(120_000) });
		await vi.advanceTimersByTimeAsync(2000);
		await running;
		expect(harness.session.getLastAssistantText()).toBe("recovered");
		const failed = harness.sessionManager
			.getEntries()
			.find((entry) => entry.type === "message" && entry.message.role === "assistant");
		expect(failed).toMatchObject({ message: { stopReason: "error", errorMessage: streamStalledText(120_000) } });
	});
});
