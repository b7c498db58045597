import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";

/** A request as the fake server received it. `body` is parsed JSON when the body was JSON. */
export interface RecordedRequest {
	method: string;
	/** Path and query, e.g. `/v1/messages?beta=true`. */
	url: string;
	headers: Record<string, string | string[] | undefined>;
	rawBody: string;
	body: unknown;
	/** Resolves once the response is over: ended by the server, or the connection closed (e.g. the client aborted). */
	closed: Promise<void>;
	/** Body bytes written for this request's response so far. */
	bytesWritten: number;
	/** The client's port: the same for requests sent on one kept-alive connection. */
	remotePort: number | undefined;
	/** The server name the client sent in its TLS hello (servers made with `tls`). */
	servername: string | undefined;
}

/** A certificate and key: the server speaks HTTPS with them. */
export interface FakeServerTls {
	cert: string;
	key: string;
}

/**
 * One chunk of an event stream: a raw string or bytes are written verbatim (malformed lines, binary frames of the
 * AWS event stream); an object is framed as a server-sent event.
 */
export type SseChunk = string | Uint8Array | { event?: string; data: unknown };

export type FakeReply =
	| {
			kind: "sse";
			chunks: SseChunk[];
			status?: number;
			headers?: Record<string, string>;
			/** Pause between chunks (ms). */
			chunkDelayMs?: number;
			/** Destroy the socket after this many chunks (a dropped connection). */
			cutAfter?: number;
			/** Keep the response open after the last chunk (until the client aborts or the server closes). */
			holdOpen?: boolean;
	  }
	| { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
	| { kind: "raw"; status: number; body: string | Buffer; headers?: Record<string, string> }
	/** A redirect to `location` (absolute, or a path on this server); the body says so, as servers do. */
	| { kind: "redirect"; status: number; location: string }
	/**
	 * A body that never ends: `head`, then `chunk` again and again as fast as the client reads (with TCP
	 * backpressure), until the connection closes.
	 */
	| { kind: "endless"; head?: string | Uint8Array; chunk: string | Uint8Array; headers?: Record<string, string> }
	/** Accept the request and never answer. */
	| { kind: "hang" }
	/** Destroy the socket without answering. */
	| { kind: "destroy" };

export type FakeHandler = FakeReply | ((request: RecordedRequest) => FakeReply);

/**
 * A raw TCP server that answers every connection with `response` (the bytes of an HTTP response head and any
 * body so far) and then goes silent, never ending it: a provider that stalls. Independent of any queue, so a
 * client that gives up before connecting leaves nothing behind for the next test.
 */
export class StallingServer {
	private readonly sockets = new Set<Socket>();
	private readonly server: NetServer;
	private address: string | undefined;
	/** Resolves once every connection made so far has closed. */
	connectionsClosed: Promise<void>[] = [];

	constructor(private readonly response: string | Uint8Array) {
		this.server = createNetServer((socket) => {
			this.sockets.add(socket);
			this.connectionsClosed.push(new Promise((resolve) => socket.once("close", () => resolve())));
			socket.on("close", () => this.sockets.delete(socket));
			socket.on("error", () => undefined);
			socket.once("data", () => {
				if (this.response.length > 0) socket.write(this.response);
			});
		});
	}

	async listen(): Promise<void> {
		await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
		this.address = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	get url(): string {
		if (this.address === undefined) throw new Error("StallingServer: url read before listen() finished");
		return this.address;
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

/** The bytes of an HTTP/1.1 event-stream response head followed by `chunks`, as a stalling server sends them. */
export function eventStreamHead(chunks: SseChunk[], contentType = "text/event-stream"): Buffer {
	const head = `HTTP/1.1 200 OK\r\ncontent-type: ${contentType}\r\ncache-control: no-cache\r\n\r\n`;
	return Buffer.concat([Buffer.from(head), encodeChunks(chunks)]);
}

/** The body bytes of `chunks`, as the server writes them one after another. */
export function encodeChunks(chunks: SseChunk[]): Buffer {
	return Buffer.concat(chunks.map((chunk) => Buffer.from(formatSseChunk(chunk))));
}

/** Frames one SSE chunk the way providers send them; strings and bytes are written as they are. */
export function formatSseChunk(chunk: SseChunk): string | Uint8Array {
	if (typeof chunk === "string" || chunk instanceof Uint8Array) return chunk;
	const data = typeof chunk.data === "string" ? chunk.data : JSON.stringify(chunk.data);
	return `${chunk.event ? `event: ${chunk.event}\n` : ""}data: ${data}\n\n`;
}

/**
 * A local HTTP (or, given `tls`, HTTPS) server on 127.0.0.1 that answers each request with the next queued reply and
 * records every request. Real SDK clients talk to it through `model.baseUrl`. Test files get one with
 * `useFakeServer()` (provider-test-harness.ts).
 */
export class FakeServer {
	readonly requests: RecordedRequest[] = [];
	private readonly replies: FakeHandler[] = [];
	private readonly sockets = new Set<Socket>();
	private readonly openResponses = new Set<ServerResponse>();
	private readonly server: Server;
	private address: string | undefined;

	constructor(private readonly tls?: FakeServerTls) {
		const handle = (req: IncomingMessage, res: ServerResponse) => {
			void this.handle(req, res);
		};
		this.server = tls ? createTlsServer({ cert: tls.cert, key: tls.key }, handle) : createServer(handle);
		this.server.on("connection", (socket) => {
			this.sockets.add(socket);
			socket.on("close", () => this.sockets.delete(socket));
		});
	}

	/** Listens on a free port of 127.0.0.1. */
	async listen(): Promise<void> {
		await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
		const { port } = this.server.address() as AddressInfo;
		this.address = `${this.tls ? "https" : "http"}://127.0.0.1:${port}`;
	}

	get url(): string {
		if (this.address === undefined) throw new Error("FakeServer: url read before listen() finished");
		return this.address;
	}

	/** Queue replies, answered in order. A request with nothing queued gets a 500 naming the problem. */
	enqueue(...handlers: FakeHandler[]): this {
		this.replies.push(...handlers);
		return this;
	}

	/** Queues a reply that never comes; resolves once its request has arrived. */
	enqueueHang(): Promise<void> {
		return new Promise((resolve) => {
			this.enqueue(() => {
				resolve();
				return { kind: "hang" };
			});
		});
	}

	get lastRequest(): RecordedRequest | undefined {
		return this.requests.at(-1);
	}

	async close(): Promise<void> {
		for (const response of this.openResponses) response.destroy();
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		// A client that gives up while still sending its request is not a request: nothing is recorded or answered.
		const rawBody = await readBody(req).catch(() => undefined);
		if (rawBody === undefined) return;
		let body: unknown = rawBody;
		try {
			body = rawBody ? JSON.parse(rawBody) : undefined;
		} catch {
			// not JSON: keep the raw text
		}
		const request: RecordedRequest = {
			method: req.method ?? "GET",
			url: req.url ?? "/",
			headers: req.headers,
			rawBody,
			body,
			closed: new Promise((resolve) => res.once("close", () => resolve())),
			bytesWritten: 0,
			remotePort: req.socket.remotePort,
			servername: (req.socket as { servername?: string | false }).servername || undefined,
		};
		this.requests.push(request);

		const handler = this.replies.shift();
		const reply: FakeReply = !handler
			? { kind: "json", status: 500, body: { error: { message: "FakeServer: no reply queued" } } }
			: typeof handler === "function"
				? handler(request)
				: handler;

		switch (reply.kind) {
			case "hang":
				this.openResponses.add(res);
				return;
			case "destroy":
				req.socket.destroy();
				return;
			case "json":
				res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
				res.end(JSON.stringify(reply.body));
				return;
			case "raw":
				res.writeHead(reply.status, reply.headers);
				res.end(reply.body);
				return;
			case "redirect":
				res.writeHead(reply.status, { location: reply.location, "content-type": "text/plain" });
				res.end(`Redirecting to ${reply.location}`);
				return;
			case "endless":
				await this.writeEndless(res, request, reply);
				return;
			case "sse":
				await this.writeSse(res, reply);
		}
	}

	private async writeEndless(
		res: ServerResponse,
		request: RecordedRequest,
		reply: Extract<FakeReply, { kind: "endless" }>,
	): Promise<void> {
		this.openResponses.add(res);
		res.writeHead(200, { "content-type": "text/event-stream", ...reply.headers });
		const chunk = Buffer.from(reply.chunk);
		if (reply.head) {
			res.write(reply.head);
			request.bytesWritten += Buffer.from(reply.head).byteLength;
		}
		while (!res.destroyed && !res.writableEnded) {
			request.bytesWritten += chunk.byteLength;
			if (!res.write(chunk)) {
				await new Promise<void>((resolve) => {
					const done = () => {
						res.off("drain", done);
						res.off("close", done);
						resolve();
					};
					res.on("drain", done);
					res.on("close", done);
				});
			}
		}
		this.openResponses.delete(res);
	}

	private async writeSse(res: ServerResponse, reply: Extract<FakeReply, { kind: "sse" }>): Promise<void> {
		this.openResponses.add(res);
		res.writeHead(reply.status ?? 200, {
			"content-type": "text/event-stream",
			"cache-control": "no-cache",
			connection: "keep-alive",
			...reply.headers,
		});
		let written = 0;
		for (const chunk of reply.chunks) {
			if (res.destroyed) return;
			if (reply.cutAfter !== undefined && written >= reply.cutAfter) {
				res.socket?.destroy();
				return;
			}
			res.write(formatSseChunk(chunk));
			written += 1;
			if (reply.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, reply.chunkDelayMs));
		}
		if (reply.cutAfter !== undefined && written >= reply.cutAfter) {
			res.socket?.destroy();
			return;
		}
		if (reply.holdOpen) return;
		res.end();
		this.openResponses.delete(res);
	}
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const parts: Buffer[] = [];
		req.on("data", (part: Buffer) => parts.push(part));
		req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
		req.on("error", reject);
	});
}
