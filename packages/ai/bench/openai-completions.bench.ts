// Throughput of the openai-completions adapter: a ~1 MB streamed answer (and a large streamed tool call)
// served from a local server, consumed through `stream(...)` versus iterating the raw SDK stream for the
// same bytes. The difference is what our conversion to assistant-message events costs.
import OpenAI from "openai";
import { expect, it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";
import { stream } from "../src/index.js";
import type { Context } from "../src/types.js";
import type { SseChunk } from "../test/helpers/fake-server.js";
import { compareRuns, renderSse } from "../test/helpers/openai-bench-timing.js";
import { chunk, finish, splitText, toolCallChunks } from "../test/helpers/openai-completions-sse.js";
import { openaiTestModel, useFakeServer } from "../test/helpers/provider-test-harness.js";

const ANSWER_BYTES = 1_000_000;
const TEXT_DELTA_CHARS = 12;
const TOOL_ARGUMENT_BYTES = 200_000;
const TOOL_DELTA_CHARS = 8;

const server = useFakeServer();

const context: Context = { messages: [{ role: "user", content: "write a lot", timestamp: 1 }] };

function serve(body: string): void {
	server.enqueue({ kind: "raw", status: 200, body, headers: { "content-type": "text/event-stream" } });
}

async function throughAdapter(body: string): Promise<number> {
	serve(body);
	let events = 0;
	const s = stream(openaiTestModel("openai-completions", server.url), context, { apiKey: "k" });
	for await (const _event of s) events++;
	const result = await s.result();
	if (result.stopReason === "error") throw new Error(result.errorMessage);
	return events;
}

async function throughRawSdk(body: string): Promise<void> {
	serve(body);
	const client = new OpenAI({ apiKey: "k", baseURL: server.url, maxRetries: 0 });
	const s = await client.chat.completions.create({ model: "test-model", messages: [], stream: true });
	let text = "";
	let args = "";
	for await (const part of s) {
		const delta = part.choices[0]?.delta;
		if (delta?.content) text += delta.content;
		for (const call of delta?.tool_calls ?? []) args += call.function?.arguments ?? "";
	}
	if (text.length + args.length === 0) throw new Error("empty stream");
}

async function measure(name: string, chunks: SseChunk[]) {
	const body = renderSse(chunks);
	const events = await throughAdapter(body);
	const comparison = await compareRuns(
		() => throughAdapter(body),
		() => throughRawSdk(body),
	);
	return { name, events, sseBytes: body.length, ...comparison };
}

it("streams a 1 MB answer within 1.3x of the raw SDK", async () => {
	const answer = "The quick brown fox jumps over the lazy dog. "
		.repeat(Math.ceil(ANSWER_BYTES / 45))
		.slice(0, ANSWER_BYTES);
	const text = await measure("text", [
		...splitText(answer, TEXT_DELTA_CHARS).map((piece) => chunk({ content: piece })),
		...finish("stop", { prompt_tokens: 10, completion_tokens: 250_000, total_tokens: 250_010 }),
	]);
	const fileContent = "export const value = 42; // a line of code\n".repeat(Math.ceil(TOOL_ARGUMENT_BYTES / 44));
	const args = JSON.stringify({ path: "src/big.ts", content: fileContent.slice(0, TOOL_ARGUMENT_BYTES) });
	const tool = await measure("tool call", [
		...toolCallChunks(0, "call_1", "write", args, TOOL_DELTA_CHARS),
		...finish("tool_calls"),
	]);

	reportBenchmark("openai-completions-stream", [
		{
			name: "text: adapter wall time",
			value: text.oursMs,
			unit: "ms",
			note: `${text.events} events, ${(text.sseBytes / 1e6).toFixed(1)} MB SSE`,
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
