import { ApiError } from "@google/genai";
import { describeError } from "../assistant-output.js";
import { messageWithCauses, retryAfterSuffix } from "../error-text.js";

/** Google asks for a wait in the error body's RetryInfo detail: `"retryDelay": "20s"`. */
function googleRetryDelay(message: string): number | undefined {
	const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(message);
	return match ? Number(match[1]) : undefined;
}

/**
 * Error text that keeps what a caller needs to decide between retrying, compacting and giving up:
 * - HTTP errors and error chunks in the stream: `<status> <Google's error JSON>`, e.g.
 *   `503 {"error":{"code":503,"message":"The model is overloaded…","status":"UNAVAILABLE"}}` (the SDK's
 *   message is the bare body; the status is put in front so every provider's errors read alike).
 * - Transport failures: the SDK's text plus the underlying cause (`terminated (other side closed)`).
 * - A RetryInfo `retryDelay` is appended as ` (retry after <N>s)`.
 * A stream line that is not JSON is reported by the shared stream loop (run-stream.ts).
 */
export function describeGoogleError(error: unknown): string {
	if (error instanceof ApiError) {
		const status = String(error.status);
		const text = error.message.startsWith(status) ? error.message : `${status} ${error.message}`;
		return `${text}${retryAfterSuffix(googleRetryDelay(error.message))}`;
	}
	if (error instanceof Error) return messageWithCauses(error);
	return describeError(error);
}
