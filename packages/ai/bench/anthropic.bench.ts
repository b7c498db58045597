// Throughput of the anthropic-messages adapter: a ~1 MB streamed answer (and a large streamed tool call)
// served from a local server, consumed through `stream(...)` versus iterating the raw SDK stream for the
// same bytes (bench/helpers/adapter-throughput.ts).
import Anthropic from "@anthropic-ai/sdk";
import { expect, it } from "vitest";
import { messageDelta, messageStart, messageStop, textBlock, toolUseBlock } from "../test/helpers/anthropic-sse.js";
import type { SseChunk } from "../test/helpers/fake-server.js";
import { claudeSonnet4 } from "../test/helpers/provider-test-harness.js";
import { splitText } from "../test/helpers/split-text.js";
import {
	ANSWER_BYTES,
	adapterThroughputBench,
	LARGE_WRITE_ARGUMENTS,
	LONG_ANSWER,
	reportAdapterThroughput,
	TOOL_ARGUMENT_BYTES,
} from "./helpers/adapter-throughput.js";

const TEXT_DELTA_CHARS = 16;
const TOOL_DELTA_CHARS = 16;

const { measure } = adapterThroughputBench({
	model: (serverUrl) => claudeSonnet4(serverUrl),
	apiKey: "sk-ant-bench",
	async readWithRawSdk(serverUrl) {
		const client = new Anthropic({ apiKey: "sk-ant-bench", baseURL: serverUrl, maxRetries: 0, logLevel: "off" });
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
	},
});

function reply(blocks: SseChunk[], stopReason: string): SseChunk[] {
	return [messageStart(), ...blocks, messageDelta(stopReason, { output_tokens: 250_000 }), messageStop()];
}

it("streams a 1 MB answer within 1.3x of the raw SDK", async () => {
	const text = await measure(reply(textBlock(0, splitText(LONG_ANSWER, TEXT_DELTA_CHARS)), "end_turn"));
	const tool = await measure(
		reply(toolUseBlock(0, "toolu_1", "write", LARGE_WRITE_ARGUMENTS, TOOL_DELTA_CHARS), "tool_use"),
	);

	reportAdapterThroughput("anthropic-messages-stream", text, {
		...tool,
		label: "tool call",
		note: `${TOOL_ARGUMENT_BYTES / 1000} kB arguments`,
	});
	expect(text.events).toBeGreaterThan(ANSWER_BYTES / TEXT_DELTA_CHARS);
});
