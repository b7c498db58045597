// The per-API stream functions exported from the package entry (the reference's names) stream like the
// adapters themselves; each loads its adapter only when first called.
import { describe, expect, it } from "vitest";
import {
	streamAnthropic,
	streamAzureOpenAIResponses,
	streamGoogleVertex,
	streamMistral,
	streamSimpleAnthropic,
	streamSimpleAzureOpenAIResponses,
	streamSimpleGoogleVertex,
	streamSimpleMistral,
} from "../src/index.js";
import type { Context } from "../src/types.js";
import { anthropicReply, textBlock } from "./helpers/anthropic-sse.js";
import { geminiReply, geminiTextChunks } from "./helpers/google-sse.js";
import { chunk, finish } from "./helpers/openai-completions-sse.js";
import { completed, created, messageItem } from "./helpers/openai-responses-sse.js";
import {
	azureTestModel,
	claudeSonnet4,
	mistralTestModel,
	useFakeServer,
	vertexGemini,
} from "./helpers/provider-test-harness.js";
import { collect } from "./helpers/stream-events.js";

const server = useFakeServer();
const context: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };

describe("exported per-API stream functions", () => {
	it("streamAnthropic streams the reply, also on the call that loads the adapter", async () => {
		server.enqueue(anthropicReply(textBlock(0, ["Hel", "lo"])));
		server.enqueue(anthropicReply(textBlock(0, ["again"])));
		const first = await collect(streamAnthropic(claudeSonnet4(server.url), context, { apiKey: "sk-ant-test" }));
		expect(first.types).toEqual(["start", "text_start", "text_delta", "text_delta", "text_end", "done"]);
		expect(first.result.content).toEqual([{ type: "text", text: "Hello" }]);
		const second = await collect(streamAnthropic(claudeSonnet4(server.url), context, { apiKey: "sk-ant-test" }));
		expect(second.result.content).toEqual([{ type: "text", text: "again" }]);
	});

	it("streamSimpleAnthropic takes the provider-neutral options", async () => {
		server.enqueue(anthropicReply(textBlock(0, ["ok"])));
		const { result } = await collect(
			streamSimpleAnthropic(claudeSonnet4(server.url), context, { apiKey: "sk-ant-test", reasoning: "low" }),
		);
		expect(result.stopReason).toBe("stop");
		expect(server.requests.at(-1)?.body).toMatchObject({ thinking: expect.anything() });
	});
});

describe("exported stream functions of the cloud APIs", () => {
	it("streamGoogleVertex and streamSimpleGoogleVertex stream Vertex's reply with an express-mode key", async () => {
		server.enqueue(geminiReply(geminiTextChunks(["Hi", " there"])));
		server.enqueue(geminiReply(geminiTextChunks(["simple"])));
		const full = await collect(streamGoogleVertex(vertexGemini(server.url), context, { apiKey: "vertex-key" }));
		expect(full.result.content).toEqual([expect.objectContaining({ type: "text", text: "Hi there" })]);
		expect(server.requests.at(-1)?.headers["x-goog-api-key"]).toBe("vertex-key");
		const simple = await collect(
			streamSimpleGoogleVertex(vertexGemini(server.url), context, { apiKey: "vertex-key", reasoning: "low" }),
		);
		expect(simple.result.content).toEqual([expect.objectContaining({ type: "text", text: "simple" })]);
		expect(server.requests.at(-1)?.body).toMatchObject({ generationConfig: { thinkingConfig: expect.anything() } });
	});

	it("streamAzureOpenAIResponses and its simple form post to the deployment with the api-key header", async () => {
		const reply = () => ({
			kind: "sse" as const,
			chunks: [created(), ...messageItem(0, "msg_1", "Hi"), completed()],
		});
		server.enqueue(reply());
		server.enqueue(reply());
		const model = azureTestModel(`${server.url}/openai/v1`);
		const full = await collect(
			streamAzureOpenAIResponses(model, context, { apiKey: "azure-key", azureDeploymentName: "my-deployment" }),
		);
		expect(full.result.content).toEqual([expect.objectContaining({ type: "text", text: "Hi" })]);
		expect(server.requests.at(-1)?.headers["api-key"]).toBe("azure-key");
		expect(server.requests.at(-1)?.body).toMatchObject({ model: "my-deployment" });
		const simple = await collect(streamSimpleAzureOpenAIResponses(model, context, { apiKey: "azure-key" }));
		expect(simple.result.stopReason).toBe("stop");
		expect(server.requests.at(-1)?.url).toBe("/openai/v1/responses?api-version=v1");
	});

	it("streamMistral and streamSimpleMistral post Mistral's chat request with a bearer key", async () => {
		const reply = () => ({
			kind: "sse" as const,
			chunks: [chunk({ role: "assistant", content: "ok" }), ...finish("stop")],
		});
		server.enqueue(reply());
		server.enqueue(reply());
		const full = await collect(
			streamMistral(mistralTestModel(server.url), context, { apiKey: "mistral-key", toolChoice: "none" }),
		);
		expect(full.result.content).toEqual([expect.objectContaining({ type: "text", text: "ok" })]);
		expect(server.requests.at(-1)?.headers.authorization).toBe("Bearer mistral-key");
		expect(server.requests.at(-1)?.body).toMatchObject({ tool_choice: "none" });
		const simple = await collect(
			streamSimpleMistral(mistralTestModel(server.url), context, { apiKey: "mistral-key" }),
		);
		expect(simple.result.stopReason).toBe("stop");
		expect(server.requests.at(-1)?.url).toBe("/v1/chat/completions");
	});
});
