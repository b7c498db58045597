// The few HTTP exchanges of a login or a token refresh. Token endpoints never redirect, so a redirect is refused
// (a refresh token is never sent on to another server); replies are small, so they are bounded; and a server that
// does not answer fails the step instead of hanging the login.
const MAX_REPLY_BYTES = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 30_000;
/** Characters of an error body kept in messages. */
const ERROR_TEXT_CHARS = 500;

export class OAuthHttpError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: string,
	) {
		super(message);
		this.name = "OAuthHttpError";
	}
}

export interface OAuthRequest {
	method?: "GET" | "POST";
	headers?: Record<string, string>;
	/** A form (sent url-encoded) or a JSON value. */
	form?: Record<string, string>;
	json?: unknown;
	signal?: AbortSignal;
}

async function readBounded(response: Response, url: string): Promise<string> {
	const reader = response.body?.getReader();
	if (!reader) return "";
	const chunks: Uint8Array[] = [];
	let bytes = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		bytes += value.byteLength;
		if (bytes > MAX_REPLY_BYTES) {
			await reader.cancel().catch(() => undefined);
			throw new Error(`The reply of ${new URL(url).origin} is larger than ${MAX_REPLY_BYTES} bytes`);
		}
		chunks.push(value);
	}
	return Buffer.concat(chunks).toString("utf8");
}

/** Sends one request; resolves with the status and body text, whatever the status. */
export async function sendOAuthRequest(
	url: string,
	request: OAuthRequest = {},
): Promise<{ status: number; ok: boolean; text: string }> {
	const headers: Record<string, string> = { Accept: "application/json", ...request.headers };
	let body: string | undefined;
	if (request.form) {
		headers["Content-Type"] = "application/x-www-form-urlencoded";
		body = new URLSearchParams(request.form).toString();
	} else if (request.json !== undefined) {
		headers["Content-Type"] = "application/json";
		body = JSON.stringify(request.json);
	}
	const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
	const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
	// The provider requests' client: proxies from the environment, and redirects are never followed. It loads on
	// first use, as for httpFetch(): importing the package loads no HTTP module.
	const { defaultHttpTransport } = await import("../providers/http-transport.js");
	let response: Response;
	try {
		response = await defaultHttpTransport.fetch(url, {
			method: request.method ?? (body === undefined ? "GET" : "POST"),
			headers,
			body,
			signal,
		});
	} catch (error) {
		if (request.signal?.aborted) throw error;
		const reason = timeout.aborted ? `no reply in ${REQUEST_TIMEOUT_MS / 1000}s` : describeCause(error);
		throw new Error(`Could not reach ${new URL(url).origin}: ${reason}`);
	}
	if (response.status >= 300 && response.status < 400) {
		await response.body?.cancel().catch(() => undefined);
		throw new Error(`${new URL(url).origin} answered with a redirect (${response.status}); it was not followed`);
	}
	const text = await readBounded(response, url);
	return { status: response.status, ok: response.ok, text };
}

function describeCause(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	const cause = (error as { cause?: unknown }).cause;
	return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}

/** Sends one request and parses a JSON object reply; a non-2xx status throws with the server's text. */
export async function fetchOAuthJson(url: string, request: OAuthRequest = {}): Promise<Record<string, unknown>> {
	const { status, ok, text } = await sendOAuthRequest(url, request);
	if (!ok) {
		throw new OAuthHttpError(
			`${status} from ${new URL(url).origin}${new URL(url).pathname}: ${text.slice(0, ERROR_TEXT_CHARS)}`,
			status,
			text,
		);
	}
	return parseJsonObject(text, url);
}

export function parseJsonObject(text: string, url: string): Record<string, unknown> {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw new Error(`${new URL(url).origin} did not answer with JSON: ${text.slice(0, ERROR_TEXT_CHARS)}`);
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		throw new Error(`${new URL(url).origin} did not answer with a JSON object`);
	}
	return value as Record<string, unknown>;
}

export function requireString(data: Record<string, unknown>, field: string, what: string): string {
	const value = data[field];
	if (typeof value !== "string" || value.length === 0) throw new Error(`${what}: the reply has no "${field}"`);
	return value;
}

export function requireNumber(data: Record<string, unknown>, field: string, what: string): number {
	const value = data[field];
	if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`${what}: the reply has no "${field}"`);
	return value;
}

/** Resolves after `ms`, or rejects with `Login cancelled` when the signal aborts first. */
export function waitOrCancel(ms: number, signal: AbortSignal | undefined, cancelledMessage: string): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(new Error(cancelledMessage));
			return;
		}
		const onAbort = () => {
			clearTimeout(timer);
			reject(new Error(cancelledMessage));
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}
