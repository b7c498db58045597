/**
 * Pieces of provider error text shared by the adapters. The text is what callers classify
 * (retryable, fatal, overflow), so it keeps the status, the provider's words and the causes.
 */

const MAX_CAUSE_DEPTH = 5;

/** The message followed by the messages of its causes, e.g. `terminated (other side closed)`. */
export function messageWithCauses(error: Error): string {
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

interface HeaderLookup {
	get(name: string): string | null;
}

function headerOf(headers: unknown, name: string): string | undefined {
	if (!headers || typeof headers !== "object") return undefined;
	if (typeof (headers as HeaderLookup).get === "function") return (headers as HeaderLookup).get(name) ?? undefined;
	const value = (headers as Record<string, unknown>)[name];
	return typeof value === "string" ? value : undefined;
}

/**
 * Seconds the server asked us to wait, from `retry-after-ms` (OpenAI), `retry-after` (seconds or an
 * HTTP date), or undefined when there is no usable hint.
 */
export function retryAfterSeconds(headers: unknown, now: number = Date.now()): number | undefined {
	const ms = Number(headerOf(headers, "retry-after-ms"));
	if (Number.isFinite(ms) && ms > 0) return ms / 1000;
	const value = headerOf(headers, "retry-after")?.trim();
	if (!value) return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return seconds > 0 ? seconds : undefined;
	const date = Date.parse(value);
	return Number.isNaN(date) || date <= now ? undefined : (date - now) / 1000;
}

/**
 * The hint appended to an error's text so the session's auto-retry can honour it without provider
 * knowledge: ` (retry after <N>s)`, whole seconds rounded up. Empty when there is no hint.
 */
export function retryAfterSuffix(seconds: number | undefined): string {
	return seconds === undefined ? "" : ` (retry after ${Math.ceil(seconds)}s)`;
}
