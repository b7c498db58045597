// The bounds on a provider's reply, apart from the guard that applies them (reply-guard.ts): the package exports
// the defaults, and importing it should not load the HTTP client the guard is built on.
import type { StreamOptions } from "../types.js";

const MIB = 1024 * 1024;

/** Default `StreamOptions.maxReplyBytes`: far above any real reply, low enough that a runaway one cannot exhaust memory. */
export const DEFAULT_MAX_REPLY_BYTES = 64 * MIB;
/** Default `StreamOptions.replyTimeoutMs`. */
export const DEFAULT_REPLY_TIMEOUT_MS = 30 * 60 * 1000;

export interface ReplyLimits {
	/** 0 = no limit. */
	maxReplyBytes: number;
	/** 0 = no limit. */
	replyTimeoutMs: number;
}

export function replyLimitsOf(options: StreamOptions | undefined): ReplyLimits {
	return {
		maxReplyBytes: options?.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
		replyTimeoutMs: options?.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS,
	};
}
