// Throughput of the anthropic-messages adapter: a ~1 MB streamed answer (and a large streamed tool call)
// served from a local server, consumed through `stream(...)` versus iterating the raw SDK stream for the
// same bytes. The difference is what our conversion to assistant-message events costs.
import Anthropic from "@anthropic-ai/sdk";
import { expect, it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";
import { stream } from "../src/index.js";
import type { Context } from "../src/types.js";
import { messageDelta, messageStart, messageStop, textBlock, toolUseBlock } from "../test/helpers/anthropic-sse.js";
import { formatSseChunk, type SseChunk } from "../test/helpers/fake-server.js";
import { claudeSonnet4, useFakeServer } from "../test/helpers/provider-test-harness.js";

const ANSWER_BYTES = 1_000_000;
const TEXT_DELTA_CHARS = 16;
const TOOL_ARGUMENT_BYTES = 200_000;
const TOOL_DELTA_CHARS = 16;
const RUNS = 7;
const WARMUP = 2;

const server = useFakeServer();

const context: Context = { messages: [{ role: "user", content: "write a lot", timestamp: 1 }] };

const model = () => claudeSonnet4(server.url);

function split(text: string, size: number): string[] {
	const pieces: string[] = [];
	for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
	return pieces;
}

/** The whole SSE body rendered once, so the server costs the same for every run being compared. */
function render(blocks: SseChunk[], stopReason: string): string {
	return [messageStart(), ...blocks, messageDelta(stopReason, { output_tokens: 250_000 }), messageStop()]
		.map(formatSseChunk)
		.join("");
}

function serve(body: string): void {
	server.enqueue({ kind: "raw", status: 200, body, headers: { "content-type": "text/event-stream" } });
}

async function throughAdapter(body: string): Promise<number> {
	serve(body);
	let events = 0;
	const s = stream(model(), context, { apiKey: "sk-ant-bench" });
	for await (const _event of s) events++;
	const result = await s.result();
	if (result.stopReason === "error") throw new Error(result.errorMessage);
	return events;
}

async function throughRawSdk(body: string): Promise<void> {
	serve(body);
	const client = new Anthropic({ apiKey: "sk-ant-bench", baseURL: server.url, maxRetries: 0, logLevel: "off" });
	const s = await client.messages.create({
		model: "claude-sonnet-4-0",
		max_tokens: 1000,
		messages: [{ role: "user", content: "write a lot" }],
		stream: true,
	});
	let text = "";
	let args = "";
	for await (const event of s) {
		if (event.type !== "content_block_delta") continue;
		if (event.delta.type === "text_delta") text += event.delta.text;
		else if (event.delta.type === "input_json_delta") args += event.delta.partial_json;
	}
	if (text.length + args.length === 0) throw new Error("empty stream");
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Alternates the two consumers so both see the same machine load; compares medians. */
async function measure(body: string) {
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
}

it("streams a 1 MB answer within 1.3x of the raw SDK", async () => {
	const answer = "The quick brown fox jumps over the lazy dog. "
		.repeat(Math.ceil(ANSWER_BYTES / 45))
		.slice(0, ANSWER_BYTES);
	const text = await measure(render(textBlock(0, split(answer, TEXT_DELTA_CHARS)), "end_turn"));

	const fileContent = "export const value = 42; // a line of code\n".repeat(Math.ceil(TOOL_ARGUMENT_BYTES / 44));
	const args = { path: "src/big.ts", content: fileContent.slice(0, TOOL_ARGUMENT_BYTES) };
	const tool = await measure(render(toolUseBlock(0, "toolu_1", "write", args, TOOL_DELTA_CHARS), "tool_use"));

	reportBenchmark("anthropic-messages-stream", [
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
			name: "tool call: adapter wall time",
			value: tool.oursMs,
			unit: "ms",
			note: `${tool.events} events, ${TOOL_ARGUMENT_BYTES / 1000} kB arguments`,
		},
		{ name: "tool call: raw SDK wall time", value: tool.rawMs, unit: "ms" },
		{ name: "tool call: adapter / raw SDK", value: tool.ratio, unit: "x", target: { max: 1.3 } },
	]);
	expect(text.events).toBeGreaterThan(ANSWER_BYTES / TEXT_DELTA_CHARS);
});
