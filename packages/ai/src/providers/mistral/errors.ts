import { describeError } from "../assistant-output.js";
import { messageWithCauses, retryAfterSeconds, retryAfterSuffix } from "../error-text.js";

const MAX_ERROR_BODY_CHARS = 4000;

interface MistralHttpError extends Error {
	statusCode?: unknown;
	body?: unknown;
	headers?: Headers;
}

function truncate(text: string): string {
	if (text.length <= MAX_ERROR_BODY_CHARS) return text;
	return `${text.slice(0, MAX_ERROR_BODY_CHARS)}... [truncated ${text.length - MAX_ERROR_BODY_CHARS} chars]`;
}

/**
 * `Mistral API error (<status>): <body>` as the reference writes it, plus the ` (retry after Ns)`
 * hint from `retry-after`. Transport failures keep their causes.
 */
export function describeMistralError(error: unknown): string {
	if (!(error instanceof Error)) return describeError(error);
	const http = error as MistralHttpError;
	if (typeof http.statusCode !== "number") return messageWithCauses(error);
	const body = typeof http.body === "string" && http.body.trim() ? http.body.trim() : error.message;
	return `Mistral API error (${http.statusCode}): ${truncate(body)}${retryAfterSuffix(retryAfterSeconds(http.headers))}`;
}
