// Throughput of the openai-completions adapter: a ~1 MB streamed answer (and a large streamed tool call)
// served from a local server, consumed through `stream(...)` versus iterating the raw SDK stream for the
// same bytes (bench/helpers/adapter-throughput.ts).
import OpenAI from "openai";
import { expect, it } from "vitest";
import { chunk, finish, toolCallChunks } from "../test/helpers/openai-completions-sse.js";
import { openaiTestModel } from "../test/helpers/provider-test-harness.js";
import { splitText } from "../test/helpers/split-text.js";
import {
	ANSWER_BYTES,
	adapterThroughputBench,
	LARGE_WRITE_ARGUMENTS,
	LONG_ANSWER,
	reportAdapterThroughput,
	TOOL_ARGUMENT_BYTES,
} from "./helpers/adapter-throughput.js";

const TEXT_DELTA_CHARS = 12;
const TOOL_DELTA_CHARS = 8;

const { measure } = adapterThroughputBench({
	model: (serverUrl) => openaiTestModel("openai-completions", serverUrl),
	apiKey: "k",
	async readWithRawSdk(serverUrl) {
		const client = new OpenAI({ apiKey: "k", baseURL: serverUrl, maxRetries: 0 });
		const s = await client.chat.completions.create({ model: "test-model", messages: [], stream: true });
		let text = "";
		let args = "";
		for await (const part of s) {
			const delta = part.choices[0]?.delta;
			if (delta?.content) text += delta.content;
			for (const call of delta?.tool_calls ?? []) args += call.function?.arguments ?? "";
		}
		if (text.length + args.length === 0) throw new Error("empty stream");
	},
});

it("streams a 1 MB answer within 1.3x of the raw SDK", async () => {
	const text = await measure([
		...splitText(LONG_ANSWER, TEXT_DELTA_CHARS).map((piece) => chunk({ content: piece })),
		...finish("stop", { prompt_tokens: 10, completion_tokens: 250_000, total_tokens: 250_010 }),
	]);
	const args = JSON.stringify(LARGE_WRITE_ARGUMENTS);
	const tool = await measure([
		...toolCallChunks(0, "call_1", "write", args, TOOL_DELTA_CHARS),
		...finish("tool_calls"),
	]);

	reportAdapterThroughput("openai-completions-stream", text, {
		...tool,
		label: "tool call",
		note: `${TOOL_ARGUMENT_BYTES / 1000} kB arguments`,
	});
	expect(text.events).toBeGreaterThan(ANSWER_BYTES / TEXT_DELTA_CHARS);
});
