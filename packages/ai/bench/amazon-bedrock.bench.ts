// Throughput of the bedrock-converse-stream adapter: a ~1 MB answer and a 200 kB streamed tool call in binary AWS
// event-stream frames from a local server, through `stream(...)` versus the raw AWS SDK (its own HTTP/1.1 handler
// and event-stream decoder) for the same bytes.
import { BedrockRuntimeClient, ConverseStreamCommand } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { expect, it } from "vitest";
import {
	blockStop,
	EVENTSTREAM_CONTENT_TYPE,
	messageStart,
	messageStop,
	metadata,
	textDelta,
	toolUseDelta,
	toolUseStart,
} from "../test/helpers/bedrock-eventstream.js";
import { bedrockClaude } from "../test/helpers/provider-test-harness.js";
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
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

const { measure } = adapterThroughputBench({
	model: (serverUrl) => bedrockClaude(serverUrl),
	apiKey: "k",
	contentType: EVENTSTREAM_CONTENT_TYPE,
	async readWithRawSdk(serverUrl) {
		const client = new BedrockRuntimeClient({
			region: "us-east-1",
			endpoint: serverUrl,
			token: { token: "k" },
			authSchemePreference: ["httpBearerAuth"],
			maxAttempts: 1,
			requestHandler: new NodeHttpHandler(),
		});
		const response = await client.send(
			new ConverseStreamCommand({ modelId: "m", messages: [{ role: "user", content: [{ text: "hi" }] }] }),
		);
		let text = "";
		let args = "";
		for await (const event of response.stream ?? []) {
			const delta = event.contentBlockDelta?.delta;
			if (delta?.text) text += delta.text;
			if (delta?.toolUse?.input) args += delta.toolUse.input;
		}
		if (text.length + args.length === 0) throw new Error("empty stream");
	},
});

it("streams a 1 MB answer within 1.3x of the raw SDK", async () => {
	const usage = { inputTokens: 10, outputTokens: 250_000, totalTokens: 250_010 };
	const text = await measure([
		messageStart(),
		...splitText(LONG_ANSWER, TEXT_DELTA_CHARS).map((piece) => textDelta(0, piece)),
		blockStop(0),
		messageStop("end_turn"),
		metadata(usage),
	]);
	const tool = await measure([
		messageStart(),
		toolUseStart(0, "tooluse_1", "write"),
		...splitText(JSON.stringify(LARGE_WRITE_ARGUMENTS), TOOL_DELTA_CHARS).map((piece) => toolUseDelta(0, piece)),
		blockStop(0),
		messageStop("tool_use"),
		metadata(usage),
	]);
	reportAdapterThroughput("bedrock-converse-stream", text, {
		...tool,
		label: "tool call",
		note: `${TOOL_ARGUMENT_BYTES / 1000} kB arguments`,
	});
	expect(text.events).toBeGreaterThan(ANSWER_BYTES / TEXT_DELTA_CHARS);
});
