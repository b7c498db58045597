// Without an onPayload hook each message is converted and serialized once and reused by later requests; these
// tests fail if a later request sees an earlier request's conversion where something it depends on changed, or
// if the prompt-cache marker of one request stays on a message another request shares.
import { describe, expect, it } from "vitest";
import { buildRequestParams } from "../../../src/providers/anthropic/build-request.js";
import { resolveAuth } from "../../../src/providers/anthropic/headers.js";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import type { Context, ImageContent, Message, Model, ToolResultMessage } from "../../../src/types.js";
import { anthropicReply, textBlock } from "../../helpers/anthropic-sse.js";
import { assistant, toolCall, toolResult, user } from "../../helpers/messages.js";
import { claudeSonnet4, useFakeServer } from "../../helpers/provider-test-harness.js";
import { serializePayload } from "../../helpers/serialized-payload.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();

const png: ImageContent = { type: "image", data: "AAAA", mimeType: "image/png" };

function reused(model: Model<"anthropic-messages">, messages: Message[], apiKey = "sk-ant-api03-key") {
	const context: Context = { systemPrompt: "sys", messages };
	return buildRequestParams(model, context, {}, resolveAuth(model, apiKey), undefined, { reuseConversions: true });
}

function fresh(model: Model<"anthropic-messages">, messages: Message[], apiKey = "sk-ant-api03-key") {
	return buildRequestParams(model, { systemPrompt: "sys", messages }, {}, resolveAuth(model, apiKey));
}

const decoded = (payload: { messages: readonly object[] }) =>
	new TextDecoder().decode(serializePayload(payload, "messages"));

function imageResult(id: string): ToolResultMessage {
	return { ...toolResult(id), content: [png] };
}

describe("Anthropic conversions reused across requests", () => {
	it("give the same payload as converting afresh, over a conversation that grows turn by turn", () => {
		const model = claudeSonnet4("http://127.0.0.1:1");
		const history: Message[] = [user("q")];
		for (let turn = 0; turn < 6; turn++) {
			history.push(assistant(model, [toolCall(`c${turn}`), toolCall(`d${turn}`)]));
			history.push(toolResult(`c${turn}`, `result ${turn}`), imageResult(`d${turn}`));
			const payload = reused(model, history);
			expect(payload).toEqual(fresh(model, history));
			expect(decoded(payload)).toBe(JSON.stringify(payload));
		}
	});

	it("share the unchanged messages, and keep the cache marker only on this request's last message", () => {
		const model = claudeSonnet4("http://127.0.0.1:1");
		const history: Message[] = [user("first"), assistant(model, [toolCall("c1")]), toolResult("c1")];
		const before = reused(model, history);
		expect(JSON.stringify(before.messages[2])).toContain("cache_control");
		history.push(assistant(model, [{ type: "text", text: "done" }]), user("second"));
		const after = reused(model, history);
		// The earlier messages are the same objects (converted once), and the earlier last one is unmarked now.
		expect(after.messages[0]).toBe(before.messages[0]);
		expect(after.messages[1]).toBe(before.messages[1]);
		expect(JSON.stringify(after.messages.slice(0, -1))).not.toContain("cache_control");
		expect(decoded(after).match(/cache_control/g)).toHaveLength(2); // the system prompt's and the last message's
		expect(after).toEqual(fresh(model, history));
	});

	it("convert another model's turns once, sharing them with the next request", () => {
		const model = claudeSonnet4("http://127.0.0.1:1");
		const gpt = { provider: "openai", api: "openai-responses", id: "gpt-5.4" } as const;
		const history: Message[] = [
			user("q"),
			assistant(gpt, [{ type: "thinking", thinking: "plan", thinkingSignature: "{}" }, toolCall("call_1|fc_1")]),
			toolResult("call_1|fc_1"),
		];
		const before = reused(model, history);
		history.push(user("next"));
		const after = reused(model, history);
		expect(after.messages[1]).toBe(before.messages[1]);
		expect(after.messages[1]).toMatchObject({ content: [{ type: "text", text: "plan" }, { id: "call_1_fc_1" }] });
		expect(after).toEqual(fresh(model, history));
	});

	it("follow a switch to a model without images and back", () => {
		const vision = claudeSonnet4("http://127.0.0.1:1");
		const textOnly = claudeSonnet4("http://127.0.0.1:1", { input: ["text"] });
		const history: Message[] = [{ role: "user", content: [{ type: "text", text: "look" }, png], timestamp: 1 }];
		expect(JSON.stringify(reused(vision, history))).toContain('"image"');
		expect(JSON.stringify(reused(textOnly, history))).not.toContain('"image"');
		expect(JSON.stringify(reused(vision, history))).toContain('"image"');
	});

	it("follow a switch between an API key and a Claude subscription (Claude Code's tool names)", () => {
		const model = claudeSonnet4("http://127.0.0.1:1");
		const history: Message[] = [user("q"), assistant(model, [toolCall("c1")]), toolResult("c1")];
		expect(reused(model, history).messages[1]).toMatchObject({ content: [{ name: "read" }] });
		expect(reused(model, history, "sk-ant-oat01-token").messages[1]).toMatchObject({ content: [{ name: "Read" }] });
		expect(reused(model, history).messages[1]).toMatchObject({ content: [{ name: "read" }] });
	});

	it("see a replaced message and a tool-result run that grew, not the earlier conversion", () => {
		const model = claudeSonnet4("http://127.0.0.1:1");
		const history: Message[] = [user("before"), assistant(model, [toolCall("c1"), toolCall("c2")]), toolResult("c1")];
		// Until c2's result arrives, the run holds a stand-in for it (the pairing repair); then the real one.
		expect(decoded(reused(model, history))).not.toContain("second result");
		history.push(toolResult("c2", "second result"));
		expect(decoded(reused(model, history))).toContain("second result");
		expect(reused(model, history)).toEqual(fresh(model, history));
		history[0] = user("after");
		const payload = reused(model, history);
		expect(decoded(payload)).toContain("after");
		expect(decoded(payload)).not.toContain("before");
	});
});

describe("Anthropic requests on the wire", () => {
	const model = () => claudeSonnet4(server.url);

	async function send(messages: Message[], onPayload?: (payload: unknown) => unknown) {
		server.enqueue(anthropicReply(textBlock(0, ["ok"])));
		const { result } = await collect(streamAnthropic(model(), { messages }, { apiKey: "k", onPayload }));
		expect(result.stopReason).toBe("stop");
		return server.lastRequest!;
	}

	it("send the same bytes and content type with and without reuse", async () => {
		const history = [user("q"), assistant(model(), [toolCall("c1")]), toolResult("c1"), user("next")];
		const reusedRequest = await send(history);
		const freshRequest = await send(history, () => undefined);
		expect(reusedRequest.rawBody).toBe(freshRequest.rawBody);
		expect(reusedRequest.headers["content-type"]).toBe("application/json");
		expect(reusedRequest.headers["content-length"]).toBe(freshRequest.headers["content-length"]);
	});

	it("do not carry a hook's in-place change of one request into the next", async () => {
		const history = [user("original")];
		await send(history);
		const changed = await send(history, (payload) => {
			const messages = (payload as { messages: { content: { text: string }[] }[] }).messages;
			messages[0].content[0].text = "changed by hook";
		});
		expect(changed.body).toMatchObject({ messages: [{ role: "user", content: [{ text: "changed by hook" }] }] });
		const next = await send(history);
		expect(next.body).toMatchObject({ messages: [{ role: "user", content: [{ text: "original" }] }] });
	});
});
