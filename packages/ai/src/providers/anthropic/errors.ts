import { APIError } from "@anthropic-ai/sdk";
import { describeError } from "../assistant-output.js";

const MAX_CAUSE_DEPTH = 5;

/** The message followed by the messages of its causes, e.g. `terminated (other side closed)`. */
function withCauses(error: Error): string {
	const causes: string[] = [];
	let cause: unknown = error.cause;
	for (let depth = 0; cause instanceof Error && depth < MAX_CAUSE_DEPTH; depth++) {
		if (cause.message && !error.message.includes(cause.message) && !causes.includes(cause.message)) {
			causes.push(cause.message);
		}
		cause = cause.cause;
	}
	return causes.length > 0 ? `${error.message} (${causes.join(": ")})` : error.message;
}

/**
 * Error text that keeps what a caller needs to decide between retrying, compacting and giving up:
 * - HTTP errors: the SDK's message is `<status> <response body>`, e.g.
 *   `529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`.
 * - An `error` event inside the stream: the event's JSON body.
 * - Transport failures: the SDK's text plus the underlying cause (`Connection error. (fetch failed: other
 *   side closed)`, `terminated (other side closed)`).
 * - A stream line that is not JSON: says so, with the parser's complaint.
 */
export function describeAnthropicError(error: unknown): string {
	if (error instanceof SyntaxError) return `Malformed event in the provider's stream: ${error.message}`;
	if (error instanceof APIError || error instanceof Error) return withCauses(error);
	return describeError(error);
}
