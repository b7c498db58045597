// The Agent an AgentSession drives: messages converted the coding agent's way, and every model call going
// through the session's stream function, key lookup and extension hooks.
import { Agent, type AgentMessage, type StreamFn } from "@agent/agent-core";
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
	/** The `context` extension hook (runs before every model call). */
	transformContext: (messages: AgentMessage[]) => Promise<AgentMessage[]>;
}

export function createSessionAgent(options: SessionAgentOptions): Agent {
	const { settingsManager: settings, modelRegistry, hooks } = options;
	const limits = settings.getLimits();
	return new Agent({
		convertToLlm: (messages) => convertToLlm(messages, { blockImages: settings.getBlockImages() }),
		transformContext: options.transformContext,
		streamFn: options.streamFn,
		sessionId: options.sessionId,
		// Asked before every call, so expiring OAuth tokens are refreshed between turns.
		getApiKey: (provider) => modelRegistry.getApiKeyForProvider(provider),
		onPayload: (payload, model) =>
			hooks.hasHandlers("before_provider_request") ? hooks.emitBeforeProviderRequest(payload, model) : undefined,
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
