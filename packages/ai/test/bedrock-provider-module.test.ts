// setBedrockProviderModule: the built-in Bedrock provider streams through a module the program hands over,
// without importing the adapter or the AWS SDK.
import { afterEach, describe, expect, it } from "vitest";
import {
	type AssistantMessage,
	type AssistantMessageEvent,
	resetApiProviders,
	setBedrockProviderModule,
	stream,
	streamSimple,
} from "../src/index.js";
import type { Context, Model } from "../src/types.js";
import { bedrockClaude } from "./helpers/provider-test-harness.js";
import { collect } from "./helpers/stream-events.js";

const context: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };
const model: Model<"bedrock-converse-stream"> = bedrockClaude("http://127.0.0.1:9");

function reply(text: string): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: {
			input: 1,
			output: 1,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 2,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop",
		timestamp: 2,
	};
}

async function* events(text: string): AsyncIterable<AssistantMessageEvent> {
	const message = reply(text);
	yield { type: "start", partial: message };
	yield { type: "done", reason: "stop", message };
}

afterEach(() => resetApiProviders());

describe("a Bedrock module handed over", () => {
	it("serves stream and streamSimple for bedrock-converse-stream models, with the options given", async () => {
		const seen: unknown[] = [];
		setBedrockProviderModule({
			streamBedrock: (_model, _context, options) => {
				seen.push(options?.region);
				return events("full");
			},
			streamSimpleBedrock: (_model, _context, options) => {
				seen.push(options?.reasoning);
				return events("simple");
			},
		});
		const full = await collect(stream(model, context, { region: "eu-west-1" }));
		expect(full.types).toEqual(["start", "done"]);
		expect(full.result.content).toEqual([{ type: "text", text: "full" }]);
		const simple = await collect(streamSimple(model, context, { apiKey: "aws", reasoning: "high" }));
		expect(simple.result.content).toEqual([{ type: "text", text: "simple" }]);
		expect(seen).toEqual(["eu-west-1", "high"]);
	});

	it("ends the stream with an error when the module's stream stops without a result or throws", async () => {
		setBedrockProviderModule({
			streamBedrock: async function* () {
				yield* [];
			},
			streamSimpleBedrock: () => {
				throw new Error("no credentials in this bundle");
			},
		});
		const ended = await collect(stream(model, context));
		expect(ended.result.stopReason).toBe("error");
		expect(ended.result.errorMessage).toBe("Provider stream ended without a result");
		const thrown = await collect(streamSimple(model, context, { apiKey: "aws" }));
		expect(thrown.result.stopReason).toBe("error");
		expect(thrown.result.errorMessage).toContain("no credentials in this bundle");
	});
});
