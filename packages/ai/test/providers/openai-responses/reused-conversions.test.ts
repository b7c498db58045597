// Without an onPayload hook each message's input items are built and serialized once and reused by later
// requests; these tests fail if a later request sees an earlier request's items where something they depend on
// (the target model, a message's position) changed.
import { describe, expect, it } from "vitest";
import { stream } from "../../../src/index.js";
import { buildResponsesPayload, type ResponsesPayload } from "../../../src/providers/openai-responses/build-payload.js";
import type { Message, Model } from "../../../src/types.js";
import { assistant, toolCall, toolResult, user } from "../../helpers/messages.js";
import { textResponse } from "../../helpers/openai-responses-sse.js";
import { openaiTestModel, useFakeServer } from "../../helpers/provider-test-harness.js";
import { serializePayload } from "../../helpers/serialized-payload.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();

const reused = (model: Model, messages: Message[]) =>
	buildResponsesPayload(model, { systemPrompt: "sys", messages }, {}, { reuseConversions: true });
const fresh = (model: Model, messages: Message[]) =>
	buildResponsesPayload(model, { systemPrompt: "sys", messages }, {});
const decoded = (payload: ResponsesPayload) => new TextDecoder().decode(serializePayload(payload, "input"));

describe("Responses conversions reused across requests", () => {
	it("give the same payload as building afresh over a growing conversation, sharing the unchanged items", () => {
		const model = openaiTestModel("openai-responses", "http://127.0.0.1:1/v1");
		const history: Message[] = [user("q")];
		let previous: ResponsesPayload | undefined;
		for (let turn = 0; turn < 5; turn++) {
			// Unsigned texts get ids from their message's position (msg_<index>).
			history.push(assistant(model, [{ type: "text", text: `step ${turn}` }, toolCall(`call_${turn}`)]));
			history.push(toolResult(`call_${turn}`, `result ${turn}`));
			const payload = reused(model, history);
			expect(payload).toEqual(fresh(model, history));
			expect(decoded(payload)).toBe(JSON.stringify(payload));
			if (previous) expect(payload.input.slice(0, previous.input.length)).toEqual(previous.input);
			if (previous) expect(payload.input[1]).toBe(previous.input[1]);
			previous = payload;
		}
	});

	it("convert another model's turns once, sharing their items with the next request", () => {
		const model = openaiTestModel("openai-responses", "http://127.0.0.1:1/v1");
		const claude = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" } as const;
		const history: Message[] = [
			user("q"),
			assistant(claude, [{ type: "thinking", thinking: "plan", thinkingSignature: "sig" }, toolCall("toolu_1")]),
			toolResult("toolu_1"),
		];
		const before = reused(model, history);
		history.push(user("next"));
		const after = reused(model, history);
		for (let index = 1; index < before.input.length; index++) expect(after.input[index]).toBe(before.input[index]);
		expect(after).toEqual(fresh(model, history));
	});

	it("rebuild an assistant's items when it moves (a compacted history), since their ids follow its position", () => {
		const model = openaiTestModel("openai-responses", "http://127.0.0.1:1/v1");
		const answer = assistant(model, [{ type: "text", text: "unsigned" }]);
		const long = reused(model, [user("a"), assistant(model, [{ type: "text", text: "x" }]), user("b"), answer]);
		expect(JSON.stringify(long.input.at(-1))).toContain('"msg_3"');
		const compacted = reused(model, [user("summary"), answer]);
		expect(JSON.stringify(compacted.input.at(-1))).toContain('"msg_1"');
		expect(compacted).toEqual(fresh(model, [user("summary"), answer]));
	});

	it("follow a switch to another model (images, the same API's other models' item ids)", () => {
		const vision = openaiTestModel("openai-responses", "http://127.0.0.1:1/v1");
		const textOnly = openaiTestModel("openai-responses", "http://127.0.0.1:1/v1", { input: ["text"] });
		const history: Message[] = [
			{
				role: "user",
				content: [
					{ type: "text", text: "look" },
					{ type: "image", data: "AAAA", mimeType: "image/png" },
				],
				timestamp: 1,
			},
		];
		expect(JSON.stringify(reused(vision, history))).toContain("input_image");
		expect(JSON.stringify(reused(textOnly, history))).not.toContain("input_image");
		expect(JSON.stringify(reused(vision, history))).toContain("input_image");
	});
});

describe("Responses requests on the wire", () => {
	const model = () => openaiTestModel("openai-responses", `${server.url}/v1`);

	async function send(messages: Message[], onPayload?: (payload: unknown) => unknown) {
		server.enqueue(textResponse("ok"));
		const { result } = await collect(stream(model(), { systemPrompt: "sys", messages }, { apiKey: "k", onPayload }));
		expect(result.stopReason).toBe("stop");
		return server.lastRequest!;
	}

	it("send the same bytes and content type with and without reuse", async () => {
		const history = [user("q"), assistant(model(), [toolCall("call_1")]), toolResult("call_1"), user("next")];
		const reusedRequest = await send(history);
		const freshRequest = await send(history, () => undefined);
		expect(reusedRequest.rawBody).toBe(freshRequest.rawBody);
		expect(reusedRequest.headers["content-type"]).toBe("application/json");
	});

	it("do not carry a hook's in-place change of one request into the next", async () => {
		const history = [user("original")];
		await send(history);
		await send(history, (payload) => {
			const items = (payload as ResponsesPayload).input as { content: { text: string }[] }[];
			items[1].content[0].text = "changed by hook";
		});
		const next = await send(history);
		expect(next.rawBody).toContain("original");
		expect(next.rawBody).not.toContain("changed by hook");
	});
});
