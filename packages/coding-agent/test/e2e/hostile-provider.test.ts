// `agent -p` against a provider endpoint that misbehaves the way a broken network, a proxy or a captive portal
// does: the reply is cut, stops at the output limit in the middle of a call, is not an event stream at all, or
// redirects elsewhere. Nothing of a reply that did not end normally may run, and every failure is reported.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, runCli } from "../helpers/cli-sandbox.js";

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A local HTTP server whose next answers are scripted per test; records what each request carried. */
class ScriptedServer {
	readonly requests: { url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
	private readonly server: Server;
	private handlers: Handler[] = [];

	constructor() {
		this.server = createServer((request, response) => {
			let body = "";
			request.setEncoding("utf8");
			request.on("data", (chunk: string) => {
				body += chunk;
			});
			request.on("end", () => {
				this.requests.push({ url: request.url ?? "", headers: request.headers, body });
				const handler = this.handlers.shift();
				if (handler) handler(request, body, response);
				else response.writeHead(500, { "content-type": "application/json" }).end('{"error":"no script"}');
			});
		});
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	listen(): Promise<void> {
		return new Promise((resolve) => this.server.listen(0, "127.0.0.1", resolve));
	}

	close(): Promise<void> {
		this.server.closeAllConnections();
		return new Promise((resolve) => this.server.close(() => resolve()));
	}

	/** The next requests are answered by these handlers, in order; the last one repeats for retries. */
	script(...handlers: Handler[]): void {
		this.handlers = handlers;
	}

	reset(): void {
		this.requests.length = 0;
		this.handlers = [];
	}
}

function sse(events: Record<string, unknown>[]): string {
	return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}

const messageStart = {
	type: "message_start",
	message: {
		id: "msg_1",
		type: "message",
		role: "assistant",
		model: "hostile-model",
		content: [],
		stop_reason: null,
		stop_sequence: null,
		usage: { input_tokens: 10, output_tokens: 1 },
	},
};

function toolUseStart(name: string): Record<string, unknown> {
	return {
		type: "content_block_start",
		index: 0,
		content_block: { type: "tool_use", id: "toolu_1", name, input: {} },
	};
}

function argumentDelta(json: string): Record<string, unknown> {
	return { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: json } };
}

function ending(stopReason: string): Record<string, unknown>[] {
	return [
		{ type: "content_block_stop", index: 0 },
		{ type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } },
		{ type: "message_stop" },
	];
}

function textReply(text: string): Record<string, unknown>[] {
	return [
		messageStart,
		{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
		{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
		...ending("end_turn"),
	];
}

const streamHeaders = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/** Answers with these events, then ends the response normally. */
const events =
	(list: Record<string, unknown>[]): Handler =>
	(_request, _body, response) => {
		response.writeHead(200, streamHeaders).end(sse(list));
	};

/** Sends these events, then drops the connection without ending the response. */
const eventsThenCut =
	(list: Record<string, unknown>[]): Handler =>
	(_request, _body, response) => {
		response.writeHead(200, streamHeaders);
		response.write(sse(list), () => response.socket?.destroy());
	};

const server = new ScriptedServer();
const elsewhere = new ScriptedServer();
let sandbox: CliSandbox;

beforeAll(async () => {
	await Promise.all([server.listen(), elsewhere.listen()]);
});
afterAll(async () => {
	await Promise.all([server.close(), elsewhere.close()]);
});
afterEach(() => {
	sandbox?.cleanup();
	server.reset();
	elsewhere.reset();
});

function newSandbox(): CliSandbox {
	sandbox = createCliSandbox({ settings: { retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 10 } } });
	const models = {
		providers: {
			hostile: {
				baseUrl: server.baseUrl,
				api: "anthropic-messages",
				apiKey: "sk-hostile-test-key",
				models: [{ id: "hostile-model", contextWindow: 200000, maxTokens: 8192 }],
			},
		},
	};
	writeFileSync(join(sandbox.agentDir, "models.json"), JSON.stringify(models));
	return sandbox;
}

function runAgent(prompt: string) {
	return runCli(sandbox, ["-p", "--provider", "hostile", "--model", "hostile-model", prompt], { timeoutMs: 30_000 });
}

/** `keep/` with a file in `keep/tmp/` and one beside it: what a cut-off `rm -rf keep/tmp` must not delete. */
function makeKeepTree(): void {
	mkdirSync(join(sandbox.cwd, "keep", "tmp"), { recursive: true });
	writeFileSync(join(sandbox.cwd, "keep", "precious.txt"), "precious");
	writeFileSync(join(sandbox.cwd, "keep", "tmp", "scratch.txt"), "scratch");
}

function toolResultTexts(body: string): string[] {
	const request = JSON.parse(body) as { messages: { role: string; content: unknown }[] };
	const texts: string[] = [];
	for (const message of request.messages) {
		if (!Array.isArray(message.content)) continue;
		for (const block of message.content as { type: string; content?: unknown }[]) {
			if (block.type !== "tool_result") continue;
			const content = block.content;
			if (typeof content === "string") texts.push(content);
			else if (Array.isArray(content))
				texts.push(content.map((part: { text?: string }) => part.text ?? "").join(""));
		}
	}
	return texts;
}

describe("a reply that did not end normally never runs its tool calls", () => {
	it("a stream cut before message_stop: the cut-off `rm -rf keep/` never runs; the failure is reported", async () => {
		newSandbox();
		makeKeepTree();
		server.script(eventsThenCut([messageStart, toolUseStart("bash"), argumentDelta('{"command": "rm -rf keep/')]));
		const result = await runAgent("clean up keep/tmp");
		expect(readFileSync(join(sandbox.cwd, "keep", "precious.txt"), "utf8")).toBe("precious");
		expect(readFileSync(join(sandbox.cwd, "keep", "tmp", "scratch.txt"), "utf8")).toBe("scratch");
		expect(result.code).toBe(1);
		expect(result.stderr).not.toBe("");
		// A dropped stream is transient: it was retried once (maxRetries 1) before giving up.
		expect(server.requests).toHaveLength(2);
	});

	it("a body that ends before message_stop: the cut-off command never runs", async () => {
		newSandbox();
		makeKeepTree();
		server.script(events([messageStart, toolUseStart("bash"), argumentDelta('{"command": "rm -rf keep/')]));
		const result = await runAgent("clean up keep/tmp");
		expect(readFileSync(join(sandbox.cwd, "keep", "precious.txt"), "utf8")).toBe("precious");
		expect(readFileSync(join(sandbox.cwd, "keep", "tmp", "scratch.txt"), "utf8")).toBe("scratch");
		expect(result.code).toBe(1);
		expect(result.stderr).not.toBe("");
	});

	it("a reply that stops at max_tokens inside a write: the file keeps its content, the model is told why", async () => {
		newSandbox();
		const original = Array.from({ length: 200 }, (_, index) => `line ${index + 1}`).join("\n");
		writeFileSync(join(sandbox.cwd, "big.txt"), original);
		server.script(
			events([
				messageStart,
				toolUseStart("write"),
				argumentDelta('{"path": "big.txt", "content": "line 1\\nline 2\\nline 3\\nli'),
				...ending("max_tokens"),
			]),
			events(textReply("I will write it in parts.")),
		);
		const result = await runAgent("rewrite big.txt");
		expect(readFileSync(join(sandbox.cwd, "big.txt"), "utf8")).toBe(original);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("I will write it in parts.\n");
		const [toolResult] = toolResultTexts(server.requests[1]!.body);
		expect(toolResult).toContain("Tool call not executed");
		expect(toolResult).toContain("output token limit");
	});

	it("a tool_use reply whose argument JSON does not parse: nothing runs, the model is told", async () => {
		newSandbox();
		makeKeepTree();
		server.script(
			events([
				messageStart,
				toolUseStart("bash"),
				argumentDelta('{"command": "rm -rf keep/tmp" "extra": }'),
				...ending("tool_use"),
			]),
			events(textReply("Sorry.")),
		);
		const result = await runAgent("clean up");
		expect(readFileSync(join(sandbox.cwd, "keep", "tmp", "scratch.txt"), "utf8")).toBe("scratch");
		expect(result.code).toBe(0);
		const [toolResult] = toolResultTexts(server.requests[1]!.body);
		expect(toolResult).toContain("Tool call not executed");
	});
});

describe("an answer that is not the provider's event stream is an error, not an empty success", () => {
	const cases: [string, Handler, string][] = [
		[
			"an HTML page (a captive portal)",
			(_request, _body, response) =>
				response
					.writeHead(200, { "content-type": "text/html" })
					.end("<!doctype html><title>Log in to Wi-Fi</title>"),
			"text/html",
		],
		[
			"an empty body",
			(_request, _body, response) => response.writeHead(200, { "content-type": "text/event-stream" }).end(),
			"200",
		],
		[
			"non-streaming JSON",
			(_request, _body, response) =>
				response.writeHead(200, { "content-type": "application/json" }).end('{"id":"msg_1","content":[]}'),
			"application/json",
		],
	];

	for (const [name, handler, detail] of cases) {
		it(`${name}: exit 1 and stderr names the URL and what came back`, async () => {
			newSandbox();
			server.script(handler);
			const result = await runAgent("hi");
			expect(result.code).toBe(1);
			expect(result.stdout).toBe("");
			expect(result.stderr).toContain(server.baseUrl);
			expect(result.stderr).toContain(detail);
		});
	}
});

describe("redirects", () => {
	it("a redirect to another origin is refused: no key and no conversation reach it, the error names it", async () => {
		newSandbox();
		const target = `${elsewhere.baseUrl}/v1/messages`;
		server.script((_request, _body, response) => response.writeHead(307, { location: target }).end());
		elsewhere.script(events(textReply("stolen")));
		const result = await runAgent("my secret plan");
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(elsewhere.baseUrl);
		for (const request of elsewhere.requests) {
			expect(request.headers["x-api-key"]).toBeUndefined();
			expect(request.headers.authorization).toBeUndefined();
			expect(request.body).not.toContain("my secret plan");
		}
	});
});
