import Anthropic from "@anthropic-ai/sdk";
import type { Model } from "../../types.js";
import type { Fetch } from "../reply-guard.js";
import type { AnthropicAuth, HeaderMap } from "./headers.js";

/**
 * One client per request, pointed at `model.baseUrl`.
 * - `maxRetries: 0`: retrying is the coding agent's job (it reports each attempt to the user); a hidden SDK
 *   retry would delay the failure and double-count attempts. (The reference keeps the SDK's default of 2.)
 * - The credential is always passed explicitly, so the SDK never falls back to its own environment
 *   variables or credential files.
 * - `logLevel: "off"`: the SDK would otherwise log to the console, which corrupts a terminal UI; every
 *   failure reaches the caller as an `error` event instead.
 * - `fetch`: the reply's guarded fetch (reply-guard.ts), which refuses cross-origin redirects and enforces the
 *   reply limits.
 */
export function createAnthropicClient(model: Model, auth: AnthropicAuth, headers: HeaderMap, fetch: Fetch): Anthropic {
	return new Anthropic({
		...(auth.mode === "api-key" ? { apiKey: auth.token } : { authToken: auth.token }),
		baseURL: model.baseUrl || undefined,
		maxRetries: 0,
		dangerouslyAllowBrowser: true,
		defaultHeaders: headers,
		logLevel: "off",
		fetch,
	});
}
