import type { CacheControlEphemeral, ContentBlockParam, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { CacheRetention } from "../../types.js";

/**
 * The prompt-cache marker for a retention: none for `none`; otherwise ephemeral, with the 1-hour TTL
 * only for `long` on Anthropic's own API (proxies reject or ignore `ttl`).
 */
export function cacheControlFor(retention: CacheRetention, baseUrl: string): CacheControlEphemeral | undefined {
	if (retention === "none") return undefined;
	if (retention === "long" && baseUrl.includes("api.anthropic.com")) return { type: "ephemeral", ttl: "1h" };
	return { type: "ephemeral" };
}

type CacheableBlock = ContentBlockParam & { cache_control?: CacheControlEphemeral | null };

/**
 * Marks the last block of the last message when that message is the user's (a text, image or
 * tool_result block), so the whole history up to it is cached. A string content becomes one text block. The
 * marked message and block are copies: the wire messages may be shared with other requests.
 */
export function markLastUserMessage(messages: MessageParam[], cacheControl: CacheControlEphemeral): void {
	const last = messages.at(-1);
	if (last?.role !== "user") return;
	const content: ContentBlockParam[] =
		typeof last.content === "string" ? [{ type: "text", text: last.content }] : [...last.content];
	const block = content.at(-1) as CacheableBlock | undefined;
	if (!block) return;
	content[content.length - 1] = { ...block, cache_control: cacheControl } as CacheableBlock;
	messages[messages.length - 1] = { ...last, content };
}
