import { ApiError } from "@google/genai";
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
 * - HTTP errors and error chunks in the stream: `<status> <Google's error JSON>`, e.g.
 *   `503 {"error":{"code":503,"message":"The model is overloaded…","status":"UNAVAILABLE"}}` (the SDK's
 *   message is the bare body; the status is put in front so every provider's errors read alike).
 * - Transport failures: the SDK's text plus the underlying cause (`terminated (other side closed)`).
 * - A stream line that is not JSON: says so, with the parser's complaint.
 */
export function describeGoogleError(error: unknown): string {
	if (error instanceof ApiError) {
		const status = String(error.status);
		return error.message.startsWith(status) ? error.message : `${status} ${error.message}`;
	}
	if (error instanceof SyntaxError) return `Malformed event in the provider's stream: ${error.message}`;
	if (error instanceof Error) return withCauses(error);
	return describeError(error);
}
