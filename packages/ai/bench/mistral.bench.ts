// Throughput of the mistral-conversations adapter: a ~1 MB streamed answer (and a 200 kB tool call, which Mistral
// sends whole) from a local server, through `stream(...)` versus the raw Mistral SDK stream for the same bytes.
import { Mistral } from "@mistralai/mistralai";
import { expect, it } from "vitest";
import { chunk, finish, textChunks } from "../test/helpers/openai-completions-sse.js";
import { mistralTestModel } from "../test/helpers/provider-test-harness.js";
import {
	ANSWER_BYTES,
	adapterThroughputBench,
	LARGE_WRITE_ARGUMENTS,
	LONG_ANSWER,
	reportAdapterThroughput,
	TOOL_ARGUMENT_BYTES,
} from "./helpers/adapter-throughput.js";

const TEXT_CHUNK_CHARS = 12;

const { measure } = adapterThroughputBench({
	model: (serverUrl) => mistralTestModel(serverUrl),
	apiKey: "k",
	async readWithRawSdk(serverUrl) {
		const client = new Mistral({
			apiKey: "k",
			serverURL: serverUrl,
			retryConfig: { strategy: "none" },
			timeoutMs: -1,
		});
		const s = await client.chat.stream({
			model: "devstral-medium-latest",
			messages: [{ role: "user", content: "hi" }],
		});
		let text = "";
		let args = "";
		for await (const event of s) {
			const delta = event.data.choices[0]?.delta;
			if (typeof delta?.content === "string") text += delta.content;
			for (const call of delta?.toolCalls ?? []) args += String(call.function.arguments);
		}
		if (text.length + args.length === 0) throw new Error("empty stream");
	},
});

it("streams a 1 MB answer within 1.3x of the raw SDK", async () => {
	const usage = { prompt_tokens: 10, completion_tokens: 250_000, total_tokens: 250_010 };
	const text = await measure([...textChunks(LONG_ANSWER, TEXT_CHUNK_CHARS), ...finish("stop", usage)]);
	const call = {
		id: "Ab3dE6gH9",
		type: "function",
		index: 0,
		function: { name: "write", arguments: JSON.stringify(LARGE_WRITE_ARGUMENTS) },
	};
	const tool = await measure([
		chunk({ content: "Writing the file." }),
		chunk({ tool_calls: [call] }),
		...finish("tool_calls", usage),
	]);
	reportAdapterThroughput("mistral-conversations-stream", text, {
		...tool,
		label: "tool call",
		note: `${TOOL_ARGUMENT_BYTES / 1000} kB arguments in one chunk`,
	});
	expect(text.events).toBeGreaterThan(ANSWER_BYTES / TEXT_CHUNK_CHARS);
});
