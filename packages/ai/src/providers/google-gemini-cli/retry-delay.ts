import { retryAfterSeconds } from "../error-text.js";

type HeaderSource = Response | Headers;

function headersOf(source: HeaderSource | undefined): Headers | undefined {
	if (!source) return undefined;
	return source instanceof Headers ? source : source.headers;
}

/** Seconds from `x-ratelimit-reset`: an epoch time in seconds when it looks like one, else seconds to wait. */
function resetHeaderSeconds(headers: Headers, now: number): number | undefined {
	const after = Number(headers.get("x-ratelimit-reset-after"));
	if (headers.get("x-ratelimit-reset-after") !== null && Number.isFinite(after) && after > 0) return after;
	const reset = Number(headers.get("x-ratelimit-reset"));
	if (headers.get("x-ratelimit-reset") === null || !Number.isFinite(reset) || reset <= 0) return undefined;
	if (reset < 1e9) return reset;
	const wait = reset - now / 1000;
	return wait > 0 ? wait : undefined;
}

/** `18h31m10s`, `5m`, `39s`, `1.5s` → seconds; undefined when nothing matches. */
function durationSeconds(hours?: string, minutes?: string, seconds?: string): number | undefined {
	if (hours === undefined && minutes === undefined && seconds === undefined) return undefined;
	return Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0);
}

function bodySeconds(text: string): number | undefined {
	const reset = /reset after (?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?/i.exec(text);
	const fromReset = reset ? durationSeconds(reset[1], reset[2], reset[3]) : undefined;
	if (fromReset !== undefined) return fromReset;
	const retryIn = /retry in (\d+(?:\.\d+)?)\s*(ms|s)\b/i.exec(text);
	if (retryIn) return Number(retryIn[1]) / (retryIn[2]?.toLowerCase() === "ms" ? 1000 : 1);
	const field = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(text);
	return field ? Number(field[1]) : undefined;
}

/**
 * How long Google asked us to wait before retrying, in milliseconds (rounded up), or undefined without a hint. The
 * response's headers come first (`retry-after`, `x-ratelimit-reset-after`, `x-ratelimit-reset`), then the error
 * text: "Your quota will reset after 18h31m10s", "Please retry in 250ms", a RetryInfo `"retryDelay": "34.07s"`.
 */
export function extractRetryDelay(errorText: string, response?: Response | Headers): number | undefined {
	const now = Date.now();
	const headers = headersOf(response);
	const seconds =
		(headers && (retryAfterSeconds(headers, now) ?? resetHeaderSeconds(headers, now))) ?? bodySeconds(errorText);
	return seconds !== undefined && seconds > 0 ? Math.ceil(seconds * 1000) : undefined;
}
