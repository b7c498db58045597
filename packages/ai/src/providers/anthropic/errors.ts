import { APIError } from "@anthropic-ai/sdk";
import { describeError } from "../assistant-output.js";
import { messageWithCauses, retryAfterSeconds, retryAfterSuffix } from "../error-text.js";

/**
 * Error text that keeps what a caller needs to decide between retrying, compacting and giving up:
 * - HTTP errors: the SDK's message is `<status> <response body>`, e.g.
 *   `529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`.
 * - An `error` event inside the stream: the event's JSON body.
 * - Transport failures: the SDK's text plus the underlying cause (`Connection error. (fetch failed: other
 *   side closed)`, `terminated (other side closed)`).
 * - A server hint to wait (`retry-after`) is appended as ` (retry after <N>s)`.
 * A stream line that is not JSON is reported by the shared stream loop (run-stream.ts).
 */
export function describeAnthropicError(error: unknown): string {
	if (error instanceof APIError)
		return `${messageWithCauses(error)}${retryAfterSuffix(retryAfterSeconds(error.headers))}`;
	if (error instanceof Error) return messageWithCauses(error);
	return describeError(error);
}
