// Agent events on their way to extensions, the session file and the session's listeners, in that order,
// through one serialized queue (docs/extensions.md "Events"; docs/session-format.md "Writing"). Also
// the tool hooks that must see the queue drained, and the follow-on work a run leaves behind (retry,
// compaction) that a prompt waits for.
import {
	type AfterToolCallContext,
	type AfterToolCallResult,
	type Agent,
	type AgentEvent,
	type AgentMessage,
	type BeforeToolCallContext,
	type BeforeToolCallResult,
	isEmptyAbortedAssistantMessage,
} from "@agent/agent-core";
import type { AssistantMessage } from "@agent/ai";
import type { ExtensionHooks, ExtensionNotification } from "../extensions/hooks.js";
import type { SessionManager } from "../session/session-manager.js";
import type { AgentSessionEvent, AgentSessionEventListener } from "./events.js";
import { userMessageText } from "./prompt-input.js";

/** Pause before the agent continues on its own (after compaction), so UIs can show what happened first. */
export const AUTO_CONTINUE_DELAY_MS = 100;

export interface EventPipelineHost {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly hooks: ExtensionHooks;
	/** A queued message reached the model (a user message_start with that text). */
	onQueuedTextDelivered(text: string): void;
	onUserMessageStart(): void;
	onAssistantMessageEnd(message: AssistantMessage): void;
	/** Decides what follows a run (retry, compaction); the returned work is awaited by `settle()`. */
	afterRun(lastAssistant: AssistantMessage | undefined): Promise<void> | undefined;
	/** Ours: a message is about to be appended (file checkpoints write the changes it reports first). */
	beforeRecordMessage?(message: AgentMessage): void;
}

function lastAssistantOf(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as AgentMessage;
		if (message.role === "assistant") return message;
	}
	return undefined;
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

export class SessionEventPipeline {
	private readonly listeners = new Set<AgentSessionEventListener>();
	private queue: Promise<void> = Promise.resolve();
	private readonly followOns = new Set<Promise<void>>();
	private followOnSuppressed = 0;
	private turnIndex = 0;
	/** Bumped by an abort: a continuation scheduled before it does not start. */
	private abortGeneration = 0;
	private readonly unsubscribeAgent: () => void;

	constructor(private readonly host: EventPipelineHost) {
		this.unsubscribeAgent = host.agent.subscribe((event) => this.onAgentEvent(event));
	}

	subscribe(listener: AgentSessionEventListener): () => void {
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	}

	/** True while a run's follow-on work (retry, compaction, the continuation after it) is pending. */
	get hasFollowOnWork(): boolean {
		return this.followOns.size > 0;
	}

	/** Sends a session event straight to the listeners. */
	emit(event: AgentSessionEvent): void {
		for (const listener of this.listeners) {
			try {
				listener(event);
			} catch (error) {
				// A failing listener (a mode's renderer) must not break the session or the other listeners.
				console.error(`AgentSession listener failed on ${event.type}:`, error);
			}
		}
	}

	/** Resolves once every agent event queued so far has been processed. */
	async drain(): Promise<void> {
		let current: Promise<void>;
		do {
			current = this.queue;
			await current;
		} while (current !== this.queue);
	}

	/** Resolves when the events are drained and no follow-on work is left (it may chain further work). */
	async settle(): Promise<void> {
		await this.drain();
		while (this.followOns.size > 0) {
			await Promise.all([...this.followOns]);
			await this.drain();
		}
	}

	/**
	 * Runs `action` (stopping a run for `/compact`, a session switch, tree navigation) with the run's events
	 * recorded and forwarded as usual, but without the follow-on work of its end: no retry, no compaction.
	 * Ours differs: the reference detached the session from the agent meanwhile, so the stopped run's
	 * `agent_end` never reached clients (an RPC client waiting for it hung) and its last messages (the
	 * aborted tool results) were never written.
	 */
	async withoutFollowOnWork(action: () => Promise<void>): Promise<void> {
		this.followOnSuppressed++;
		try {
			await action();
		} finally {
			this.followOnSuppressed--;
		}
	}

	/** The user aborted: automatic continuations that are waiting to start are dropped. */
	cancelPendingResume(): void {
		this.abortGeneration++;
	}

	/** After a short pause, continues the agent from its context; delivers queued messages. */
	async resumeAgent(): Promise<void> {
		const generation = this.abortGeneration;
		await new Promise((resolve) => setTimeout(resolve, AUTO_CONTINUE_DELAY_MS));
		const agent = this.host.agent;
		if (agent.state.isStreaming || generation !== this.abortGeneration) return;
		try {
			await agent.continue();
		} catch {
			// Nothing to continue from (the context was reset meanwhile): there is no run to resume.
			return;
		}
		await this.drain();
	}

	/** The agent's beforeToolCall: `tool_call` handlers, after the session recorded the calling message. */
	async beforeToolCall(context: BeforeToolCallContext): Promise<BeforeToolCallResult | undefined> {
		const { hooks } = this.host;
		if (!hooks.hasHandlers("tool_call")) return undefined;
		await this.drain();
		try {
			const result = await hooks.emitToolCall({
				toolCallId: context.toolCall.id,
				toolName: context.toolCall.name,
				input: context.args as Record<string, unknown>,
			});
			if (result?.block) return { block: true, ...(result.reason !== undefined ? { reason: result.reason } : {}) };
			return undefined;
		} catch (error) {
			// Fail-safe (docs/extensions.md "Errors"): a handler that throws blocks the call.
			return {
				block: true,
				reason: error instanceof Error ? error.message : `Extension failed, blocking execution: ${String(error)}`,
			};
		}
	}

	/**
	 * The agent's afterToolCall: `tool_result` handlers chain a patch, of which only `content` and `details`
	 * are applied, and only to results that did not fail.
	 */
	async afterToolCall(context: AfterToolCallContext): Promise<AfterToolCallResult | undefined> {
		const { hooks } = this.host;
		if (!hooks.hasHandlers("tool_result")) return undefined;
		const patch = await hooks.emitToolResult({
			toolCallId: context.toolCall.id,
			toolName: context.toolCall.name,
			input: context.args as Record<string, unknown>,
			content: context.result.content,
			details: context.isError ? undefined : context.result.details,
			isError: context.isError,
		});
		if (!patch || context.isError) return undefined;
		const applied: AfterToolCallResult = {};
		if (patch.content !== undefined) applied.content = patch.content;
		if (patch.details !== undefined) applied.details = patch.details;
		return applied.content !== undefined || applied.details !== undefined ? applied : undefined;
	}

	dispose(): void {
		this.unsubscribeAgent();
		this.listeners.clear();
	}

	private onAgentEvent(event: AgentEvent): void {
		this.queue = this.queue.then(
			() => this.process(event),
			() => this.process(event),
		);
		if (event.type === "agent_end" && this.followOnSuppressed === 0) {
			// Registered now, synchronously, so a prompt that awaits the run also awaits its retry or compaction.
			const lastAssistant = lastAssistantOf(event.messages);
			this.track(this.drain().then(() => this.host.afterRun(lastAssistant)));
		}
	}

	private track(work: Promise<void> | undefined): void {
		if (!work) return;
		const tracked = work.then(
			() => {},
			(error: unknown) => {
				this.emit({
					type: "extension_error",
					extensionPath: "<runtime>",
					event: "after_run",
					error: describe(error),
				});
			},
		);
		this.followOns.add(tracked);
		void tracked.finally(() => this.followOns.delete(tracked));
	}

	private async process(event: AgentEvent): Promise<void> {
		try {
			await this.forwardToExtensions(event);
		} catch {
			// Runners report handler failures themselves; a failing runner must not stop the session.
		}
		this.record(event);
		this.emit(event);
		if (event.type === "message_end" && event.message.role === "assistant") {
			this.host.onAssistantMessageEnd(event.message);
		}
	}

	private async forwardToExtensions(event: AgentEvent): Promise<void> {
		const { hooks } = this.host;
		let notification: ExtensionNotification;
		switch (event.type) {
			case "agent_start":
				this.turnIndex = 0;
				notification = event;
				break;
			case "turn_start":
				notification = { type: "turn_start", turnIndex: this.turnIndex, timestamp: Date.now() };
				break;
			case "turn_end":
				notification = {
					type: "turn_end",
					turnIndex: this.turnIndex,
					message: event.message,
					toolResults: event.toolResults,
				};
				this.turnIndex++;
				break;
			default:
				notification = event;
		}
		if (hooks.hasHandlers(notification.type)) await hooks.emit(notification);
	}

	/** Persists finished messages (docs/session-format.md "Writing") and keeps the queue display in step. */
	private record(event: AgentEvent): void {
		const { sessionManager } = this.host;
		if (event.type === "message_start" && event.message.role === "user") {
			this.host.onUserMessageStart();
			this.host.onQueuedTextDelivered(userMessageText(event.message.content));
			return;
		}
		if (event.type !== "message_end") return;
		const message = event.message;
		switch (message.role) {
			case "user":
			case "toolResult":
			case "bashExecution":
				this.host.beforeRecordMessage?.(message);
				sessionManager.appendMessage(message);
				break;
			case "assistant":
				// The agent drops replies aborted before producing anything; so does the file.
				if (!isEmptyAbortedAssistantMessage(message)) sessionManager.appendMessage(message);
				break;
			case "custom":
				sessionManager.appendCustomMessageEntry(
					message.customType,
					message.content,
					message.display,
					message.details,
				);
				break;
		}
	}
}
