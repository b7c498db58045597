import {
	type AssistantMessage,
	type Context,
	createAssistantOutput,
	type Model,
	prepareToolValidation,
	type SimpleStreamOptions,
	transformMessages,
} from "@agent/ai";
import { normalizeAssistantMessage } from "./agent-messages.js";
import { needsPairingRepair } from "./replay-check.js";
import type { AgentContext, AgentEventSink, AgentLoopConfig, ModelReplyStream, StreamFn } from "./types.js";

/** errorMessage of a turn whose stream ended without `done`/`error` and without a result. */
export const STREAM_ENDED_WITHOUT_RESULT_TEXT = "The model stream ended without a final message";
const ABORTED_TEXT = "Request was aborted";

/** The call options a stream function receives: the loop config minus the loop's own fields. */
function streamOptionsOf(config: AgentLoopConfig): SimpleStreamOptions {
	const {
		model: _model,
		convertToLlm: _convertToLlm,
		transformContext: _transformContext,
		getApiKey: _getApiKey,
		getSteeringMessages: _getSteeringMessages,
		getFollowUpMessages: _getFollowUpMessages,
		toolExecution: _toolExecution,
		maxParallelToolCalls: _maxParallelToolCalls,
		beforeToolCall: _beforeToolCall,
		afterToolCall: _afterToolCall,
		...options
	} = config;
	return options;
}

/**
 * Builds the provider context for one call: `transformContext` (pruning, injection), then `convertToLlm`
 * (custom messages never reach a provider unless converted), then `transformMessages`.
 *
 * Ours: the reference leaves `transformMessages` to each provider. Applying it here as well, when the
 * history needs it, means every stream function (custom providers, proxies, test fakes) receives a
 * replayable history: failed and aborted turns removed, and every tool call paired with exactly one
 * result. It is idempotent, so built-in providers that apply it again send the same request. The check
 * first keeps the common case (a well-formed history) free of a per-call copy of the whole history.
 */
async function buildLlmContext(context: AgentContext, config: AgentLoopConfig, signal?: AbortSignal): Promise<Context> {
	const messages = config.transformContext
		? await config.transformContext(context.messages, signal)
		: context.messages;
	const converted = await config.convertToLlm(messages);
	const llmMessages = needsPairingRepair(converted) ? transformMessages(converted, config.model) : converted;
	return { systemPrompt: context.systemPrompt, messages: llmMessages, tools: context.tools };
}

/**
 * Streams one assistant reply into `context.messages` and reports it as message_start, message_update*,
 * message_end. Returns the final message. Failures of the model call arrive as a message with stopReason
 * `error`/`aborted`; only failures before the call (hooks, a stream function that throws) are thrown.
 */
export async function streamAssistantResponse(
	context: AgentContext,
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	emit: AgentEventSink,
	streamFn: StreamFn,
): Promise<AssistantMessage> {
	const llmContext = await buildLlmContext(context, config, signal);
	// Resolved before every call, so expiring OAuth tokens are refreshed between turns.
	const apiKey = (config.getApiKey ? await config.getApiKey(config.model.provider) : undefined) || config.apiKey;
	const response = await streamFn(config.model, llmContext, { ...streamOptionsOf(config), apiKey, signal });

	// Index of the streaming partial in context.messages, once the stream has started.
	let partialIndex = -1;
	let lastPartial: AssistantMessage | undefined;
	let sawTerminalEvent = false;
	for await (const event of response) {
		if (event.type === "done" || event.type === "error") {
			sawTerminalEvent = true;
			break;
		}
		lastPartial = event.partial;
		// The argument validator (AJV, if a tool's schema needs it) loads while the model is still writing the
		// call, not once the call is complete.
		if (event.type === "toolcall_start") void prepareToolValidation(context.tools ?? []);
		if (partialIndex < 0) {
			// A stream that skips `start` still gets a message_start before its first update.
			partialIndex = context.messages.push(event.partial) - 1;
			await emit({ type: "message_start", message: { ...event.partial } });
			if (event.type === "start") continue;
		}
		context.messages[partialIndex] = event.partial;
		if (event.type === "start") continue;
		await emit({ type: "message_update", message: { ...event.partial }, assistantMessageEvent: event });
	}

	const result = sawTerminalEvent
		? await response.result()
		: await resultOfUnterminatedStream(response, lastPartial, config.model, signal);
	const final = normalizeAssistantMessage(result);
	if (partialIndex >= 0) {
		context.messages[partialIndex] = final;
	} else {
		context.messages.push(final);
		await emit({ type: "message_start", message: { ...final } });
	}
	await emit({ type: "message_end", message: final });
	return final;
}

/**
 * The result of a stream that ended without `done`/`error`. By the event-stream contract, once iteration
 * has ended `result()` is either already resolved (`end(message)`) or never will be (`end()` alone). The
 * reference awaits it unconditionally and hangs in the second case; ours turns it into a failed turn.
 */
async function resultOfUnterminatedStream(
	response: ModelReplyStream,
	lastPartial: AssistantMessage | undefined,
	model: Model,
	signal: AbortSignal | undefined,
): Promise<AssistantMessage> {
	const notSettled = new Promise<undefined>((resolve) => setImmediate(resolve, undefined));
	const result = await Promise.race([response.result(), notSettled]);
	if (result) return result;
	const base = lastPartial ?? createAssistantOutput(model);
	return {
		...base,
		content: [...base.content],
		stopReason: signal?.aborted ? "aborted" : "error",
		errorMessage: signal?.aborted ? ABORTED_TEXT : STREAM_ENDED_WITHOUT_RESULT_TEXT,
	};
}
