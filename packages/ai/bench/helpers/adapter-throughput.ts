// The harness of the adapter throughput benchmarks: one SSE body served from a local FakeServer is
// consumed through `stream(...)` and through the provider's raw SDK, alternating so both see the same
// machine load, and the medians are compared. The difference is what our conversion to
// assistant-message events costs.
import { median, reportBenchmark } from "../../../../scripts/bench-report.js";
import { stream } from "../../src/index.js";
import type { Context, Model } from "../../src/types.js";
import { encodeChunks, type SseChunk } from "../../test/helpers/fake-server.js";
import { useFakeServer } from "../../test/helpers/provider-test-harness.js";

export const ANSWER_BYTES = 1_000_000;
export const TOOL_ARGUMENT_BYTES = 200_000;
const RUNS = 7;
const WARMUP = 2;

/** About `ANSWER_BYTES` of prose: the answer every adapter benchmark streams. */
export const LONG_ANSWER = "The quick brown fox jumps over the lazy dog. "
	.repeat(Math.ceil(ANSWER_BYTES / 45))
	.slice(0, ANSWER_BYTES);

/** The arguments of a `write` call carrying `TOOL_ARGUMENT_BYTES` of code. */
export const LARGE_WRITE_ARGUMENTS = {
	path: "src/big.ts",
	content: "export const value = 42; // a line of code\n"
		.repeat(Math.ceil(TOOL_ARGUMENT_BYTES / 44))
		.slice(0, TOOL_ARGUMENT_BYTES),
};

export interface AdapterUnderTest {
	/** The model `stream(...)` is called with, pointing at the fake server. */
	model(serverUrl: string): Model;
	apiKey: string;
	/** Requests a reply through the provider's own SDK and reads every event of it. */
	readWithRawSdk(serverUrl: string): Promise<void>;
	/** The reply's content type; server-sent events unless the API frames otherwise. */
	contentType?: string;
}

export interface Throughput {
	/** Events the adapter emitted for the body. */
	events: number;
	sseBytes: number;
	oursMs: number;
	rawMs: number;
	ratio: number;
}

/**
 * Sets up the benchmark file's fake server for `adapter` and returns `measure`, which times one reply
 * (`chunks`, rendered once so the server's cost is the same for every run) both ways.
 */
export function adapterThroughputBench(adapter: AdapterUnderTest): {
	measure(chunks: SseChunk[]): Promise<Throughput>;
} {
	const server = useFakeServer();
	const context: Context = { messages: [{ role: "user", content: "write a lot", timestamp: 1 }] };

	function serve(body: Buffer): void {
		const contentType = adapter.contentType ?? "text/event-stream";
		server.enqueue({ kind: "raw", status: 200, body, headers: { "content-type": contentType } });
	}

	async function throughAdapter(body: Buffer): Promise<number> {
		serve(body);
		let events = 0;
		const s = stream(adapter.model(server.url), context, { apiKey: adapter.apiKey });
		for await (const _event of s) events++;
		const result = await s.result();
		if (result.stopReason === "error") throw new Error(result.errorMessage);
		return events;
	}

	async function throughRawSdk(body: Buffer): Promise<void> {
		serve(body);
		await adapter.readWithRawSdk(server.url);
	}

	return {
		async measure(chunks) {
			const body = encodeChunks(chunks);
			const events = await throughAdapter(body);
			for (let i = 0; i < WARMUP; i++) {
				await throughRawSdk(body);
				await throughAdapter(body);
			}
			const ours: number[] = [];
			const raw: number[] = [];
			for (let i = 0; i < RUNS; i++) {
				let start = performance.now();
				await throughRawSdk(body);
				raw.push(performance.now() - start);
				start = performance.now();
				await throughAdapter(body);
				ours.push(performance.now() - start);
			}
			const oursMs = median(ours);
			const rawMs = median(raw);
			return { events, sseBytes: body.length, oursMs, rawMs, ratio: oursMs / rawMs };
		},
	};
}

/**
 * Reports a text answer and a tool call measured by `adapterThroughputBench`, each held to 1.3x of
 * the raw SDK. `toolCall.label` names the tool call in the provider's terms.
 */
export function reportAdapterThroughput(
	suite: string,
	text: Throughput,
	toolCall: Throughput & { label: string; note: string },
): void {
	reportBenchmark(suite, [
		{
			name: "text: adapter wall time",
			value: text.oursMs,
			unit: "ms",
			note: `${text.events} events, ${(text.sseBytes / 1e6).toFixed(1)} MB SSE, median of ${RUNS}`,
		},
		{ name: "text: raw SDK wall time", value: text.rawMs, unit: "ms" },
		{ name: "text: adapter / raw SDK", value: text.ratio, unit: "x", target: { max: 1.3 } },
		{ name: "text: events per second", value: Math.round(text.events / (text.oursMs / 1000)), unit: "events/s" },
		{
			name: `${toolCall.label}: adapter wall time`,
			value: toolCall.oursMs,
			unit: "ms",
			note: `${toolCall.events} events, ${toolCall.note}`,
		},
		{ name: `${toolCall.label}: raw SDK wall time`, value: toolCall.rawMs, unit: "ms" },
		{ name: `${toolCall.label}: adapter / raw SDK`, value: toolCall.ratio, unit: "x", target: { max: 1.3 } },
	]);
}
