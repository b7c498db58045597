// Mistral through its own SDK against a local server: the chat request as sent on the wire and how replies read.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { streamMistral, streamSimpleMistral } from "../../../src/providers/mistral/index.js";
import type { AssistantMessage, Context, MistralOptions } from "../../../src/types.js";
import { chunk, finish } from "../../helpers/openai-completions-sse.js";
import { mistralTestModel, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();

const earlier: AssistantMessage = {
	role: "assistant",
	content: [
		{ type: "thinking", thinking: "Check the dir." },
		{ type: "toolCall", id: "toolu_01ABCDEFGHIJKLMNOP", name: "bash", arguments: { command: "ls" } },
	],
	api: "anthropic-messages",
	provider: "anthropic",
	model: "claude-sonnet-4-5",
	usage: {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	},
	stopReason: "toolUse",
	timestamp: 2,
};

const context: Context = {
	systemPrompt: "You are a coding agent.",
	messages: [
		{ role: "user", content: "list files", timestamp: 1 },
		earlier,
		{
			role: "toolResult",
			toolCallId: "toolu_01ABCDEFGHIJKLMNOP",
			toolName: "bash",
			content: [{ type: "text", text: "a\nb" }],
			isError: true,
			timestamp: 3,
		},
	],
	tools: [{ name: "bash", description: "Run a command", parameters: Type.Object({ command: Type.String() }) }],
};

async function send(options: MistralOptions = { apiKey: "mistral-key" }) {
	const before = server.requests.length;
	server.enqueue({ kind: "sse", chunks: [chunk({ role: "assistant", content: "ok" }), ...finish("stop")] });
	const { result } = await collect(streamMistral(mistralTestModel(server.url), context, options));
	return { result, request: server.requests[before] };
}

describe("requests", () => {
	it("posts the chat request in Mistral's wire format with a bearer key", async () => {
		const { result, request } = await send({
			apiKey: "mistral-key",
			maxTokens: 100,
			temperature: 0.2,
			toolChoice: "any",
			sessionId: "s-1",
		});
		expect(result.errorMessage).toBeUndefined();
		expect(request.url).toBe("/v1/chat/completions");
		expect(request.headers.authorization).toBe("Bearer mistral-key");
		expect(request.headers["x-affinity"]).toBe("s-1");
		const body = request.body as Record<string, unknown> & { messages: Record<string, unknown>[] };
		expect(body).toMatchObject({
			model: "devstral-medium-latest",
			stream: true,
			max_tokens: 100,
			temperature: 0.2,
			tool_choice: "any",
		});
		expect(body.tools).toEqual([
			{
				type: "function",
				function: { name: "bash", description: "Run a command", parameters: expect.any(Object), strict: false },
			},
		]);
		expect(body.messages[0]).toEqual({ role: "system", content: "You are a coding agent." });
		const call = (body.messages[2].tool_calls as { id: string }[])[0];
		expect(call.id).toMatch(/^[a-zA-Z0-9]{9}$/);
		expect(body.messages[3]).toMatchObject({ role: "tool", tool_call_id: call.id, name: "bash" });
		expect(body.messages[3].content).toEqual([{ type: "text", text: "[tool error] a\nb" }]);
	});

	it("asks a reasoning model for its reasoning prompt mode when a level is set", async () => {
		const before = server.requests.length;
		server.enqueue({ kind: "sse", chunks: [chunk({ content: "ok" }), ...finish("stop")] });
		const magistral = mistralTestModel(server.url, { id: "magistral-medium-latest", reasoning: true });
		await collect(
			streamSimpleMistral(magistral, { messages: context.messages.slice(0, 1) }, { apiKey: "k", reasoning: "high" }),
		);
		expect(server.requests[before].body).toMatchObject({ prompt_mode: "reasoning" });
	});
});

describe("replies", () => {
	it("reads thinking chunks, text, a whole tool call and usage", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [
				chunk({ role: "assistant", content: [{ type: "thinking", thinking: [{ type: "text", text: "Plan." }] }] }),
				chunk({ content: "Running." }),
				chunk({
					tool_calls: [
						{
							id: "Ab3dE6gH9",
							type: "function",
							index: 0,
							function: { name: "bash", arguments: '{"command":"ls"}' },
						},
					],
				}),
				chunk(
					{},
					{ finish_reason: "tool_calls", usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } },
				),
				"data: [DONE]\n\n",
			],
		});
		const { result } = await collect(streamMistral(mistralTestModel(server.url), context, { apiKey: "k" }));
		expect(result.errorMessage).toBeUndefined();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "Plan." },
			{ type: "text", text: "Running." },
			{ type: "toolCall", id: "Ab3dE6gH9", name: "bash", arguments: { command: "ls" } },
		]);
		expect(result.usage).toMatchObject({ input: 12, output: 5, totalTokens: 17 });
	});
});
