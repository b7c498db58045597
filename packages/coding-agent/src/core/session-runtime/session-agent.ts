// The Agent an AgentSession drives: messages converted the coding agent's way, and every model call going
// through the session's stream function, key lookup and extension hooks.
import { Agent, type AgentMessage, type StreamFn } from "@agent/agent-core";
import type { Model, StreamOptions } from "@agent/ai";
import type { ModelRegistry } from "../config/model-registry.js";
import type { SettingsManager } from "../config/settings-manager.js";
import type { ExtensionHooks } from "../extensions/hooks.js";
import { convertToLlm } from "../messages.js";

export interface SessionAgentOptions {
	sessionId: string;
	settingsManager: SettingsManager;
	modelRegistry: ModelRegistry;
	hooks: ExtensionHooks;
	streamFn: StreamFn;
	/** The model the session starts with, if any (otherwise the Agent starts with its own default). */
	model: Model | undefined;
	/** The `context` extension hook (runs before every model call). */
	transformContext: (messages: AgentMessage[]) => Promise<AgentMessage[]>;
}

export function createSessionAgent(options: SessionAgentOptions): Agent {
	const { settingsManager: settings, modelRegistry, hooks } = options;
	const limits = settings.getLimits();
	const onPayload: NonNullable<StreamOptions["onPayload"]> = (payload, model) =>
		hooks.hasHandlers("before_provider_request") ? hooks.emitBeforeProviderRequest(payload, model) : undefined;
	return new Agent({
		...(options.model ? { initialState: { model: options.model } } : {}),
		convertToLlm: (messages) => convertToLlm(messages, { blockImages: settings.getBlockImages() }),
		transformContext: options.transformContext,
		// The session's own payload hook reaches the provider only while a `before_provider_request` handler listens:
		// without `onPayload` a provider may reuse each message's conversion from the previous request (with one it
		// cannot, as the hook may change the payload in place).
		streamFn: (model, context, streamOptions) =>
			options.streamFn(
				model,
				context,
				streamOptions?.onPayload === onPayload && !hooks.hasHandlers("before_provider_request")
					? { ...streamOptions, onPayload: undefined }
					: streamOptions,
			),
		sessionId: options.sessionId,
		// Asked before every call, so expiring OAuth tokens are refreshed between turns.
		getApiKey: (provider) => modelRegistry.getApiKeyForProvider(provider),
		onPayload,
		steeringMode: settings.getSteeringMode(),
		followUpMode: settings.getFollowUpMode(),
		thinkingBudgets: settings.getThinkingBudgets(),
		transport: settings.getTransport(),
		maxRetryDelayMs: settings.getRetrySettings().maxDelayMs,
		maxParallelToolCalls: limits.parallelToolCalls,
		maxReplyBytes: limits.replyMaxBytes,
		replyTimeoutMs: limits.replyTimeoutMs,
	});
}
