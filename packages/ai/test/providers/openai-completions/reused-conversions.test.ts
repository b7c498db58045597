// Each message is converted and serialized once and reused by later requests (no onPayload hook); these tests
// fail if a later request sees an earlier request's conversion where something it depends on changed.

import { describe, expect, it } from "vitest";
import fc from "../../../../../scripts/fast-check.js";
import { stream } from "../../../src/index.js";
import { buildCompletionsPayload } from "../../../src/providers/openai-completions/build-payload.js";
import {
	detectCompletionsCompat,
	type ResolvedCompletionsCompat,
} from "../../../src/providers/openai-completions/compat.js";
import type { CompletionsPayload, WireMessage } from "../../../src/providers/openai-completions/wire-types.js";
import type { Context, Message, Model } from "../../../src/types.js";
import { assistant, toolCall, toolResult, user } from "../../helpers/messages.js";
import { finish, textChunks } from "../../helpers/openai-completions-sse.js";
import { openaiTestModel, useFakeServer } from "../../helpers/provider-test-harness.js";
import { serializePayload } from "../../helpers/serialized-payload.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();

const png = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

function reusedPayload(
	model: Model<"openai-completions">,
	messages: Message[],
	compat: Partial<ResolvedCompletionsCompat> = {},
): CompletionsPayload {
	const context: Context = { systemPrompt: "sys", messages };
	return buildCompletionsPayload(
		model,
		context,
		{},
		{ ...detectCompletionsCompat(model), ...compat },
		{
			reuseConversions: true,
		},
	);
}

const decoded = (payload: CompletionsPayload) => new TextDecoder().decode(serializePayload(payload, "messages"));

describe("serialized body", () => {
	it("is JSON.stringify of the payload byte for byte, also when a message is serialized a second time", () => {
		const model = openaiTestModel("openai-completions", "http://127.0.0.1:1/v1");
		const history = [user('héllo \u{1F600} "quoted"'), assistant(model, [toolCall("c1")]), toolResult("c1", "ünï")];
		const first = reusedPayload(model, history);
		expect(decoded(first)).toBe(JSON.stringify(first));
		const second = reusedPayload(model, [...history, user("more")]);
		expect(decoded(second)).toBe(JSON.stringify(second));
	});

	it("matches JSON.stringify for any message texts and extra fields", () => {
		fc.assert(
			fc.property(
				fc.array(fc.string({ unit: "binary" }), { maxLength: 5 }),
				fc.string({ unit: "binary" }),
				(texts, id) => {
					const messages: WireMessage[] = texts.map((text) => ({ role: "user", content: text }));
					const payload: CompletionsPayload = { model: id, messages, stream: true, temperature: 0.5 };
					expect(decoded(payload)).toBe(JSON.stringify(payload));
				},
			),
		);
	});

	it("matches JSON.stringify over a conversation that grows, is edited in the middle, shrinks and restarts", () => {
		const step = fc.oneof(
			fc.record({ op: fc.constant("append" as const), text: fc.string() }),
			fc.record({ op: fc.constant("replace" as const), at: fc.nat(), text: fc.string() }),
			fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }),
			fc.record({ op: fc.constant("restart" as const), text: fc.string() }),
		);
		fc.assert(
			fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
				const system: WireMessage = { role: "system", content: "sys" };
				let messages: WireMessage[] = [system];
				for (const s of steps) {
					if (s.op === "append") messages = [...messages, { role: "user", content: s.text }];
					else if (s.op === "replace") {
						messages = [...messages];
						messages[s.at % messages.length] = { role: "user", content: s.text };
					} else if (s.op === "truncate") messages = messages.slice(0, s.at % (messages.length + 1));
					else messages = [system, { role: "user", content: s.text }];
					const payload: CompletionsPayload = { model: "m", messages, stream: true };
					expect(decoded(payload)).toBe(JSON.stringify(payload));
				}
			}),
		);
	});
});

describe("conversions reused across requests", () => {
	it("follow a model switch to a text-only model and back", () => {
		const history = [
			user("q"),
			{
				role: "user",
				content: ["look", png].map((c) => (typeof c === "string" ? { type: "text" as const, text: c } : c)),
				timestamp: 1,
			} as Message,
		];
		const vision = openaiTestModel("openai-completions", "http://127.0.0.1:1/v1");
		const textOnly = openaiTestModel("openai-completions", "http://127.0.0.1:1/v1", { input: ["text"] });
		expect(JSON.stringify(reusedPayload(vision, history))).toContain("image_url");
		expect(JSON.stringify(reusedPayload(textOnly, history))).not.toContain("image_url");
		expect(JSON.stringify(reusedPayload(vision, history))).toContain("image_url");
	});

	it("follow a compat change (tool names on results, text for reasoning)", () => {
		const model = openaiTestModel("openai-completions", "http://127.0.0.1:1/v1");
		const history = [
			user("q"),
			assistant(model, [
				{ type: "thinking", thinking: "hmm", thinkingSignature: "reasoning_content" },
				toolCall("c1"),
			]),
			toolResult("c1"),
		];
		const plain = reusedPayload(model, history);
		expect(plain.messages[2]).toMatchObject({ reasoning_content: "hmm", content: null });
		expect(plain.messages[3]).not.toHaveProperty("name");
		const strict = reusedPayload(model, history, { requiresToolResultName: true, requiresThinkingAsText: true });
		expect(strict.messages[2]).toMatchObject({ content: [{ type: "text", text: "hmm" }] });
		expect(strict.messages[3]).toMatchObject({ name: "read" });
		expect(decoded(strict)).toBe(JSON.stringify(strict));
		expect(reusedPayload(model, history).messages[3]).not.toHaveProperty("name");
	});

	it("see a replaced message (an edit, or compaction's new history), not the earlier one's conversion", () => {
		const model = openaiTestModel("openai-completions", "http://127.0.0.1:1/v1");
		const history: Message[] = [user("before"), assistant(model, [{ type: "text", text: "a" }])];
		expect(decoded(reusedPayload(model, history))).toContain("before");
		history[0] = user("after");
		const payload = reusedPayload(model, history);
		expect(decoded(payload)).toContain("after");
		expect(decoded(payload)).not.toContain("before");
	});

	it("keep the OpenRouter cache marker off the shared message it was added to", () => {
		const openRouterClaude = openaiTestModel("openai-completions", "https://openrouter.ai/api/v1", {
			provider: "openrouter",
			id: "anthropic/claude-sonnet-4.5",
		});
		const first = user("first");
		const marked = reusedPayload(openRouterClaude, [first]);
		expect(marked.messages[1]).toEqual({
			role: "user",
			content: [{ type: "text", text: "first", cache_control: { type: "ephemeral" } }],
		});
		const later = reusedPayload(openRouterClaude, [
			first,
			assistant(openRouterClaude, [{ type: "text", text: "a" }]),
			user("second"),
		]);
		expect(later.messages[1]).toEqual({ role: "user", content: "first" });
		expect(decoded(later)).toBe(JSON.stringify(later));
		expect(decoded(later).match(/cache_control/g)).toHaveLength(1);
	});
});

describe("requests on the wire", () => {
	const model = () => openaiTestModel("openai-completions", `${server.url}/v1`);

	async function send(messages: Message[], onPayload?: (payload: unknown) => unknown) {
		server.enqueue({ kind: "sse", chunks: [...textChunks("ok"), ...finish()] });
		const { result } = await collect(stream(model(), { messages }, { apiKey: "k", onPayload }));
		expect(result.stopReason).toBe("stop");
		return server.lastRequest!;
	}

	it("send the same bytes and content type with and without reuse", async () => {
		const history = [user("q"), assistant(model(), [toolCall("c1")]), toolResult("c1"), user("next")];
		const reused = await send(history);
		const fresh = await send(history, () => undefined);
		expect(reused.rawBody).toBe(fresh.rawBody);
		expect(reused.headers["content-type"]).toBe("application/json");
		expect(reused.headers["content-length"]).toBe(fresh.headers["content-length"]);
	});

	it("do not carry a hook's in-place change of one request into the next", async () => {
		const history = [user("original")];
		await send(history);
		const changed = await send(history, (payload) => {
			((payload as CompletionsPayload).messages[0] as { content: string }).content = "changed by hook";
		});
		expect(changed.body).toMatchObject({ messages: [{ role: "user", content: "changed by hook" }] });
		const next = await send(history);
		expect(next.body).toMatchObject({ messages: [{ role: "user", content: "original" }] });
	});
});
