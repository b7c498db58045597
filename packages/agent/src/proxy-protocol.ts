// The wire format between `streamProxy` and a proxy server that calls the provider for the client (keys stay on the
// server). Defined here once; `proxy-stream.ts` and any server written against this package import it.
import type { AssistantMessage, Context, Model, SimpleStreamOptions, StopReason } from "@agent/ai";

/**
 * One event of a reply as the proxy server sends it: a provider's `AssistantMessageEvent` without the `partial`
 * message (the client rebuilds it), so each event costs only its own delta. Sent as server-sent events, each
 * `data:` payload one JSON event.
 */
export type ProxyAssistantMessageEvent =
	| { type: "start" }
	| { type: "text_start"; contentIndex: number }
	| { type: "text_delta"; contentIndex: number; delta: string }
	| { type: "text_end"; contentIndex: number; contentSignature?: string }
	| { type: "thinking_start"; contentIndex: number }
	| { type: "thinking_delta"; contentIndex: number; delta: string }
	| { type: "thinking_end"; contentIndex: number; contentSignature?: string }
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
	| { type: "toolcall_delta"; contentIndex: number; delta: string }
	| { type: "toolcall_end"; contentIndex: number }
	| { type: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse">; usage: AssistantMessage["usage"] }
	| {
			type: "error";
			reason: Extract<StopReason, "aborted" | "error">;
			errorMessage?: string;
			usage: AssistantMessage["usage"];
	  };

/** Options of `streamProxy`: the provider-neutral call options plus where the proxy is and how to sign in to it. */
export interface ProxyStreamOptions extends SimpleStreamOptions {
	/** Sent to the proxy server as `Authorization: Bearer <authToken>`. */
	authToken: string;
	/** The proxy server's origin (e.g. `"https://genai.example.com"`); requests go to `<proxyUrl>/api/stream`. */
	proxyUrl: string;
}

/** The call options that travel to the proxy server: the JSON-safe ones, never a key, a signal or a callback. */
export type ProxyRequestOptions = Pick<
	SimpleStreamOptions,
	| "temperature"
	| "maxTokens"
	| "reasoning"
	| "thinkingBudgets"
	| "cacheRetention"
	| "sessionId"
	| "headers"
	| "maxRetryDelayMs"
	| "metadata"
	| "transport"
>;

/** The body of `POST <proxyUrl>/api/stream`: the model, the context and the call options, as JSON. */
export interface ProxyStreamRequest {
	model: Model;
	context: Context;
	options: ProxyRequestOptions;
}

/** The path, under the proxy's origin, that streams one reply. */
export const PROXY_STREAM_PATH = "/api/stream";
