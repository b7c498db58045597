// Which provider failures are retried, and how long to wait (docs/compaction.md "Automatic retry"). Pure.
import { type AssistantMessage, isContextOverflow } from "@agent/ai";

/** The reference's pattern of transient failures, matched case-insensitively against the error text. */
// Ours: the status codes match as whole numbers. The reference matched `500` anywhere, so a port, a URL or a
// token count that contains it (`127.0.0.1:45004`, `max_tokens: 65000`) made an error that cannot pass retried.
export const RETRYABLE_ERROR_PATTERN =
	/overloaded|rate.?limit|too many requests|\b(?:429|500|502|503|504)\b|service.?unavailable|server.?error|internal.?error|connection.?error|connection.?refused|other side closed|fetch failed|upstream.?connect|reset before headers|terminated|retry delay/i;

/**
 * Ours: failures the reference did not know. The stall watchdog's own error, plain socket resets, and a
 * response stream that ended before the server finished it (the OpenAI adapters' truncated-stream errors).
 */
const ADDITIONAL_RETRYABLE_PATTERN =
	/stream stalled|econnreset|socket hang up|connection reset|response stream ended before/i;

/** The hint provider adapters append to an error when the server sent Retry-After: ` (retry after <N>s)`. */
const RETRY_AFTER_HINT = /\(retry after (\d+(?:\.\d+)?)s\)/gi;

export interface RetrySettingsValues {
	enabled: boolean;
	maxRetries: number;
	baseDelayMs: number;
	/** 0 disables the cap. */
	maxDelayMs: number;
}

/**
 * A failed reply worth retrying: an error (not an abort) with a message that names a transient failure, and
 * not a context overflow (compaction handles those; sending the same context again cannot help).
 */
export function isRetryableError(message: AssistantMessage, contextWindow?: number): boolean {
	if (message.stopReason !== "error" || !message.errorMessage) return false;
	if (isContextOverflow(message, contextWindow)) return false;
	return RETRYABLE_ERROR_PATTERN.test(message.errorMessage) || ADDITIONAL_RETRYABLE_PATTERN.test(message.errorMessage);
}

/** Seconds the server asked to wait, from the last ` (retry after <N>s)` hint; undefined without one. */
export function parseRetryAfterSeconds(errorMessage: string): number | undefined {
	let seconds: number | undefined;
	for (const match of errorMessage.matchAll(RETRY_AFTER_HINT)) seconds = Number(match[1]);
	return seconds !== undefined && Number.isFinite(seconds) ? seconds : undefined;
}

export type RetryDelayPlan = { delayMs: number } | { giveUpNote: string };

/**
 * Ours: why a failure the server asked us to wait out is not retried: ` (the server asked to wait 3600s, longer
 * than retry.maxDelayMs 60s)`. Undefined when the hint is within the cap, there is no hint, or the cap is off.
 */
export function retryCapExceededNote(errorMessage: string, maxDelayMs: number): string | undefined {
	const hintSeconds = parseRetryAfterSeconds(errorMessage);
	if (hintSeconds === undefined || !(maxDelayMs > 0)) return undefined;
	const hintMs = Math.ceil(hintSeconds * 1000);
	if (hintMs <= maxDelayMs) return undefined;
	return ` (the server asked to wait ${formatSeconds(hintMs)}, longer than retry.maxDelayMs ${formatSeconds(maxDelayMs)})`;
}

/** The error text with `retryCapExceededNote` appended once (it may already carry it). */
export function withRetryCapExceededNote(errorMessage: string, maxDelayMs: number): string {
	const note = retryCapExceededNote(errorMessage, maxDelayMs);
	return note === undefined || errorMessage.endsWith(note) ? errorMessage : `${errorMessage}${note}`;
}

/**
 * The wait before retry number `attempt` (1-based): `baseDelayMs·2^(attempt−1)`, or the server's hint when
 * that is longer, capped by `maxDelayMs`. A hint beyond the cap means giving up: waiting less than the server
 * asked would only fail again, and waiting longer than the user allowed is not our call.
 */
export function planRetryDelay(attempt: number, errorMessage: string, settings: RetrySettingsValues): RetryDelayPlan {
	const giveUpNote = retryCapExceededNote(errorMessage, settings.maxDelayMs);
	if (giveUpNote !== undefined) return { giveUpNote };
	const backoffMs = settings.baseDelayMs * 2 ** (attempt - 1);
	const hintSeconds = parseRetryAfterSeconds(errorMessage);
	const hintMs = hintSeconds === undefined ? 0 : Math.ceil(hintSeconds * 1000);
	const delayMs = Math.max(backoffMs, hintMs);
	return { delayMs: settings.maxDelayMs > 0 ? Math.min(delayMs, settings.maxDelayMs) : delayMs };
}

function formatSeconds(ms: number): string {
	return `${Number((ms / 1000).toFixed(1))}s`;
}
