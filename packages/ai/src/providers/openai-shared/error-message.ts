import { APIConnectionError, APIError } from "openai";
import { describeError } from "../assistant-output.js";
import { messageWithCauses, retryAfterSeconds, retryAfterSuffix } from "../error-text.js";

/** Gateways answer some failures with whole HTML pages; the start says what happened, the rest is noise. */
const MAX_ERROR_BODY_CHARS = 4000;

function truncate(text: string): string {
	if (text.length <= MAX_ERROR_BODY_CHARS) return text;
	return `${text.slice(0, MAX_ERROR_BODY_CHARS)}... [truncated ${text.length - MAX_ERROR_BODY_CHARS} chars]`;
}

function errorBody(error: APIError): Record<string, unknown> | undefined {
	const body = error.error;
	return body !== null && typeof body === "object" ? (body as Record<string, unknown>) : undefined;
}

/** OpenRouter puts the upstream provider's own error in `error.metadata.raw`. */
function openRouterRaw(body: Record<string, unknown> | undefined): string | undefined {
	const metadata = body?.metadata;
	if (metadata === null || typeof metadata !== "object") return undefined;
	const raw = (metadata as Record<string, unknown>).raw;
	if (raw === undefined || raw === null || raw === "") return undefined;
	return typeof raw === "string" ? raw : JSON.stringify(raw);
}

/**
 * The error text for a failed OpenAI-family call. It keeps what callers need to decide what to do next:
 * the HTTP status and the server's own message (retryable 429/5xx/overloaded vs fatal 400/401/403 vs
 * context overflow, see isContextOverflow), and for dropped connections the underlying cause
 * ("terminated (other side closed)"), which the coding agent's auto-retry recognises.
 */
export function describeOpenAIError(error: unknown): string {
	if (error instanceof APIConnectionError) return messageWithCauses(error);
	if (error instanceof APIError) {
		const body = errorBody(error);
		let message = error.message;
		// Errors sent inside the event stream have no HTTP status; OpenRouter gives it as a numeric code.
		const code = body?.code;
		if (error.status === undefined && typeof code === "number" && !message.startsWith(`${code}`)) {
			message = `${code} ${message}`;
		}
		const raw = openRouterRaw(body);
		return `${truncate(raw ? `${message}\n${raw}` : message)}${retryAfterSuffix(retryAfterSeconds(error.headers))}`;
	}
	if (error instanceof Error) return messageWithCauses(error);
	return describeError(error);
}
