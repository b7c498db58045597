import type { Readable } from "node:stream";
import {
	defaultHttpTransport,
	encodeBody,
	type HttpTransport,
	readBody,
	type TransportReply,
} from "./http-transport.js";
import type { ReplyLimits } from "./reply-limits.js";
import {
	crossOriginRedirectMessage,
	malformedEventStreamMessage,
	notAnEventStreamMessage,
	ReplyGuardError,
	type ResponseSummary,
	replyTooLargeMessage,
	replyTooSlowMessage,
	SNIPPET_CHARS,
	tooManyRedirectsMessage,
	unreplayableRedirectMessage,
} from "./stream-errors.js";
import { type SniffVerdict, WIRE_FORMATS, type WireFormat, type WireFormatRules } from "./wire-formats.js";

/** Same-origin redirects followed per request, as browsers cap theirs (they allow 20; an API needs few). */
const MAX_REDIRECTS = 5;
/** Body bytes kept for error messages (the first SNIPPET_CHARS characters fit in it). */
const CAPTURE_BYTES = 1024;
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * The reason `close()` aborts with: an AbortError, as a plain `abort()` gives, made once. A fresh DOMException
 * (its stack captured) was a twentieth of the CPU of a small streaming request.
 */
const CLOSED = new DOMException("The reply is over", "AbortError");

/** A Node stream's chunks, as its async iterator yields them. */
type NodeChunks = AsyncIterator<Buffer>;

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

function isRedirect(status: number): boolean {
	return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** Origin and path: a query string or user info may carry a credential, so messages never show them. */
function displayUrl(url: URL): string {
	return `${url.origin}${url.pathname}`;
}

function isDeclaredAs(contentType: string, rules: WireFormatRules): boolean {
	return contentType.split(";")[0].trim().toLowerCase() === rules.contentType;
}

function isReplayableBody(body: NonNullable<RequestInit["body"]>): boolean {
	return typeof body === "string" || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || body instanceof Blob;
}

function requestUrl(input: string | URL | Request): URL {
	if (typeof input === "string") return new URL(input);
	if (input instanceof URL) return new URL(input.href);
	return new URL(input.url);
}

async function requestInit(request: Request): Promise<RequestInit> {
	const hasBody = request.body !== null && request.method !== "GET" && request.method !== "HEAD";
	return {
		method: request.method,
		headers: request.headers,
		body: hasBody ? await request.arrayBuffer() : undefined,
		signal: request.signal,
	};
}

/**
 * The transport of one reply, shared by every adapter: each SDK is given `guard.fetch`, which sends the request
 * over our HTTP client (http-transport.ts: keep-alive agents, proxies from the environment) and
 * - never sends credentials or the conversation to another origin: the client never follows redirects itself;
 *   same-origin ones are followed (at most MAX_REDIRECTS), any other fails the reply;
 * - counts the raw body bytes, so a reply past `maxReplyBytes` is stopped even when it is one endless line
 *   that an SSE decoder would buffer forever, and stops the reply after `replyTimeoutMs`;
 * - checks that a successful response is an event stream of the API's framing (content type, then its first
 *   bytes; SSE by default, or AWS event-stream frames whose lengths and checksums are checked as they pass), so
 *   an HTML portal page, JSON or an empty body fails instead of reading as an empty reply.
 * Limits and refusals abort the HTTP request and are kept in `failure`, whose text the stream loop reports
 * whatever the SDK wrapped it in.
 */
export class ReplyGuard {
	failure: ReplyGuardError | undefined;
	private readonly controller = new AbortController();
	private timer: ReturnType<typeof setTimeout> | undefined;
	/** The signals the request follows (the caller's, an SDK's own per attempt), each with its unlink, until close(). */
	private readonly followed = new Map<AbortSignal, () => void>();
	private bytes = 0;
	/** Set once the body was read to its end: the HTTP request is over, and nothing is left for close() to abort. */
	private isBodyRead = false;
	private readonly wire: WireFormatRules;
	private readonly captured: Uint8Array[] = [];
	private capturedBytes = 0;
	private response: Omit<ResponseSummary, "snippet" | "isSnippetCut"> | undefined;

	constructor(
		private readonly limits: ReplyLimits,
		wireFormat: WireFormat = "sse",
		private readonly transport: HttpTransport = defaultHttpTransport,
	) {
		this.wire = WIRE_FORMATS[wireFormat];
	}

	/** Starts the reply clock; called right before the request is sent. */
	start(): void {
		const { replyTimeoutMs } = this.limits;
		// Past the largest delay a timer takes (about 24.8 days) Node would fire at once: that is no limit.
		if (!(replyTimeoutMs > 0) || replyTimeoutMs > MAX_TIMER_MS) return;
		this.timer = setTimeout(() => this.fail(replyTooSlowMessage(replyTimeoutMs)), replyTimeoutMs);
	}

	/**
	 * Ends the reply's transport: the timer stops and a request still open is aborted. A reply whose body was read
	 * to its end is not aborted: that would only wake the listeners the SDK left on the signal, each aborting a
	 * controller of its own (an event and a fresh AbortError each), for a request that is already over.
	 */
	close(): void {
		clearTimeout(this.timer);
		for (const unlink of this.followed.values()) unlink();
		this.followed.clear();
		if (!this.isBodyRead) this.controller.abort(CLOSED);
	}

	/**
	 * The reply's own signal, for its SDK: aborted when a followed signal is, on a failure, and at close() when the
	 * body was not read to its end. An SDK keeps the abort listener it adds to the signal it is given for as long
	 * as that signal lives, so it must not be given a caller's signal that outlives the request (a whole agent
	 * run): one listener, with the request's state, would pile up on it per request.
	 */
	get signal(): AbortSignal {
		return this.controller.signal;
	}

	/** Aborts the request when `signal` aborts, until the reply is over (close() unlinks). */
	follow(signal: AbortSignal | undefined): void {
		if (!signal || signal === this.controller.signal || this.followed.has(signal)) return;
		const abort = () => this.controller.abort(signal.reason);
		this.followed.set(signal, () => signal.removeEventListener("abort", abort));
		if (signal.aborted) abort();
		else signal.addEventListener("abort", abort, { once: true });
	}

	/** The final response and the start of its body, once a response arrived. */
	summary(): ResponseSummary | undefined {
		if (!this.response) return undefined;
		const text = this.capturedText();
		return {
			...this.response,
			snippet: text.slice(0, SNIPPET_CHARS),
			isSnippetCut: text.length > SNIPPET_CHARS || this.bytes > this.capturedBytes,
		};
	}

	readonly fetch: Fetch = async (input, givenInit = {}) => {
		// SDKs that build a Request (Mistral's) pass everything in it; its body is read once so a redirect can resend it.
		const init = input instanceof Request ? { ...(await requestInit(input)), ...givenInit } : givenInit;
		this.follow(init.signal ?? undefined);
		const origin = requestUrl(input);
		let url = origin;
		let method = (init.method ?? "GET").toUpperCase();
		const given = init.body ?? undefined;
		let { body, headers } = await encodeBody(given, new Headers(init.headers));
		for (let redirects = 0; ; redirects++) {
			const reply = await this.transport.send(url, { method, headers, body, signal: this.controller.signal });
			const location = isRedirect(reply.status) ? reply.headers.get("location") : null;
			if (location === null) return this.inspect(url, reply);
			reply.body?.destroy();
			const target = new URL(location, url);
			if (target.origin !== origin.origin) {
				throw this.fail(crossOriginRedirectMessage(origin.origin, displayUrl(target), reply.status));
			}
			if (redirects >= MAX_REDIRECTS) throw this.fail(tooManyRedirectsMessage(origin.origin, MAX_REDIRECTS));
			// What fetch itself does: 303, and 301/302 after a POST, continue as a GET without the body.
			if (reply.status === 303 || ((reply.status === 301 || reply.status === 302) && method === "POST")) {
				method = "GET";
				body = undefined;
				headers = new Headers(headers);
				headers.delete("content-type");
				headers.delete("content-length");
			} else if (given !== undefined && body !== undefined && !isReplayableBody(given)) {
				throw this.fail(unreplayableRedirectMessage(origin.origin, reply.status));
			}
			url = target;
		}
	};

	/** Records the failure (the first one wins) and aborts the request. Returns it for throwing. */
	private fail(message: string): ReplyGuardError {
		if (!this.failure) this.failure = new ReplyGuardError(message);
		this.controller.abort(this.failure);
		return this.failure;
	}

	private async inspect(url: URL, reply: TransportReply): Promise<Response> {
		const contentType = reply.headers.get("content-type");
		this.response = { url: displayUrl(url), status: reply.status, contentType: contentType ?? "no content type" };
		const source = reply.body;
		const isOk = reply.status >= 200 && reply.status < 300;
		if (!isOk) {
			// Error bodies are the SDK's to read (status and provider text); they are counted all the same.
			return this.respond(reply, source ? this.countedBody(source, false) : null);
		}
		if (!source) throw this.fail(notAnEventStreamMessage(this.requireSummary()));
		// A declared type other than an event stream is refused at once; an absent one is judged by the body.
		if (contentType !== null && !isDeclaredAs(contentType, this.wire)) {
			const chunks = readBody(source, this.controller.signal);
			await this.readSnippet(chunks);
			source.destroy();
			throw this.fail(notAnEventStreamMessage(this.requireSummary()));
		}
		// Without a declared type the SDK is told the one its reader expects (some SDKs check it); the body itself is
		// still judged as it is read.
		if (contentType === null) reply.headers.set("content-type", this.wire.contentType);
		return this.respond(reply, this.countedBody(source, true));
	}

	private respond(reply: TransportReply, body: ReadableStream<Uint8Array> | null): Response {
		return new Response(body, { status: reply.status, statusText: reply.statusText, headers: reply.headers });
	}

	private requireSummary(): ResponseSummary {
		const summary = this.summary();
		if (!summary) throw new Error("ReplyGuard: no response to summarise");
		return summary;
	}

	/**
	 * The body as the SDK reads it, read straight from the Node stream (one web stream, no other layer): bytes
	 * counted against the cap as they arrive, the first ones kept for messages, and (for a successful response)
	 * held back until they show an event stream.
	 */
	private countedBody(source: Readable, sniff: boolean): ReadableStream<Uint8Array> {
		const chunks = readBody(source, this.controller.signal);
		let held: Uint8Array[] | undefined = sniff ? [] : undefined;
		const monitor = sniff ? this.wire.createMonitor() : undefined;
		const pass = (controller: ReadableStreamDefaultController<Uint8Array>, chunk: Uint8Array) => {
			const problem = monitor?.feed(chunk);
			if (problem) throw this.fail(malformedEventStreamMessage(this.requireSummary(), problem));
			controller.enqueue(chunk);
		};
		return new ReadableStream<Uint8Array>(
			{
				pull: async (controller) => {
					for (;;) {
						const { done, value } = await chunks.next();
						if (done) {
							if (held && this.sniff(true) !== "event-stream") {
								throw this.fail(notAnEventStreamMessage(this.requireSummary()));
							}
							for (const chunk of held ?? []) pass(controller, chunk);
							held = undefined;
							this.isBodyRead = true;
							controller.close();
							return;
						}
						this.take(value);
						if (!held) {
							pass(controller, value);
							return;
						}
						held.push(value);
						const verdict = this.sniff(false);
						if (verdict === "undecided") continue;
						if (verdict === "not-event-stream") {
							await this.readSnippet(chunks);
							throw this.fail(notAnEventStreamMessage(this.requireSummary()));
						}
						for (const chunk of held) pass(controller, chunk);
						held = undefined;
						return;
					}
				},
				cancel: () => {
					source.destroy();
				},
			},
			{ highWaterMark: 0 },
		);
	}

	/** Counts a chunk of body (failing past the cap) and keeps the start of the body. */
	private take(chunk: Uint8Array): void {
		this.bytes += chunk.byteLength;
		const { maxReplyBytes } = this.limits;
		if (maxReplyBytes > 0 && this.bytes > maxReplyBytes) throw this.fail(replyTooLargeMessage(maxReplyBytes));
		if (this.capturedBytes < CAPTURE_BYTES) {
			const part = chunk.slice(0, CAPTURE_BYTES - this.capturedBytes);
			this.captured.push(part);
			this.capturedBytes += part.byteLength;
		}
	}

	/** Reads on until the snippet for a message is complete (or the body ends). */
	private async readSnippet(chunks: NodeChunks): Promise<void> {
		while (this.capturedBytes < CAPTURE_BYTES && this.capturedText().length <= SNIPPET_CHARS) {
			const { done, value } = await chunks.next();
			if (done) return;
			this.take(value);
		}
	}

	private capturedText(): string {
		return new TextDecoder().decode(Buffer.concat(this.captured));
	}

	private sniff(atEnd: boolean): SniffVerdict {
		return this.wire.sniff(Buffer.concat(this.captured), atEnd);
	}
}
