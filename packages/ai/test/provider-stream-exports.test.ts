// The per-API stream functions exported from the package entry (the reference's names) stream like the
// adapters themselves; each loads its adapter only when first called.
import { describe, expect, it } from "vitest";
import { streamAnthropic, streamSimpleAnthropic } from "../src/index.js";
import type { Context } from "../src/types.js";
import { anthropicReply, textBlock } from "./helpers/anthropic-sse.js";
import { claudeSonnet4, useFakeServer } from "./helpers/provider-test-harness.js";
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
