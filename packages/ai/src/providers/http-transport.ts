/**
 * The HTTP client under every provider request (reply-guard.ts) and the sign-in token requests: node:http and
 * node:https with keep-alive agents, in place of the global fetch. Through the guard, Node's fetch (undici plus web
 * streams) cost about twice the CPU per small streaming request; this one answers with a standard `Response`,
 * so the SDKs read it as they read fetch's, and it behaves as fetch does where they look:
 * - an abort rejects with the signal's reason (an `AbortError`), or errors the body once it is streaming;
 * - a failure before the response rejects with `TypeError("fetch failed")`, one during the body errors it with
 *   `TypeError("terminated")`, each with the cause (`connect ECONNREFUSED …`, `other side closed`), as the
 *   retry rules and the adapters' error texts expect;
 * - redirects are never followed (the guard decides), and a gzip, deflate or br body is decoded.
 * Proxies come from the environment (http-proxy.ts): https targets through a CONNECT tunnel, http ones by
 * absolute URI. Idle pooled sockets are unref'd (Node's agents do it), so they never keep the process alive.
 */
import type { Agent, AgentOptions, ClientRequest, IncomingMessage, OutgoingHttpHeaders } from "node:http";
import type { Agent as HttpsAgent, AgentOptions as HttpsAgentOptions } from "node:https";
import { isIP, type Socket } from "node:net";
import { type Duplex, type Readable, Transform } from "node:stream";
import {
	createBrotliDecompress,
	createGunzip,
	createInflate,
	createInflateRaw,
	type ZlibOptions,
	constants as zlib,
} from "node:zlib";
import { openTunnel, type ProxyEnv, type ProxyServer, proxyFor, proxyUnreachable } from "./http-proxy.js";
import { nodeHttp, nodeHttps, nodeTls } from "./node-http.js";

/** A request as the transport sends it; the body is sent as it is (strings as UTF-8). */
export interface TransportRequest {
	method: string;
	headers: Headers;
	body: Uint8Array | string | undefined;
	signal: AbortSignal;
}

/** A response before it is handed on: its body decoded (content-encoding), or null when it has none. */
export interface TransportReply {
	status: number;
	statusText: string;
	headers: Headers;
	body: Readable | null;
}

export interface HttpTransportOptions {
	/** Where the proxy variables are read, at each request; `process.env` by default. */
	env?: ProxyEnv;
	/** Certificate authorities trusted for https targets in place of Node's (tests; users set NODE_EXTRA_CA_CERTS). */
	ca?: string | Buffer;
}

/** Time allowed for a TCP connection to open. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Idle pooled sockets close after 4 s, or 1 s before the server's `Keep-Alive: timeout` if sooner (Node reads
 * it), as undici's pool does: a server closing an idle connection while a request is sent on it would fail that
 * request, and requests are never repeated here (the session's auto-retry decides). On a socket in use the
 * timeout only emits an event nobody acts on.
 */
const KEEP_ALIVE: AgentOptions = { keepAlive: true, keepAliveMsecs: 1000, timeout: 4000 };

type TunnelAgentConstructor = new (proxy: ProxyServer, options: HttpsAgentOptions) => HttpsAgent;
let TunnelAgent: TunnelAgentConstructor | undefined;

/**
 * An https agent whose connections go through a CONNECT tunnel of `proxy`, then TLS to the target. The class is
 * defined on first use: it extends node:https's Agent, which loads only then.
 */
function tunnelAgentConstructor(): TunnelAgentConstructor {
	TunnelAgent ??= class extends nodeHttps().Agent {
		constructor(
			private readonly proxy: ProxyServer,
			options: HttpsAgentOptions,
		) {
			super(options);
		}

		override createConnection(
			options: Parameters<HttpsAgent["createConnection"]>[0],
			callback?: (error: Error | null, stream: Duplex) => void,
		): Duplex | null | undefined {
			const host = String(options.host ?? options.hostname ?? "localhost").replace(/^\[(.*)\]$/, "$1");
			const port = Number(options.port ?? 443);
			openTunnel(this.proxy, host, port).then(
				(socket) => {
					const { path: _path, ...tlsOptions } = options as typeof options & { path?: string };
					const servername = isIP(host) === 0 ? host : undefined;
					const tls = nodeTls().connect({ ...(tlsOptions as object), socket, host, servername });
					callback?.(null, tls);
				},
				(error: Error) => callback?.(error, undefined as unknown as Duplex),
			);
			return undefined;
		}
	};
	return TunnelAgent;
}

/** The decoders of a `content-encoding` list, in the order they apply; undefined when one is not known. */
function decodersOf(contentEncoding: string | null): Array<() => Duplex> | undefined {
	if (!contentEncoding) return [];
	const decoders: Array<() => Duplex> = [];
	// Flushing as chunks arrive, and tolerating a cut end, as undici decodes.
	const flush = { flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH };
	for (const coding of contentEncoding.toLowerCase().split(",").reverse()) {
		const name = coding.trim();
		if (name === "gzip" || name === "x-gzip") decoders.push(() => createGunzip(flush));
		else if (name === "deflate") decoders.push(() => new DeflateDecoder(flush));
		else if (name === "br") {
			decoders.push(() =>
				createBrotliDecompress({
					flush: zlib.BROTLI_OPERATION_FLUSH,
					finishFlush: zlib.BROTLI_OPERATION_FLUSH,
				}),
			);
		} else if (name !== "identity" && name !== "") return undefined;
	}
	return decoders;
}

/** `deflate` is zlib-wrapped by the standard, raw by some servers (undici reads both): the first byte tells. */
class DeflateDecoder extends Transform {
	private inner: Duplex | undefined;

	constructor(private readonly flush: ZlibOptions) {
		super();
	}

	override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
		if (!this.inner) {
			const inner = (chunk[0] & 0x0f) === 0x08 ? createInflate(this.flush) : createInflateRaw(this.flush);
			// Backpressure passes through: the inner decoder pauses while this stream's reader is behind.
			inner.on("data", (data: Buffer) => {
				if (!this.push(data)) inner.pause();
			});
			inner.on("error", (error) => this.destroy(error));
			this.inner = inner;
		}
		this.inner.write(chunk, () => done());
	}

	override _read(size: number): void {
		this.inner?.resume();
		super._read(size);
	}

	override _flush(done: (error?: Error | null) => void): void {
		if (!this.inner) {
			done();
			return;
		}
		this.inner.once("end", () => done());
		this.inner.end();
	}

	override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
		this.inner?.destroy();
		done(error);
	}
}

function headersOf(response: IncomingMessage): Headers {
	const headers = new Headers();
	const raw = response.rawHeaders;
	for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
	return headers;
}

function hasNoBody(method: string, status: number): boolean {
	return method === "HEAD" || status === 101 || status === 204 || status === 205 || status === 304;
}

/** The reason an abort rejects with: the signal's, as fetch does (an AbortError DOMException by default). */
function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** What fetch rejects with when the request fails before a response. */
function fetchFailed(cause: unknown): TypeError {
	return new TypeError("fetch failed", { cause });
}

/** What fetch errors a body with when the connection fails while it streams. */
function terminated(cause: unknown): TypeError {
	const code = (cause as { code?: unknown } | undefined)?.code;
	const message = (cause as { message?: unknown } | undefined)?.message;
	// Node says `aborted` for a connection the server closed mid-body; that is not an abort of ours.
	const reason =
		code === "ECONNRESET" && message === "aborted"
			? Object.assign(new Error("other side closed"), { code: "ECONNRESET" })
			: cause;
	return new TypeError("terminated", { cause: reason });
}

export class HttpTransport {
	private readonly httpAgent: Agent = new (nodeHttp().Agent)(KEEP_ALIVE);
	/** Made with the first https request (node:https and TLS load then). */
	private httpsAgentOrUndefined: HttpsAgent | undefined;
	private readonly tunnelAgents = new Map<string, HttpsAgent>();

	constructor(private readonly options: HttpTransportOptions = {}) {}

	private get httpsAgent(): HttpsAgent {
		this.httpsAgentOrUndefined ??= new (nodeHttps().Agent)({ ...KEEP_ALIVE, ca: this.options.ca });
		return this.httpsAgentOrUndefined;
	}

	/** Sends one request; resolves once the response head arrived, rejects as fetch does (see the module note). */
	send(url: URL, request: TransportRequest): Promise<TransportReply> {
		const { signal } = request;
		if (signal.aborted) return Promise.reject(abortReason(signal));
		if (url.username !== "" || url.password !== "") {
			return Promise.reject(new TypeError("Request cannot be constructed from a URL that includes credentials"));
		}
		if (url.protocol !== "http:" && url.protocol !== "https:") {
			return Promise.reject(fetchFailed(new Error(`unsupported protocol ${url.protocol}`)));
		}
		let client: ClientRequest;
		let proxy: ProxyServer | undefined;
		try {
			proxy = proxyFor(url, this.options.env ?? process.env);
			client = this.open(url, request, proxy);
		} catch (error) {
			return Promise.reject(fetchFailed(error));
		}
		// An https target's proxy is reached by the tunnel, which names it in its own errors.
		return this.await(client, request, url.protocol === "http:" ? proxy : undefined);
	}

	/** A fetch over this transport: the response is a standard `Response`. Redirects are returned, not followed. */
	readonly fetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
		const signal = init.signal ?? new AbortController().signal;
		const { body, headers } = await encodeBody(init.body ?? undefined, new Headers(init.headers));
		const reply = await this.send(new URL(input), {
			method: (init.method ?? "GET").toUpperCase(),
			headers,
			body,
			signal,
		});
		return new Response(reply.body ? webStreamOf(reply.body, signal) : null, {
			status: reply.status,
			statusText: reply.statusText,
			headers: reply.headers,
		});
	};

	/** Closes every pooled connection (tests). */
	close(): void {
		this.httpAgent.destroy();
		this.httpsAgentOrUndefined?.destroy();
		for (const agent of this.tunnelAgents.values()) agent.destroy();
		this.tunnelAgents.clear();
	}

	private open(url: URL, request: TransportRequest, proxy: ProxyServer | undefined): ClientRequest {
		const headers: OutgoingHttpHeaders = {};
		request.headers.forEach((value, name) => {
			headers[name] = value;
		});
		headers.accept ??= "*/*";
		headers["user-agent"] ??= "node";
		// What fetch asks for, and decodes.
		headers["accept-encoding"] ??= url.protocol === "https:" ? "br, gzip, deflate" : "gzip, deflate";
		if (request.body !== undefined) headers["content-length"] = Buffer.byteLength(request.body);
		else if (request.method === "POST" || request.method === "PUT") headers["content-length"] = 0;
		const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
		const path = `${url.pathname}${url.search}`;
		if (url.protocol === "https:") {
			return nodeHttps().request({
				hostname,
				port: url.port || 443,
				method: request.method,
				path,
				headers,
				agent: proxy ? this.tunnelAgent(proxy) : this.httpsAgent,
			});
		}
		// Through a proxy, an http target is asked for by its absolute URI.
		if (proxy) {
			headers.host = url.host;
			if (proxy.authorization) headers["proxy-authorization"] = proxy.authorization;
		}
		return nodeHttp().request({
			hostname: proxy ? proxy.hostname : hostname,
			port: proxy ? proxy.port : url.port || 80,
			method: request.method,
			path: proxy ? `${url.origin}${path}` : path,
			headers,
			agent: this.httpAgent,
		});
	}

	private tunnelAgent(proxy: ProxyServer): HttpsAgent {
		const key = `${proxy.origin} ${proxy.authorization ?? ""}`;
		let agent = this.tunnelAgents.get(key);
		if (!agent) {
			agent = new (tunnelAgentConstructor())(proxy, { ...KEEP_ALIVE, ca: this.options.ca });
			this.tunnelAgents.set(key, agent);
		}
		return agent;
	}

	private await(client: ClientRequest, request: TransportRequest, proxy?: ProxyServer): Promise<TransportReply> {
		const { signal } = request;
		return new Promise<TransportReply>((resolve, reject) => {
			let body: Readable | null = null;
			let settled = false;
			const onAbort = () => {
				const reason = abortReason(signal);
				client.destroy();
				body?.destroy(reason as Error);
				if (!settled) reject(reason);
				settled = true;
			};
			const release = () => signal.removeEventListener("abort", onAbort);
			signal.addEventListener("abort", onAbort, { once: true });
			// `on`, not `once`: a socket error after the response reaches the request too, and an unheard one would throw.
			client.on("error", (error) => {
				if (signal.aborted) return;
				release();
				if (!settled) {
					settled = true;
					const code = (error as { code?: unknown }).code;
					const unreachable = proxy && typeof code === "string" && PROXY_UNREACHABLE.has(code);
					reject(fetchFailed(unreachable ? proxyUnreachable(proxy, error) : error));
				}
			});
			client.once("response", (response) => {
				if (signal.aborted) {
					response.destroy();
					return;
				}
				settled = true;
				const status = response.statusCode ?? 0;
				// Node's parser takes any three digits; a Response takes 200–599 (1xx never reach here).
				if (status < 200 || status > 599) {
					release();
					client.destroy();
					reject(fetchFailed(new Error(`the server answered with the invalid HTTP status ${status}`)));
					return;
				}
				body = decodedBody(response, request.method);
				const streamed = body;
				if (streamed) streamed.once("close", release);
				else release();
				resolve({
					status,
					statusText: response.statusMessage ?? "",
					headers: headersOf(response),
					body: streamed,
				});
			});
			client.once("socket", (socket) => limitConnectTime(client, socket));
			client.end(request.body);
		});
	}
}

/** Connection errors that, for a request sent to a proxy, mean the proxy could not be reached. */
const PROXY_UNREACHABLE = new Set([
	"ECONNREFUSED",
	"ENOTFOUND",
	"EAI_AGAIN",
	"EHOSTUNREACH",
	"ENETUNREACH",
	"ETIMEDOUT",
]);

/** A connection not made within CONNECT_TIMEOUT_MS fails the request (as undici's connect timeout does). */
function limitConnectTime(client: ClientRequest, socket: Socket): void {
	if (!socket.connecting) return;
	const timer = setTimeout(() => {
		client.destroy(
			Object.assign(new Error(`connect timed out after ${CONNECT_TIMEOUT_MS / 1000} s`), { code: "ETIMEDOUT" }),
		);
	}, CONNECT_TIMEOUT_MS);
	const stop = () => clearTimeout(timer);
	socket.once("connect", stop);
	socket.once("close", stop);
}

function decodedBody(response: IncomingMessage, method: string): Readable | null {
	const status = response.statusCode ?? 0;
	if (hasNoBody(method, status)) {
		response.resume();
		return null;
	}
	const decoders = decodersOf(response.headers["content-encoding"] ?? null);
	if (!decoders || decoders.length === 0) return response;
	let stream: Readable = response;
	for (const create of decoders) {
		const decoder = create();
		const source = stream;
		source.on("error", (error) => decoder.destroy(error));
		decoder.once("close", () => source.destroy());
		stream = source.pipe(decoder);
	}
	return stream;
}

/** Request bodies the transport sends as they are; anything else is read into bytes first, as fetch would send it. */
export async function encodeBody(
	body: RequestInit["body"] | undefined,
	headers: Headers,
): Promise<{ body: Uint8Array | string | undefined; headers: Headers }> {
	if (body === undefined || body === null) return { body: undefined, headers };
	if (typeof body === "string") {
		if (!headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
		return { body, headers };
	}
	if (body instanceof Uint8Array) return { body, headers };
	if (body instanceof ArrayBuffer) return { body: new Uint8Array(body), headers };
	if (ArrayBuffer.isView(body))
		return { body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), headers };
	// Blob, FormData, URLSearchParams, a stream: encoded as fetch encodes them, with the content type it gives.
	const encoded = new Response(body);
	const type = encoded.headers.get("content-type");
	if (type !== null && !headers.has("content-type")) headers.set("content-type", type);
	return { body: new Uint8Array(await encoded.arrayBuffer()), headers };
}

/** The chunks of a reply's body, failing as fetch's body does: the abort's reason, or `terminated` with the cause. */
export function readBody(body: Readable, signal: AbortSignal): AsyncIterator<Buffer> {
	const chunks: AsyncIterator<Buffer> = body[Symbol.asyncIterator]();
	return {
		next: () =>
			chunks.next().catch((error: unknown) => {
				throw signal.aborted ? abortReason(signal) : terminated(error);
			}),
	};
}

/** A Node stream as a web stream, one chunk per read. */
export function webStreamOf(body: Readable, signal: AbortSignal): ReadableStream<Uint8Array> {
	const chunks = readBody(body, signal);
	return new ReadableStream<Uint8Array>(
		{
			pull: async (controller) => {
				const { done, value } = await chunks.next();
				if (done) controller.close();
				else controller.enqueue(value);
			},
			cancel: () => {
				body.destroy();
			},
		},
		{ highWaterMark: 0 },
	);
}

/** The transport provider requests use unless a test gives another. */
export const defaultHttpTransport = new HttpTransport();
