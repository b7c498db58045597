import OpenAI, { type APIError } from "openai";
import type { Context, Model } from "../../types.js";
import type { Fetch } from "../reply-guard.js";
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
	/** The reply's guarded fetch (reply-guard.ts): no cross-origin redirects, reply limits. */
	fetch: Fetch;
}

/**
 * An SDK client pointed at `model.baseUrl`, one per request since each carries its reply's guarded fetch
 * (building one takes about 0.1 ms). Headers merge in the reference's order: model headers, then GitHub Copilot's
 * dynamic headers, then the caller's. SDK retries are off: retrying is the coding agent's job (it reports each
 * attempt), and a hidden retry would double-count and delay.
 */
export function createOpenAIClient({ model, apiKey, context, headers, fetch }: OpenAIClientOptions): OpenAI {
	const openAIHost = isOpenAIHost(model.baseUrl);
	const defaultHeaders: Record<string, string | null> = {
		...(apiKey === undefined ? { Authorization: null } : {}),
		...model.headers,
		...(model.provider === "github-copilot" ? githubCopilotDynamicHeaders(context.messages) : {}),
		...headers,
	};
	const logLevel = process.env.OPENAI_LOG ? undefined : ("off" as const);
	return new OpenAICompatibleClient({
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
		fetch,
	});
}
