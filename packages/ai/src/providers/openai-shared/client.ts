import OpenAI, { type APIError } from "openai";
import type { Context, Model } from "../../types.js";
import { isOpenAIHost } from "./api-key.js";
import { githubCopilotDynamicHeaders } from "./copilot-headers.js";

/**
 * Error bodies come in many shapes across OpenAI-compatible servers. The SDK only reads
 * `{error: {message}}`: for `{error: "text"}` (Ollama) it prints the text JSON-quoted, and for a body
 * without `error` (vLLM's `{object: "error", message}`, FastAPI's `{detail}`) it prints
 * "<status> status code (no body)", which loses the server's text and looks like a Cerebras overflow.
 * This reshapes any JSON body into `{error: {...}}` so the message always carries the server's words.
 */
export function normalizeErrorBody(body: unknown): unknown {
	if (body === undefined || body === null) return body;
	if (typeof body !== "object" || Array.isArray(body)) {
		return { error: { message: typeof body === "string" ? body : JSON.stringify(body) } };
	}
	const record = body as Record<string, unknown>;
	if (!("error" in record)) return { error: record };
	if (typeof record.error === "string") return { ...record, error: { message: record.error } };
	return body;
}

class OpenAICompatibleClient extends OpenAI {
	protected override makeStatusError(
		status: number,
		error: unknown,
		message: string | undefined,
		headers: Headers,
	): APIError {
		return super.makeStatusError(status, normalizeErrorBody(error) as object, message, headers);
	}
}

export interface OpenAIClientOptions {
	model: Model;
	/** Undefined for a keyless server: no Authorization header is sent. */
	apiKey: string | undefined;
	context: Context;
	headers?: Record<string, string>;
}

// Clients hold no per-request state; building one (option parsing, header normalisation) costs about as much
// as the rest of a request's set-up, so the last few configurations are kept.
const CLIENT_CACHE_SIZE = 4;
const clients = new Map<string, OpenAI>();

/**
 * An SDK client pointed at `model.baseUrl`, reused while the configuration is the same. Headers merge in the
 * spec's order: model headers, then GitHub Copilot's dynamic headers, then the caller's. SDK retries are off: retrying is the coding
 * agent's job (it reports each attempt), and a hidden retry would double-count and delay.
 */
export function createOpenAIClient({ model, apiKey, context, headers }: OpenAIClientOptions): OpenAI {
	const openAIHost = isOpenAIHost(model.baseUrl);
	const defaultHeaders: Record<string, string | null> = {
		...(apiKey === undefined ? { Authorization: null } : {}),
		...model.headers,
		...(model.provider === "github-copilot" ? githubCopilotDynamicHeaders(context.messages) : {}),
		...headers,
	};
	const logLevel = process.env.OPENAI_LOG ? undefined : ("off" as const);
	const key = JSON.stringify([apiKey, model.baseUrl, openAIHost, defaultHeaders, logLevel]);
	const cached = clients.get(key);
	if (cached) return cached;
	const client = new OpenAICompatibleClient({
		apiKey: apiKey ?? "no-key",
		baseURL: model.baseUrl || undefined,
		// The SDK reads OPENAI_ORG_ID / OPENAI_PROJECT_ID; those belong to OpenAI, not to other servers.
		...(openAIHost ? {} : { organization: null, project: null }),
		defaultHeaders,
		maxRetries: 0,
		// Node is not a browser, but some test/bundler environments look like one; the key is the user's own.
		dangerouslyAllowBrowser: true,
		// The SDK logs unparseable stream lines to the console, which would corrupt a terminal UI; the
		// failure is reported in the stream instead. OPENAI_LOG still turns logging on for debugging.
		...(logLevel ? { logLevel } : {}),
	});
	if (clients.size >= CLIENT_CACHE_SIZE) clients.delete(clients.keys().next().value as string);
	clients.set(key, client);
	return client;
}
