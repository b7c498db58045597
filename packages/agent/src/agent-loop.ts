import { EventStream, streamSimple, type ToolResultMessage } from "@agent/ai";
import { createFailureAssistantMessage, isEmptyAbortedAssistantMessage, toolCallsOf } from "./agent-messages.js";
import { streamAssistantResponse } from "./stream-assistant-response.js";
import { executeToolCalls } from "./tool-execution.js";
import type { AgentContext, AgentEvent, AgentEventSink, AgentLoopConfig, AgentMessage, StreamFn } from "./types.js";

/** Thrown by `agentLoopContinue` when the context has no messages. */
export const NO_MESSAGES_TO_CONTINUE_TEXT = "Cannot continue: no messages in context";
/** Thrown by `agentLoopContinue` when the last message cannot be continued from (an assistant message). */
export function cannotContinueFromRoleText(role: string): string {
	return `Cannot continue from message role: ${role}`;
}

/**
 * Starts a run with `prompts` appended to a copy of `context`. The stream ends with `agent_end`; its
 * `result()` is the messages the run added (the prompts included).
 */
export function agentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	return streamRun(config, signal, (emit, newMessages) =>
		runLoop(prompts, context, config, emit, signal, streamFn ?? streamSimple, newMessages),
	);
}

/**
 * Resumes from `context` as it is (its last message must be a user message or tool result, or something
 * `convertToLlm` turns into one). Throws synchronously when there is nothing to continue from.
 */
export function agentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	assertCanContinue(context);
	return streamRun(config, signal, (emit, newMessages) =>
		runLoop(undefined, context, config, emit, signal, streamFn ?? streamSimple, newMessages),
	);
}

/** `agentLoop` as a promise; `emit` is awaited for every event. Resolves to the messages the run added. */
export function runAgentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	return runLoop(prompts, context, config, emit, signal, streamFn ?? streamSimple, []);
}

/** `agentLoopContinue` as a promise; rejects when there is nothing to continue from. */
export async function runAgentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	assertCanContinue(context);
	return runLoop(undefined, context, config, emit, signal, streamFn ?? streamSimple, []);
}

function assertCanContinue(context: AgentContext): void {
	const last = context.messages.at(-1);
	if (!last) throw new Error(NO_MESSAGES_TO_CONTINUE_TEXT);
	const role = (last as { role?: unknown }).role;
	if (role === "assistant") throw new Error(cannotContinueFromRoleText(role));
}

/**
 * Feeds a run into an event stream. A hook that throws ends the run outside the normal sequence; the
 * reference then leaves the stream open forever. Ours reports the failure as an error assistant message
 * (message_start, message_end) and ends with `agent_end`, so a consumer never waits on a dead run.
 */
function streamRun(
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	run: (emit: AgentEventSink, newMessages: AgentMessage[]) => Promise<AgentMessage[]>,
): EventStream<AgentEvent, AgentMessage[]> {
	const stream = new EventStream<AgentEvent, AgentMessage[]>(
		(event) => event.type === "agent_end",
		(event) => (event.type === "agent_end" ? event.messages : []),
	);
	const newMessages: AgentMessage[] = [];
	run((event) => stream.push(event), newMessages).catch((error: unknown) => {
		const failure = createFailureAssistantMessage(config.model, error, signal?.aborted === true);
		stream.push({ type: "message_start", message: failure });
		stream.push({ type: "message_end", message: failure });
		stream.push({ type: "agent_end", messages: [...newMessages, failure] });
	});
	return stream;
}

/**
 * The double loop. The inner loop runs turns while the model calls tools or steering
 * messages are pending; the outer loop keeps the run going while follow-up messages arrive. `newMessages`
 * collects what the run adds and is what `agent_end` reports.
 */
async function runLoop(
	prompts: AgentMessage[] | undefined,
	initialContext: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
	streamFn: StreamFn,
	newMessages: AgentMessage[],
): Promise<AgentMessage[]> {
	const context: AgentContext = { ...initialContext, messages: [...initialContext.messages, ...(prompts ?? [])] };
	if (prompts) newMessages.push(...prompts);

	await emit({ type: "agent_start" });
	await emit({ type: "turn_start" });
	for (const prompt of prompts ?? []) {
		await emit({ type: "message_start", message: prompt });
		await emit({ type: "message_end", message: prompt });
	}

	let pending: AgentMessage[] = (await config.getSteeringMessages?.()) ?? [];
	let isFirstTurn = true;
	while (true) {
		let hasMoreToolCalls = true;
		while (hasMoreToolCalls || pending.length > 0) {
			if (!isFirstTurn) await emit({ type: "turn_start" });
			isFirstTurn = false;
			for (const message of pending) {
				await emit({ type: "message_start", message });
				await emit({ type: "message_end", message });
				context.messages.push(message);
				newMessages.push(message);
			}
			pending = [];

			const assistant = await streamAssistantResponse(context, config, signal, emit, streamFn);
			if (isEmptyAbortedAssistantMessage(assistant)) {
				context.messages.splice(context.messages.lastIndexOf(assistant), 1);
			} else {
				newMessages.push(assistant);
			}
			if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
				await emit({ type: "turn_end", message: assistant, toolResults: [] });
				await emit({ type: "agent_end", messages: newMessages });
				return newMessages;
			}

			const toolCalls = toolCallsOf(assistant);
			hasMoreToolCalls = toolCalls.length > 0;
			let toolResults: ToolResultMessage[] = [];
			let steeringFromTools: AgentMessage[] | undefined;
			if (hasMoreToolCalls) {
				const outcome = await executeToolCalls({
					assistantMessage: assistant,
					toolCalls,
					context,
					config,
					signal,
					emit,
				});
				toolResults = outcome.toolResults;
				steeringFromTools = outcome.steeringMessages;
				context.messages.push(...toolResults);
				newMessages.push(...toolResults);
			}
			await emit({ type: "turn_end", message: assistant, toolResults });

			// Ours: an abort that lands after the model call (during tools, or between turns) ends the run
			// here. The reference starts another turn, which fails at once and records an empty aborted
			// message; by then every tool call of this turn has its result, and queued messages stay queued.
			if (signal?.aborted) {
				await emit({ type: "agent_end", messages: newMessages });
				return newMessages;
			}
			pending = steeringFromTools ?? (await config.getSteeringMessages?.()) ?? [];
		}

		const followUps = (await config.getFollowUpMessages?.()) ?? [];
		if (followUps.length === 0) break;
		pending = followUps;
	}

	await emit({ type: "agent_end", messages: newMessages });
	return newMessages;
}
