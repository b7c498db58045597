import type { Fetch } from "../reply-guard.js";

/** The parts of a Smithy HTTP request the handler reads (`@smithy/protocol-http` HttpRequest). */
interface SmithyRequest {
	method: string;
	protocol: string;
	hostname: string;
	port?: number;
	path: string;
	query?: Record<string, string | string[] | null>;
	headers: Record<string, string>;
	body?: unknown;
}

interface SmithyResponse {
	statusCode: number;
	reason?: string;
	headers: Record<string, string>;
	body: ReadableStream<Uint8Array>;
}

/** Headers fetch sets itself from the URL and the body; the values are the same ones the request was signed with. */
const FETCH_OWNED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "expect"]);

function queryString(query: SmithyRequest["query"]): string {
	const parts: string[] = [];
	for (const [key, value] of Object.entries(query ?? {})) {
		const name = encodeURIComponent(key);
		if (value === null) parts.push(name);
		else for (const item of Array.isArray(value) ? value : [value]) parts.push(`${name}=${encodeURIComponent(item)}`);
	}
	return parts.length > 0 ? `?${parts.join("&")}` : "";
}

function requestBody(body: unknown): RequestInit["body"] {
	if (body === undefined || body === null) return undefined;
	if (typeof body === "string" || body instanceof Uint8Array || body instanceof ArrayBuffer)
		return body as NonNullable<RequestInit["body"]>;
	throw new Error("Bedrock request body of an unexpected kind (a stream); only strings and bytes are sent");
}

/**
 * The AWS SDK's request handler, replaced by one that sends every request through the reply's guarded fetch
 * (reply-guard.ts): redirects never leave the origin, the reply is capped in size and time and checked to be an AWS
 * event stream, and an abort closes it. The SDK's own handler would use node:http2 directly, outside the guard.
 * The SDK signs the request first (SigV4 or the Bedrock API key), so the signature covers exactly what is sent.
 */
export class GuardedFetchHandler {
	readonly metadata = { handlerProtocol: "http/1.1" };

	constructor(private readonly fetch: Fetch) {}

	async handle(
		request: SmithyRequest,
		options: { abortSignal?: AbortSignal } = {},
	): Promise<{ response: SmithyResponse }> {
		const port = request.port ? `:${request.port}` : "";
		const url = `${request.protocol}//${request.hostname}${port}${request.path}${queryString(request.query)}`;
		const headers = new Headers();
		for (const [name, value] of Object.entries(request.headers)) {
			if (!FETCH_OWNED_HEADERS.has(name.toLowerCase())) headers.set(name, value);
		}
		const response = await this.fetch(url, {
			method: request.method,
			headers,
			body: requestBody(request.body),
			signal: options.abortSignal,
		});
		const responseHeaders: Record<string, string> = {};
		response.headers.forEach((value, name) => {
			responseHeaders[name] = value;
		});
		return {
			response: {
				statusCode: response.status,
				reason: response.statusText,
				headers: responseHeaders,
				body: response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
			},
		};
	}

	updateHttpClientConfig(): void {}

	httpHandlerConfigs(): Record<string, never> {
		return {};
	}

	destroy(): void {}
}
