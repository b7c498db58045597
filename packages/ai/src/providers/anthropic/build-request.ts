import type { MessageCreateParamsStreaming, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { AnthropicOptions, Context, Model } from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { resolveCacheRetention } from "../simple-options.js";
import { cacheControlFor, markLastUserMessage } from "./cache-control.js";
import { CLAUDE_CODE_IDENTITY, toClaudeCodeToolName } from "./claude-code.js";
import { convertMessages } from "./convert-messages.js";
import { convertToolChoice, convertTools } from "./convert-tools.js";
import { ANTHROPIC_API_VERSION, type AnthropicAuth } from "./headers.js";
import { isAdaptiveThinkingModel } from "./thinking.js";

/** Budget sent when thinking is enabled without one (the API's minimum). */
export const DEFAULT_THINKING_BUDGET = 1024;

/** The tool-name mapping for this auth mode (OAuth speaks Claude Code's names). */
export function wireToolNameFor(auth: AnthropicAuth): (name: string) => string {
	return auth.mode === "oauth" ? toClaudeCodeToolName : (name) => name;
}

/**
 * Whether `temperature` may be sent: always, unless a caller pinned a newer API version for
 * Anthropic's own API (2026-10-21 rejects sampling parameters with a 400, even 1.0).
 */
export function acceptsTemperature(baseUrl: string, apiVersion: string | undefined): boolean {
	if (!baseUrl.includes("api.anthropic.com")) return true;
	return (apiVersion ?? ANTHROPIC_API_VERSION) === ANTHROPIC_API_VERSION;
}

/** True when this request carries a thinking configuration. */
export function isThinkingRequested(model: Model, options: AnthropicOptions | undefined): boolean {
	return !!options?.thinkingEnabled && model.reasoning;
}

/**
 * The Messages API request body, before `onPayload`. With `reuseConversions` its wire messages are shared with
 * other requests (convert-messages.ts), so the caller must not change them: only without an `onPayload` hook.
 */
export function buildRequestParams(
	model: Model,
	context: Context,
	options: AnthropicOptions | undefined,
	auth: AnthropicAuth,
	apiVersion?: string,
	{ reuseConversions = false }: { reuseConversions?: boolean } = {},
): MessageCreateParamsStreaming {
	const toWireToolName = wireToolNameFor(auth);
	const cacheControl = cacheControlFor(resolveCacheRetention(options?.cacheRetention), model.baseUrl);
	// What shapes a message besides itself: whether images are sent, and Claude Code's tool names under OAuth.
	const reuseKey = reuseConversions ? `${model.input.includes("image")}:${auth.mode === "oauth"}` : undefined;
	const messages = convertMessages(context.messages, model, toWireToolName, { reuseKey });
	if (cacheControl) markLastUserMessage(messages, cacheControl);

	const params: MessageCreateParamsStreaming = {
		model: model.id,
		messages,
		max_tokens: options?.maxTokens || Math.floor(model.maxTokens / 3),
		stream: true,
	};

	const systemTexts = auth.mode === "oauth" ? [CLAUDE_CODE_IDENTITY] : [];
	if (context.systemPrompt) systemTexts.push(sanitizeSurrogates(context.systemPrompt));
	if (systemTexts.length > 0) {
		params.system = systemTexts.map(
			(text): TextBlockParam =>
				cacheControl ? { type: "text", text, cache_control: cacheControl } : { type: "text", text },
		);
	}

	const thinking = isThinkingRequested(model, options);
	// The API rejects a temperature other than 1 while thinking. The reference also withholds it when
	// thinking is asked of a model that cannot think (and so is not sent); ours sends it then.
	if (options?.temperature !== undefined && !thinking && acceptsTemperature(model.baseUrl, apiVersion)) {
		// The SDK's types follow API version 2026-10-21, which has no sampling parameters.
		(params as MessageCreateParamsStreaming & { temperature?: number }).temperature = options.temperature;
	}

	if (context.tools && context.tools.length > 0) params.tools = convertTools(context.tools, toWireToolName);

	if (thinking) {
		if (isAdaptiveThinkingModel(model)) {
			params.thinking = { type: "adaptive" };
			if (options?.effort) params.output_config = { effort: options.effort };
		} else {
			params.thinking = { type: "enabled", budget_tokens: options?.thinkingBudgetTokens || DEFAULT_THINKING_BUDGET };
		}
	}

	const userId = options?.metadata?.user_id;
	if (typeof userId === "string") params.metadata = { user_id: userId };

	if (options?.toolChoice) params.tool_choice = convertToolChoice(options.toolChoice, toWireToolName);
	return params;
}
