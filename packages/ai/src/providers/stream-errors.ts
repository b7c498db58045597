/**
 * The error texts every adapter's stream loop can end with, written once. Callers classify them by text: the
 * coding agent's auto-retry retries "response stream ended before" (a cut connection is transient) and does not
 * retry the limits, the refused redirect or a reply that is not the provider's wire format.
 */

export const ABORTED_MESSAGE = "Request was aborted";
export const UNKNOWN_ERROR_MESSAGE = "An unknown error occurred";

/** What the HTTP response looked like, for messages about a reply that was not the provider's wire format. */
export interface ResponseSummary {
	/** Origin and path only: a query string or user info may hold a credential. */
	url: string;
	status: number;
	/** The content-type header as sent, or `no content type`. */
	contentType: string;
	/** The first characters of the body received (at most SNIPPET_CHARS). */
	snippet: string;
	/** True when the body went on past the snippet. */
	isSnippetCut: boolean;
}

export const SNIPPET_CHARS = 200;

/** A reply that broke its API's event protocol (events out of order, a block we cannot represent). */
export class WireProtocolError extends Error {
	override name = "WireProtocolError";
}

/** A failure the transport guard decided (limit, redirect, wire format): its text is final. */
export class ReplyGuardError extends Error {
	override name = "ReplyGuardError";
}

/** The body ended (cleanly or not) without the API's terminal event: the reply is unfinished. */
export function streamEndedEarlyMessage(terminalEvent: string): string {
	return `The response stream ended before the provider finished the reply (no ${terminalEvent} received)`;
}

function quoteSnippet(response: ResponseSummary): string {
	if (response.snippet === "" && !response.isSnippetCut) return "an empty body";
	const quoted = JSON.stringify(response.snippet);
	return response.isSnippetCut ? `${quoted.slice(0, -1)}…"` : quoted;
}

/** An event whose data is not JSON (the SDK's parser message follows). */
export function malformedEventMessage(parserMessage: string): string {
	return `Malformed event in the provider's stream: ${parserMessage}`;
}

/** The body is not an event stream at all: an HTML page, JSON, an empty body, text that is not SSE. */
export function notAnEventStreamMessage(response: ResponseSummary): string {
	return `Expected an event stream from ${response.url} but got HTTP ${response.status} ${response.contentType}: ${quoteSnippet(response)}`;
}

/** The body is an event stream, but not one of this API's replies. */
export function malformedEventStreamMessage(response: ResponseSummary, problem: string): string {
	return `Malformed event stream from ${response.url} (HTTP ${response.status} ${response.contentType}): ${problem}; the body began ${quoteSnippet(response)}`;
}

const MIB = 1024 * 1024;
const KIB = 1024;

function formatBytes(bytes: number): string {
	if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
	if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB} KiB`;
	return `${bytes} bytes`;
}

function formatDuration(ms: number): string {
	if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
	if (ms >= 1000) return `${ms / 1000} s`;
	return `${ms} ms`;
}

export function replyTooLargeMessage(maxBytes: number): string {
	return `The reply was stopped: it exceeded the reply size limit of ${formatBytes(maxBytes)}. Raise limits.replyMaxBytes in settings.json (0 = no limit) if replies this large are expected.`;
}

export function replyTooSlowMessage(timeoutMs: number): string {
	return `The reply was stopped: it was still streaming after the reply time limit of ${formatDuration(timeoutMs)}. Raise limits.replyTimeoutMs in settings.json (0 = no limit) if replies this long are expected.`;
}

export function crossOriginRedirectMessage(from: string, to: string, status: number): string {
	return `The provider at ${from} redirected to ${to} (HTTP ${status}); not following it: credentials and the conversation are never sent to another origin. Set the model's baseUrl to the final address if you trust it.`;
}

export function tooManyRedirectsMessage(from: string, count: number): string {
	return `The provider at ${from} redirected more than ${count} times; not following further.`;
}

export function unreplayableRedirectMessage(from: string, status: number): string {
	return `The provider at ${from} redirected the request (HTTP ${status}) but its body cannot be sent again.`;
}
