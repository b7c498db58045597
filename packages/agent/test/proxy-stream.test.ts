// streamProxy against a proxy server on 127.0.0.1: the request it sends, the partial message it rebuilds from the
// server's events, and how failures and aborts end the stream.
import { Agent, type ProxyAssistantMessageEvent, streamProxy } from "@agent/agent-core";
import { type AssistantMessageEvent, type Context, FauxProvider, type Model, Type } from "@agent/ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ProxyTestServer } from "./helpers/proxy-server.js";

const server = new ProxyTestServer();
beforeAll(() => server.listen());
afterAll(() => server.close());

const model: Model = new FauxProvider().model();
const context: Context = {
	systemPrompt: "Be brief.",
	messages: [{ role: "user", content: "read a.txt", timestamp: 1 }],
	tools: [{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) }],
};
const usage = {
	input: 10,
	output: 5,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 15,
	cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
};

async function collect(stream: AsyncIterable<AssistantMessageEvent>, onEvent?: (event: AssistantMessageEvent) => void) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) {
		events.push(event);
		onEvent?.(event);
	}
	return events;
}

const options = () => ({ proxyUrl: server.url, authToken: "proxy-token" });

describe("a reply through the proxy", () => {
	it("posts the model, context and JSON-safe options to /api/stream with the bearer token", async () => {
		server.enqueue({ kind: "events", events: [{ type: "start" }, { type: "done", reason: "stop", usage }] });
		const stream = streamProxy(model, context, {
			...options(),
			apiKey: "never-sent",
			reasoning: "high",
			maxTokens: 100,
			onPayload: () => undefined,
		});
		await stream.result();
		const request = server.requests.at(-1);
		expect(request?.url).toBe("/api/stream");
		expect(request?.headers.authorization).toBe("Bearer proxy-token");
		expect(request?.body).toEqual({
			model: JSON.parse(JSON.stringify(model)),
			context: JSON.parse(JSON.stringify(context)),
			options: { reasoning: "high", maxTokens: 100 },
		});
	});

	it("rebuilds text, thinking and tool calls from events without partials, with signatures and usage", async () => {
		const events: ProxyAssistantMessageEvent[] = [
			{ type: "start" },
			{ type: "thinking_start", contentIndex: 0 },
			{ type: "thinking_delta", contentIndex: 0, delta: "Look at " },
			{ type: "thinking_delta", contentIndex: 0, delta: "the file." },
			{ type: "thinking_end", contentIndex: 0, contentSignature: "sig-think" },
			{ type: "text_start", contentIndex: 1 },
			{ type: "text_delta", contentIndex: 1, delta: "Reading" },
			{ type: "text_end", contentIndex: 1, contentSignature: "sig-text" },
			{ type: "toolcall_start", contentIndex: 2, id: "call_1", toolName: "read" },
			{ type: "toolcall_delta", contentIndex: 2, delta: '{"path":' },
			{ type: "toolcall_delta", contentIndex: 2, delta: '"a.txt"}' },
			{ type: "toolcall_end", contentIndex: 2 },
			{ type: "done", reason: "toolUse", usage },
		];
		server.enqueue({ kind: "events", events });
		const stream = streamProxy(model, context, options());
		const seen = await collect(stream);
		expect(seen.map((event) => event.type)).toEqual(events.map((event) => event.type));
		expect(seen.flatMap((event) => (event.type === "toolcall_delta" ? [event.delta] : []))).toEqual([
			'{"path":',
			'"a.txt"}',
		]);
		const toolEnd = seen.find((event) => event.type === "toolcall_end");
		expect(toolEnd?.type === "toolcall_end" && toolEnd.toolCall).toEqual({
			type: "toolCall",
			id: "call_1",
			name: "read",
			arguments: { path: "a.txt" },
		});
		const message = await stream.result();
		expect(message).toMatchObject({
			role: "assistant",
			api: model.api,
			provider: model.provider,
			model: model.id,
			stopReason: "toolUse",
			usage,
		});
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Look at the file.", thinkingSignature: "sig-think" },
			{ type: "text", text: "Reading", textSignature: "sig-text" },
			{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } },
		]);
	});

	it("drives an Agent as its streamFn", async () => {
		server.enqueue({
			kind: "events",
			events: [
				{ type: "start" },
				{ type: "text_start", contentIndex: 0 },
				{ type: "text_delta", contentIndex: 0, delta: "Hi from the proxy" },
				{ type: "text_end", contentIndex: 0 },
				{ type: "done", reason: "stop", usage },
			],
		});
		const agent = new Agent({
			streamFn: (m, c, o) => streamProxy(m, c, { ...o, ...options() }),
			initialState: { model },
		});
		await agent.prompt("hello");
		const last = agent.state.messages.at(-1);
		expect(last).toMatchObject({ role: "assistant", content: [{ type: "text", text: "Hi from the proxy" }] });
	});
});

describe("HTTP proxy variables", () => {
	const names = ["HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"] as const;
	const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
	afterEach(() => {
		for (const name of names) {
			if (saved[name] === undefined) delete process.env[name];
			else process.env[name] = saved[name];
		}
	});

	it("go through HTTP_PROXY, and straight to a host NO_PROXY lists", async () => {
		// Nothing listens on port 9 (discard): a request that uses the proxy fails naming it.
		process.env.HTTP_PROXY = process.env.http_proxy = "http://127.0.0.1:9";
		delete process.env.NO_PROXY;
		delete process.env.no_proxy;
		const viaProxy = await streamProxy(model, context, options()).result();
		expect(viaProxy).toMatchObject({ stopReason: "error" });
		expect(viaProxy.errorMessage).toContain("Could not reach the proxy http://127.0.0.1:9");

		process.env.NO_PROXY = process.env.no_proxy = "127.0.0.1";
		server.enqueue({ kind: "events", events: [{ type: "start" }, { type: "done", reason: "stop", usage }] });
		expect(await streamProxy(model, context, options()).result()).toMatchObject({ stopReason: "stop" });
	});
});

describe("failures", () => {
	it("passes the proxy's error event on with its message and usage", async () => {
		server.enqueue({
			kind: "events",
			events: [
				{ type: "start" },
				{ type: "error", reason: "error", errorMessage: "upstream 529 overloaded", usage },
			],
		});
		const message = await streamProxy(model, context, options()).result();
		expect(message).toMatchObject({ stopReason: "error", errorMessage: "upstream 529 overloaded", usage });
	});

	it("ends with an error naming the status and the server's message when the proxy refuses", async () => {
		server.enqueue({ kind: "status", status: 401, body: JSON.stringify({ error: "invalid token" }) });
		const stream = streamProxy(model, context, options());
		const seen = await collect(stream);
		expect(seen.map((event) => event.type)).toEqual(["error"]);
		expect(await stream.result()).toMatchObject({
			stopReason: "error",
			errorMessage: "Proxy error: 401 invalid token",
		});
	});

	it("ends with an error when the stream stops before its final event", async () => {
		server.enqueue({ kind: "events", events: [{ type: "start" }, { type: "text_start", contentIndex: 0 }] });
		const message = await streamProxy(model, context, options()).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The proxy stream ended without a final event");
	});

	it("ends with an error on an event that is not JSON", async () => {
		server.enqueue({ kind: "events", events: [{ type: "start" }], raw: "data: {not json\n\n" });
		const message = await streamProxy(model, context, options()).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("not JSON");
	});

	it("ends as aborted when the caller aborts mid-reply", async () => {
		server.enqueue({
			kind: "open",
			events: [
				{ type: "start" },
				{ type: "text_start", contentIndex: 0 },
				{ type: "text_delta", contentIndex: 0, delta: "partial" },
			],
		});
		const controller = new AbortController();
		const stream = streamProxy(model, context, { ...options(), signal: controller.signal });
		const seen = await collect(stream, (event) => {
			if (event.type === "text_delta") controller.abort();
		});
		expect(seen.at(-1)?.type).toBe("error");
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.content).toEqual([{ type: "text", text: "partial" }]);
	});
});
