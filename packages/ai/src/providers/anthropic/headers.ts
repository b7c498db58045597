import type { Message, Model } from "../../types.js";
import { isOAuthToken } from "./claude-code.js";
import { isAdaptiveThinkingModel } from "./thinking.js";

/**
 * The Messages API version we speak. The SDK (1.x) would send 2026-10-21, a breaking revision whose
 * request shape differs from the protocol the API documentation (and every Anthropic-compatible server: proxies,
 * MiniMax, Kimi, Copilot) is built on — it has no sampling parameters, for one. We pin the long-stable
 * version so every field we build means what that documentation says; a caller may still override the header.
 */
export const ANTHROPIC_API_VERSION = "2023-06-01";

export const FINE_GRAINED_TOOL_STREAMING_BETA = "fine-grained-tool-streaming-2025-05-14";
export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";
const OAUTH_BETAS = ["claude-code-20250219", "oauth-2025-04-20"];
export const CLAUDE_CODE_USER_AGENT = "claude-cli/2.1.75";

/**
 * How the credential is sent: an API key in `x-api-key`; an OAuth token (Claude subscription) or a
 * GitHub Copilot token as a Bearer token.
 */
export type AnthropicAuthMode = "api-key" | "oauth" | "copilot";

export interface AnthropicAuth {
	mode: AnthropicAuthMode;
	token: string;
}

export function resolveAuth(model: Model, key: string): AnthropicAuth {
	if (model.provider === "github-copilot") return { mode: "copilot", token: key };
	return { mode: isOAuthToken(key) ? "oauth" : "api-key", token: key };
}

/** `null` removes a header the SDK would add by itself. */
export type HeaderMap = Record<string, string | null>;

/** Later sources win; names compare case-insensitively, and the last spelling is kept. */
export function mergeHeaders(...sources: (Record<string, string | null> | undefined)[]): HeaderMap {
	const merged = new Map<string, [string, string | null]>();
	for (const source of sources) {
		for (const [name, value] of Object.entries(source ?? {})) merged.set(name.toLowerCase(), [name, value]);
	}
	return Object.fromEntries(merged.values());
}

function hasImage(message: Message): boolean {
	if (message.role === "assistant" || typeof message.content === "string") return false;
	return message.content.some((block) => block.type === "image");
}

/** Per-request headers Copilot uses to attribute and route the call. */
export function copilotDynamicHeaders(messages: Message[]): Record<string, string> {
	const headers: Record<string, string> = {
		"X-Initiator": messages.at(-1)?.role === "user" ? "user" : "agent",
		"Openai-Intent": "conversation-edits",
	};
	if (messages.some(hasImage)) headers["Copilot-Vision-Request"] = "true";
	return headers;
}

export interface HeaderInputs {
	model: Model;
	auth: AnthropicAuth;
	messages: Message[];
	/** Default true; never sent for adaptive-thinking models, which interleave on their own. */
	interleavedThinking?: boolean;
	optionHeaders?: Record<string, string>;
}

function betasFor(auth: AnthropicAuth, needsInterleaved: boolean): string[] {
	const interleaved = needsInterleaved ? [INTERLEAVED_THINKING_BETA] : [];
	// Copilot's Anthropic endpoint rejects fine-grained tool streaming.
	if (auth.mode === "copilot") return interleaved;
	const base = [FINE_GRAINED_TOOL_STREAMING_BETA, ...interleaved];
	return auth.mode === "oauth" ? [...OAUTH_BETAS, ...base] : base;
}

function authHeaders(auth: AnthropicAuth): HeaderMap {
	switch (auth.mode) {
		case "api-key":
			// The SDK sends an API key as a Bearer token; the API (and every Anthropic-compatible proxy)
			// takes it in `x-api-key`, so that is where it goes and the Bearer header is removed.
			return { "x-api-key": auth.token, authorization: null };
		case "oauth":
			return { "x-api-key": null, "user-agent": CLAUDE_CODE_USER_AGENT, "x-app": "cli" };
		case "copilot":
			return { "x-api-key": null };
	}
}

/** Merge order: defaults, then `model.headers`, then dynamic headers, then `options.headers`. */
export function buildAnthropicHeaders(inputs: HeaderInputs): HeaderMap {
	const { model, auth } = inputs;
	const needsInterleaved = (inputs.interleavedThinking ?? true) && !isAdaptiveThinkingModel(model);
	const betas = betasFor(auth, needsInterleaved);
	const defaults: HeaderMap = {
		accept: "application/json",
		"anthropic-version": ANTHROPIC_API_VERSION,
		"anthropic-dangerous-direct-browser-access": "true",
		...(betas.length > 0 ? { "anthropic-beta": betas.join(",") } : {}),
		...authHeaders(auth),
	};
	const dynamic = auth.mode === "copilot" ? copilotDynamicHeaders(inputs.messages) : undefined;
	return mergeHeaders(defaults, model.headers, dynamic, inputs.optionHeaders);
}

/** A header's value from a map built by `mergeHeaders`, looked up case-insensitively. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
	const lower = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === lower) return value ?? undefined;
	}
	return undefined;
}
