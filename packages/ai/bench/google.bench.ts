// Throughput of the google-generative-ai adapter: a ~1 MB streamed answer (and a reply with a 200 kB
// function call) served from a local server, consumed through `stream(...)` versus iterating the raw SDK
// stream for the same bytes. The difference is what our conversion to assistant-message events costs.
import { GoogleGenAI } from "@google/genai";
import { expect, it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";
import { stream } from "../src/index.js";
import type { Context } from "../src/types.js";
import { formatSseChunk, type SseChunk } from "../test/helpers/fake-server.js";
import { geminiChunk, geminiTextChunks } from "../test/helpers/google-sse.js";
import { gemini25Flash, useFakeServer } from "../test/helpers/provider-test-harness.js";

const ANSWER_BYTES = 1_000_000;
const TEXT_CHUNK_CHARS = 16;
const TOOL_ARGUMENT_BYTES = 200_000;
const RUNS = 7;
const WARMUP = 2;

const server = useFakeServer();

const context: Context = { messages: [{ role: "user", content: "write a lot", timestamp: 1 }] };

const model = () => gemini25Flash(`${server.url}/v1beta`);

function split(text: string, size: number): string[] {
	const pieces: string[] = [];
	for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
	return pieces;
}

/** The whole SSE body rendered once, so the server costs the same for every run being compared. */
function render(chunks: SseChunk[]): string {
	return chunks.map(formatSseChunk).join("");
}

function serve(body: string): void {
	server.enqueue({ kind: "raw", status: 200, body, headers: { "content-type": "text/event-stream" } });
}

async function throughAdapter(body: string): Promise<number> {
	serve(body);
	let events = 0;
	const s = stream(model(), context, { apiKey: "gemini-bench" });
	for await (const _event of s) events++;
	const result = await s.result();
	if (result.stopReason === "error") throw new Error(result.errorMessage);
	return events;
}

async function throughRawSdk(body: string): Promise<void> {
	serve(body);
	const client = new GoogleGenAI({
		apiKey: "gemini-bench",
		vertexai: false,
		httpOptions: { baseUrl: `${server.url}/v1beta`, apiVersion: "" },
	});
	const chunks = await client.models.generateContentStream({
		model: "gemini-2.5-flash",
		contents: [{ role: "user", parts: [{ text: "write a lot" }] }],
		config: { automaticContinuation: false },
	});
	let text = "";
	let calls = 0;
	for await (const chunk of chunks) {
		for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
			if (part.text !== undefined) text += part.text;
			if (part.functionCall) calls++;
		}
	}
	if (text.length + calls === 0) throw new Error("empty stream");
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
	const usage = { promptTokenCount: 10, candidatesTokenCount: 250_000, totalTokenCount: 250_010 };
	const text = await measure(render(geminiTextChunks(split(answer, TEXT_CHUNK_CHARS), { usage })));

	const fileContent = "export const value = 42; // a line of code\n".repeat(Math.ceil(TOOL_ARGUMENT_BYTES / 44));
	const args = { path: "src/big.ts", content: fileContent.slice(0, TOOL_ARGUMENT_BYTES) };
	const tool = await measure(
		render([
			geminiChunk([{ text: "Writing the file." }]),
			geminiChunk([{ functionCall: { name: "write", args } }], { finishReason: "STOP", usage }),
		]),
	);

	reportBenchmark("google-generative-ai-stream", [
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
			name: "function call: adapter wall time",
			value: tool.oursMs,
			unit: "ms",
			note: `${tool.events} events, ${TOOL_ARGUMENT_BYTES / 1000} kB arguments in one part`,
		},
		{ name: "function call: raw SDK wall time", value: tool.rawMs, unit: "ms" },
		{ name: "function call: adapter / raw SDK", value: tool.ratio, unit: "x", target: { max: 1.3 } },
	]);
	expect(text.events).toBeGreaterThan(ANSWER_BYTES / TEXT_CHUNK_CHARS);
});
