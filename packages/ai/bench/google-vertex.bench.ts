// Throughput of the google-vertex adapter: a ~1 MB streamed answer (and a 200 kB function call) from a local server,
// through `stream(...)` versus the raw @google/genai Vertex client (API key, express path) for the same bytes.
import { GoogleGenAI } from "@google/genai";
import { expect, it } from "vitest";
import { geminiChunk, geminiTextChunks } from "../test/helpers/google-sse.js";
import { vertexGemini } from "../test/helpers/provider-test-harness.js";
import { splitText } from "../test/helpers/split-text.js";
import {
	ANSWER_BYTES,
	adapterThroughputBench,
	LARGE_WRITE_ARGUMENTS,
	LONG_ANSWER,
	reportAdapterThroughput,
	TOOL_ARGUMENT_BYTES,
} from "./helpers/adapter-throughput.js";

const TEXT_CHUNK_CHARS = 16;

const { measure } = adapterThroughputBench({
	model: (serverUrl) => vertexGemini(serverUrl),
	apiKey: "vertex-bench",
	async readWithRawSdk(serverUrl) {
		const client = new GoogleGenAI({
			vertexai: true,
			apiKey: "vertex-bench",
			apiVersion: "v1",
			httpOptions: { baseUrl: serverUrl },
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
	},
});

it("streams a 1 MB answer within 1.3x of the raw SDK", async () => {
	const usage = { promptTokenCount: 10, candidatesTokenCount: 250_000, totalTokenCount: 250_010 };
	const text = await measure(geminiTextChunks(splitText(LONG_ANSWER, TEXT_CHUNK_CHARS), { usage }));
	const tool = await measure([
		geminiChunk([{ text: "Writing the file." }]),
		geminiChunk([{ functionCall: { name: "write", args: LARGE_WRITE_ARGUMENTS } }], { finishReason: "STOP", usage }),
	]);
	reportAdapterThroughput("google-vertex-stream", text, {
		...tool,
		label: "function call",
		note: `${TOOL_ARGUMENT_BYTES / 1000} kB arguments in one part`,
	});
	expect(text.events).toBeGreaterThan(ANSWER_BYTES / TEXT_CHUNK_CHARS);
});
