// Throughput of the azure-openai-responses adapter: a ~1 MB streamed answer and a large streamed function call
// served from a local server, through `stream(...)` versus the raw SDK's Azure client for the same bytes.
import { AzureOpenAI } from "openai";
import { expect, it } from "vitest";
import { completed, created, functionCallItem, messageItem } from "../test/helpers/openai-responses-sse.js";
import { azureTestModel } from "../test/helpers/provider-test-harness.js";
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
	model: (serverUrl) => azureTestModel(`${serverUrl}/openai/v1`),
	apiKey: "k",
	async readWithRawSdk(serverUrl) {
		const client = new AzureOpenAI({
			apiKey: "k",
			apiVersion: "v1",
			baseURL: `${serverUrl}/openai/v1`,
			maxRetries: 0,
		});
		const s = await client.responses.create({ model: "gpt-5.2", input: [], stream: true });
		let text = "";
		let args = "";
		for await (const event of s) {
			if (event.type === "response.output_text.delta") text += event.delta;
			else if (event.type === "response.function_call_arguments.delta") args += event.delta;
		}
		if (text.length + args.length === 0) throw new Error("empty stream");
	},
});

it("streams a 1 MB answer within 1.3x of the raw SDK", async () => {
	const text = await measure([
		created(),
		...messageItem(0, "msg_1", LONG_ANSWER, { size: TEXT_DELTA_CHARS }),
		completed({ usage: { input: 10, output: 250_000 } }),
	]);
	const tool = await measure([
		created(),
		...functionCallItem(0, "call_1", "fc_1", "write", JSON.stringify(LARGE_WRITE_ARGUMENTS), TOOL_DELTA_CHARS),
		completed(),
	]);
	reportAdapterThroughput("azure-openai-responses-stream", text, {
		...tool,
		label: "tool call",
		note: `${TOOL_ARGUMENT_BYTES / 1000} kB arguments`,
	});
	expect(text.events).toBeGreaterThan(ANSWER_BYTES / TEXT_DELTA_CHARS);
});
