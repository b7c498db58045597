// A local OpenAI-compatible model server (Chat Completions over SSE) for end-to-end tests and benchmarks.
// Replies are scripted in order; every request is recorded so tests can assert on what the agent sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";

export interface FakeToolCall {
	name: string;
	arguments: Record<string, unknown>;
	/** Default: `call_<n>`. */
	id?: string;
}

export type FakeModelReply =
	/** A streamed answer: optional text, then optional tool calls. */
	| {
			kind: "reply";
			/** Streamed first as `reasoning_content` (a thinking block). */
			reasoning?: string;
			text?: string;
			toolCalls?: FakeToolCall[];
			usage?: { prompt_tokens: number; completion_tokens: number };
			/** Written before the rest of the reply is held back until `gate` settles. */
			gate?: Promise<void>;
			/** Pause after each chunk (counted in `scriptedTimeMs`). */
			chunkDelayMs?: number;
	  }
	/** An HTTP error with a JSON body `{ error: { message } }` (or the raw body given). */
	| { kind: "error"; status: number; message?: string; body?: string; headers?: Record<string, string> }
	/** Accept and never answer (until the client disconnects or the server closes). */
	| { kind: "hang" };

export type FakeModelHandler = FakeModelReply | ((request: RecordedModelRequest) => FakeModelReply);

export interface RecordedModelRequest {
	url: string;
	headers: Record<string, string | string[] | undefined>;
	/** The parsed JSON body: `model`, `messages`, `tools`, … */
	body: ChatCompletionRequestBody;
}

export interface ChatCompletionRequestBody {
	model: string;
	messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
	tools?: { type: string; function: { name: string } }[];
	stream?: boolean;
	[key: string]: unknown;
}

export function textReply(
	text: string,
	extra: Partial<Extract<FakeModelReply, { kind: "reply" }>> = {},
): FakeModelReply {
	return { kind: "reply", text, ...extra };
}

export function toolCallReply(toolCalls: FakeToolCall[], text?: string): FakeModelReply {
	return { kind: "reply", toolCalls, ...(text !== undefined ? { text } : {}) };
}

export function errorReply(status: number, message = `HTTP ${status} from the fake model server`): FakeModelReply {
	return { kind: "error", status, message };
}

/** The text of the last user message of a request (string content or text parts joined). */
export function lastUserText(request: RecordedModelRequest): string {
	const user = [...request.body.messages].reverse().find((message) => message.role === "user");
	if (!user) return "";
	if (typeof user.content === "string") return user.content;
	if (Array.isArray(user.content)) {
		return user.content
			.map((part: { type?: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : ""))
			.join("");
	}
	return "";
}

/**
 * The fake server of an end-to-end test file, called at its top level: listening before the first test, emptied
 * (queued replies, fallback, recorded requests) after each test, closed after the last.
 */
export function startFakeModelServerForFile(): FakeModelServer {
	const server = new FakeModelServer();
	beforeAll(() => server.listen());
	afterEach(() => server.reset());
	afterAll(() => server.close());
	return server;
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null, usage?: object): string {
	const data: Record<string, unknown> = {
		id: "chatcmpl-fake",
		object: "chat.completion.chunk",
		created: 1,
		model: "fake-model",
		choices: [{ index: 0, delta, finish_reason: finishReason }],
	};
	if (usage) data.usage = usage;
	return `data: ${JSON.stringify(data)}\n\n`;
}

export class FakeModelServer {
	readonly requests: RecordedModelRequest[] = [];
	/** Milliseconds the server deliberately waited (chunk delays), to subtract from measured times. */
	scriptedTimeMs = 0;
	private readonly queue: FakeModelHandler[] = [];
	private fallback: FakeModelHandler | undefined;
	private readonly sockets = new Set<Socket>();
	private readonly requestWaiters: { count: number; resolve: () => void }[] = [];
	private toolCallCounter = 0;

	private readonly server: Server;
	private address: string | undefined;

	/** A server that does not listen yet: `listen()`, or use `FakeModelServer.start()`. */
	constructor() {
		this.server = createServer((req, res) => {
			void this.handle(req, res);
		});
		this.server.keepAliveTimeout = 60_000;
		this.server.on("connection", (socket) => {
			this.sockets.add(socket);
			socket.on("close", () => this.sockets.delete(socket));
		});
	}

	static async start(): Promise<FakeModelServer> {
		const instance = new FakeModelServer();
		await instance.listen();
		return instance;
	}

	/** Listens on a free port of 127.0.0.1. */
	async listen(): Promise<void> {
		await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
		const { port } = this.server.address() as AddressInfo;
		this.address = `http://127.0.0.1:${port}`;
	}

	/** `http://127.0.0.1:<port>` */
	get url(): string {
		if (this.address === undefined) throw new Error("the fake model server is not listening yet");
		return this.address;
	}

	/** The `baseUrl` for models.json. */
	get baseUrl(): string {
		return `${this.url}/v1`;
	}

	/** Replies answered in order. */
	enqueue(...handlers: FakeModelHandler[]): this {
		this.queue.push(...handlers);
		return this;
	}

	/** What to answer when the queue is empty (default: a 500 saying nothing was queued). */
	setFallback(handler: FakeModelHandler | undefined): this {
		this.fallback = handler;
		return this;
	}

	/** Forgets queued replies, the fallback and recorded requests (between tests). */
	reset(): void {
		this.queue.length = 0;
		this.requests.length = 0;
		this.fallback = undefined;
		this.scriptedTimeMs = 0;
	}

	get pendingReplies(): number {
		return this.queue.length;
	}

	/** Resolves once `count` requests in total have arrived. */
	waitForRequests(count: number): Promise<void> {
		if (this.requests.length >= count) return Promise.resolve();
		return new Promise((resolve) => this.requestWaiters.push({ count, resolve }));
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const parts: Buffer[] = [];
		for await (const part of req) parts.push(part as Buffer);
		const raw = Buffer.concat(parts).toString("utf8");
		let body: ChatCompletionRequestBody;
		try {
			body = JSON.parse(raw) as ChatCompletionRequestBody;
		} catch {
			res.writeHead(400, { "content-type": "application/json" });
			res.end(JSON.stringify({ error: { message: "fake model server: body is not JSON" } }));
			return;
		}
		const request: RecordedModelRequest = { url: req.url ?? "/", headers: req.headers, body };
		this.requests.push(request);
		for (const waiter of [...this.requestWaiters]) {
			if (this.requests.length >= waiter.count) {
				this.requestWaiters.splice(this.requestWaiters.indexOf(waiter), 1);
				waiter.resolve();
			}
		}

		const handler = this.queue.shift() ?? this.fallback;
		const reply: FakeModelReply = !handler
			? { kind: "error", status: 500, message: "fake model server: no reply queued" }
			: typeof handler === "function"
				? handler(request)
				: handler;

		if (reply.kind === "hang") return;
		if (reply.kind === "error") {
			res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
			res.end(reply.body ?? JSON.stringify({ error: { message: reply.message ?? `HTTP ${reply.status}` } }));
			return;
		}
		await this.stream(res, reply);
	}

	private async stream(res: ServerResponse, reply: Extract<FakeModelReply, { kind: "reply" }>): Promise<void> {
		res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		const write = async (data: string) => {
			if (res.destroyed) return;
			res.write(data);
			if (reply.chunkDelayMs) {
				this.scriptedTimeMs += reply.chunkDelayMs;
				await new Promise((resolve) => setTimeout(resolve, reply.chunkDelayMs));
			}
		};
		await write(chunk({ role: "assistant", content: "" }));
		if (reply.gate) await reply.gate;
		if (reply.reasoning) await write(chunk({ reasoning_content: reply.reasoning }));
		if (reply.text) {
			// Two pieces, so the agent sees real deltas.
			const middle = Math.ceil(reply.text.length / 2);
			await write(chunk({ content: reply.text.slice(0, middle) }));
			if (middle < reply.text.length) await write(chunk({ content: reply.text.slice(middle) }));
		}
		const toolCalls = reply.toolCalls ?? [];
		for (const [index, call] of toolCalls.entries()) {
			const id = call.id ?? `call_${++this.toolCallCounter}`;
			await write(
				chunk({
					tool_calls: [
						{
							index,
							id,
							type: "function",
							function: { name: call.name, arguments: JSON.stringify(call.arguments) },
						},
					],
				}),
			);
		}
		const usage = reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
		await write(
			chunk({}, toolCalls.length > 0 ? "tool_calls" : "stop", {
				...usage,
				total_tokens: usage.prompt_tokens + usage.completion_tokens,
			}),
		);
		if (!res.destroyed) res.end("data: [DONE]\n\n");
	}
}
