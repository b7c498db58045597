import {
	getModel,
	type ImageContent,
	type Model,
	type SimpleStreamOptions,
	streamSimple,
	type ThinkingBudgets,
	type ToolResultMessage,
	type Transport,
} from "@agent/ai";
import { cannotContinueFromRoleText, runAgentLoop, runAgentLoopContinue } from "./agent-loop.js";
import {
	createFailureAssistantMessage,
	defaultConvertToLlm,
	isAssistantMessage,
	isEmptyAbortedAssistantMessage,
	toolCallsOf,
} from "./agent-messages.js";
import { MessageQueue } from "./message-queue.js";
import { createToolResultMessage, INTERRUPTED_TOOL_CALL_TEXT, textResult } from "./tool-result.js";
import type {
	AgentContext,
	AgentEvent,
	AgentLoopConfig,
	AgentMessage,
	AgentOptions,
	AgentState,
	AgentTool,
	QueueMode,
	StreamFn,
	ThinkingLevel,
	ToolExecutionMode,
} from "./types.js";

/** Error of `prompt()` while a run is active. */
export const PROMPT_WHILE_RUNNING_TEXT =
	"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.";
/** Error of `continue()` while a run is active. */
export const CONTINUE_WHILE_RUNNING_TEXT = "Agent is already processing. Wait for completion before continuing.";
/** Error of `prompt()`/`continue()` without a model. */
export const NO_MODEL_TEXT = "No model configured";
/** Error of `continue()` on an empty conversation. */
export const NO_MESSAGES_TO_CONTINUE_FROM_TEXT = "No messages to continue from";

const DEFAULT_MODEL_PROVIDER = "google";
const DEFAULT_MODEL_ID = "gemini-2.5-flash-lite-preview-06-17";

/**
 * Receives every loop event, synchronously, after the Agent's state reflects it. Must not throw: an exception
 * ends the run as failed (a synthetic error message, then agent_end).
 */
export type AgentListener = (event: AgentEvent) => void;

/**
 * Stateful wrapper around the agent loop: holds the conversation and settings, runs one prompt at a time,
 * queues steering and follow-up messages for the running loop, and reports every loop event to its
 * subscribers after updating its state from it.
 */
export class Agent {
	private readonly agentState: AgentState;
	private readonly listeners = new Set<AgentListener>();
	private readonly steeringQueue: MessageQueue;
	private readonly followUpQueue: MessageQueue;
	private abortController: AbortController | undefined;
	private runningPrompt: Promise<void> | undefined;
	private skipInitialSteeringPoll = false;

	convertToLlm: NonNullable<AgentOptions["convertToLlm"]>;
	transformContext: AgentOptions["transformContext"];
	streamFn: StreamFn;
	getApiKey: AgentOptions["getApiKey"];
	onPayload: AgentOptions["onPayload"];
	sessionId: string | undefined;
	thinkingBudgets: ThinkingBudgets | undefined;
	maxRetryDelayMs: number | undefined;
	/** Read at the start of each run, like the fields above. */
	maxParallelToolCalls: number | undefined;
	maxReplyBytes: number | undefined;
	replyTimeoutMs: number | undefined;
	private currentTransport: Transport;
	private currentToolExecution: ToolExecutionMode;
	private beforeToolCall: AgentOptions["beforeToolCall"];
	private afterToolCall: AgentOptions["afterToolCall"];

	constructor(options: AgentOptions = {}) {
		this.agentState = {
			systemPrompt: "",
			// The catalog may not carry the reference's default; prompt() then reports "No model configured". Read
			// only when no model is given: the catalog parses a provider's models when they are first read.
			model: options.initialState?.model ?? (getModel(DEFAULT_MODEL_PROVIDER, DEFAULT_MODEL_ID) as Model),
			thinkingLevel: "off",
			tools: [],
			messages: [],
			isStreaming: false,
			streamMessage: null,
			pendingToolCalls: new Set(),
			...options.initialState,
		};
		this.convertToLlm = options.convertToLlm ?? defaultConvertToLlm;
		this.transformContext = options.transformContext;
		this.steeringQueue = new MessageQueue(options.steeringMode ?? "one-at-a-time");
		this.followUpQueue = new MessageQueue(options.followUpMode ?? "one-at-a-time");
		this.streamFn = options.streamFn ?? streamSimple;
		this.sessionId = options.sessionId;
		this.getApiKey = options.getApiKey;
		this.onPayload = options.onPayload;
		this.thinkingBudgets = options.thinkingBudgets;
		this.currentTransport = options.transport ?? "sse";
		this.maxRetryDelayMs = options.maxRetryDelayMs;
		this.currentToolExecution = options.toolExecution ?? "parallel";
		this.maxParallelToolCalls = options.maxParallelToolCalls;
		this.maxReplyBytes = options.maxReplyBytes;
		this.replyTimeoutMs = options.replyTimeoutMs;
		this.beforeToolCall = options.beforeToolCall;
		this.afterToolCall = options.afterToolCall;
	}

	/** The live state (not a copy). */
	get state(): AgentState {
		return this.agentState;
	}

	/** Listeners run synchronously, after the state reflects the event. Returns the unsubscribe function. */
	subscribe(listener: AgentListener): () => void {
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	}

	// --- settings ---------------------------------------------------------------------------------------

	/** Setters take effect from the next model call; a run in progress keeps the values it started with. */
	setSystemPrompt(systemPrompt: string): void {
		this.agentState.systemPrompt = systemPrompt;
	}

	setModel(model: Model): void {
		this.agentState.model = model;
	}

	setThinkingLevel(level: ThinkingLevel): void {
		this.agentState.thinkingLevel = level;
	}

	setTools(tools: AgentTool[]): void {
		this.agentState.tools = tools;
	}

	get transport(): Transport {
		return this.currentTransport;
	}

	setTransport(transport: Transport): void {
		this.currentTransport = transport;
	}

	get toolExecution(): ToolExecutionMode {
		return this.currentToolExecution;
	}

	setToolExecution(mode: ToolExecutionMode): void {
		this.currentToolExecution = mode;
	}

	setBeforeToolCall(hook: AgentOptions["beforeToolCall"]): void {
		this.beforeToolCall = hook;
	}

	setAfterToolCall(hook: AgentOptions["afterToolCall"]): void {
		this.afterToolCall = hook;
	}

	// --- messages ---------------------------------------------------------------------------------------

	/** Replaces the conversation (a copy of `messages` is kept). Not while a run is active. */
	replaceMessages(messages: AgentMessage[]): void {
		this.agentState.messages = messages.slice();
	}

	appendMessage(message: AgentMessage): void {
		this.agentState.messages = [...this.agentState.messages, message];
	}

	clearMessages(): void {
		this.agentState.messages = [];
	}

	// --- queues -----------------------------------------------------------------------------------------

	/** Queues a message that interrupts the run: remaining tool calls are skipped and it is delivered next. */
	steer(message: AgentMessage): void {
		this.steeringQueue.enqueue(message);
	}

	/** Queues a message delivered when the run would otherwise stop. */
	followUp(message: AgentMessage): void {
		this.followUpQueue.enqueue(message);
	}

	/** Drops queued messages that have not been delivered. */
	clearSteeringQueue(): void {
		this.steeringQueue.clear();
	}

	clearFollowUpQueue(): void {
		this.followUpQueue.clear();
	}

	clearAllQueues(): void {
		this.steeringQueue.clear();
		this.followUpQueue.clear();
	}

	hasQueuedMessages(): boolean {
		return this.steeringQueue.size > 0 || this.followUpQueue.size > 0;
	}

	setSteeringMode(mode: QueueMode): void {
		this.steeringQueue.mode = mode;
	}

	getSteeringMode(): QueueMode {
		return this.steeringQueue.mode;
	}

	setFollowUpMode(mode: QueueMode): void {
		this.followUpQueue.mode = mode;
	}

	getFollowUpMode(): QueueMode {
		return this.followUpQueue.mode;
	}

	// --- runs -------------------------------------------------------------------------------------------

	/** Runs the loop with a new user turn. Rejects while a run is active: one run at a time, never interleaved. */
	prompt(message: AgentMessage | AgentMessage[]): Promise<void>;
	prompt(text: string, images?: ImageContent[]): Promise<void>;
	async prompt(input: string | AgentMessage | AgentMessage[], images: ImageContent[] = []): Promise<void> {
		if (this.agentState.isStreaming) throw new Error(PROMPT_WHILE_RUNNING_TEXT);
		if (!this.agentState.model) throw new Error(NO_MODEL_TEXT);
		let messages: AgentMessage[];
		if (typeof input === "string") {
			messages = [{ role: "user", content: [{ type: "text", text: input }, ...images], timestamp: Date.now() }];
		} else {
			messages = Array.isArray(input) ? input : [input];
		}
		await this.run(messages);
	}

	/**
	 * Resumes from the current history (after a tool result, a user message, or a retry that removed a failed
	 * turn). When the history ends with an assistant message, queued steering, else follow-up, messages are
	 * run as the next prompt.
	 */
	async continue(): Promise<void> {
		if (this.agentState.isStreaming) throw new Error(CONTINUE_WHILE_RUNNING_TEXT);
		const last = this.agentState.messages.at(-1);
		if (!last) throw new Error(NO_MESSAGES_TO_CONTINUE_FROM_TEXT);
		if (!this.agentState.model) throw new Error(NO_MODEL_TEXT);
		if (isAssistantMessage(last)) {
			const steering = this.steeringQueue.dequeue();
			// The loop's first steering poll would otherwise look at the queue these just came from.
			if (steering.length > 0) return this.run(steering, true);
			const followUps = this.followUpQueue.dequeue();
			if (followUps.length > 0) return this.run(followUps);
			throw new Error(cannotContinueFromRoleText("assistant"));
		}
		return this.run(undefined);
	}

	/** Aborts the running model call and tools (their signals fire); the run then ends with agent_end. */
	abort(): void {
		this.abortController?.abort();
	}

	/** Resolves when the current run, tools included, has finished (at once when idle). */
	waitForIdle(): Promise<void> {
		return this.runningPrompt ?? Promise.resolve();
	}

	/**
	 * Clears the conversation, error and queues; keeps model, tools, system prompt and settings. To start
	 * over while a run is active, `abort()` and `await waitForIdle()` first.
	 */
	reset(): void {
		this.agentState.messages = [];
		this.agentState.error = undefined;
		this.clearAllQueues();
		// Ours: the reference also clears the streaming flags while a run is still going, which lets a new
		// prompt start alongside it. The run's own flags are cleared when it ends.
		if (this.abortController) return;
		this.agentState.isStreaming = false;
		this.agentState.streamMessage = null;
		this.agentState.pendingToolCalls = new Set();
	}

	private async run(prompts: AgentMessage[] | undefined, skipInitialSteeringPoll = false): Promise<void> {
		// Everything up to the first await runs synchronously, so a second prompt() in the same tick already
		// sees isStreaming and is rejected.
		const model = this.agentState.model;
		const controller = new AbortController();
		let finishRun!: () => void;
		const running = new Promise<void>((resolve) => {
			finishRun = resolve;
		});
		this.abortController = controller;
		this.runningPrompt = running;
		this.skipInitialSteeringPoll = skipInitialSteeringPoll;
		this.agentState.isStreaming = true;
		this.agentState.streamMessage = null;
		this.agentState.error = undefined;

		const config = this.createLoopConfig(model);
		const context: AgentContext = {
			systemPrompt: this.agentState.systemPrompt,
			messages: this.agentState.messages.slice(),
			tools: this.agentState.tools,
		};
		const emit = (event: AgentEvent) => this.handleEvent(event);
		try {
			if (prompts) await runAgentLoop(prompts, context, config, emit, controller.signal, this.streamFn);
			else await runAgentLoopContinue(context, config, emit, controller.signal, this.streamFn);
		} catch (error) {
			this.recordFailedRun(error, model, controller);
		} finally {
			// A listener may start the next run from agent_end; never reset that run's state.
			if (this.abortController === controller) {
				this.agentState.isStreaming = false;
				this.agentState.streamMessage = null;
				this.agentState.pendingToolCalls = new Set();
				this.abortController = undefined;
			}
			if (this.runningPrompt === running) this.runningPrompt = undefined;
			finishRun();
		}
	}

	private createLoopConfig(model: Model): AgentLoopConfig {
		const level = this.agentState.thinkingLevel;
		const reasoning: SimpleStreamOptions["reasoning"] = level === "off" ? undefined : level;
		return {
			model,
			...(reasoning ? { reasoning } : {}),
			sessionId: this.sessionId,
			onPayload: this.onPayload,
			transport: this.currentTransport,
			thinkingBudgets: this.thinkingBudgets,
			maxRetryDelayMs: this.maxRetryDelayMs,
			toolExecution: this.currentToolExecution,
			...(this.maxParallelToolCalls !== undefined ? { maxParallelToolCalls: this.maxParallelToolCalls } : {}),
			...(this.maxReplyBytes !== undefined ? { maxReplyBytes: this.maxReplyBytes } : {}),
			...(this.replyTimeoutMs !== undefined ? { replyTimeoutMs: this.replyTimeoutMs } : {}),
			beforeToolCall: this.beforeToolCall,
			afterToolCall: this.afterToolCall,
			convertToLlm: this.convertToLlm,
			transformContext: this.transformContext,
			// Read per call, so a key source swapped while a run is active takes effect on the next call.
			getApiKey: (provider) => this.getApiKey?.(provider),
			getSteeringMessages: async () => {
				if (this.skipInitialSteeringPoll) {
					this.skipInitialSteeringPoll = false;
					return [];
				}
				return this.steeringQueue.dequeue();
			},
			getFollowUpMessages: async () => this.followUpQueue.dequeue(),
		};
	}

	/** Updates the state from a loop event, then notifies the listeners. */
	private handleEvent(event: AgentEvent): void {
		const state = this.agentState;
		switch (event.type) {
			case "message_start":
			case "message_update":
				state.streamMessage = event.message;
				break;
			case "message_end":
				state.streamMessage = null;
				if (!isEmptyAbortedAssistantMessage(event.message)) state.messages = [...state.messages, event.message];
				break;
			case "tool_execution_start":
				state.pendingToolCalls = new Set(state.pendingToolCalls).add(event.toolCallId);
				break;
			case "tool_execution_end": {
				const pending = new Set(state.pendingToolCalls);
				pending.delete(event.toolCallId);
				state.pendingToolCalls = pending;
				break;
			}
			case "turn_end":
				if (isAssistantMessage(event.message) && event.message.errorMessage) {
					state.error = event.message.errorMessage;
				}
				break;
			case "agent_end":
				state.isStreaming = false;
				state.streamMessage = null;
				break;
		}
		for (const listener of this.listeners) listener(event);
	}

	/**
	 * The loop threw (a hook failed, the stream function threw `No API key for provider: x`, a listener
	 * threw): record the failure as a synthetic assistant message and end the run with agent_end.
	 */
	private recordFailedRun(error: unknown, model: Model, controller: AbortController): void {
		const aborted = controller.signal.aborted;
		// Ours: tools of a parallel batch may still be running for a loop that is gone; stop them.
		controller.abort();
		this.answerOpenToolCalls();
		const failure = createFailureAssistantMessage(model, error, aborted);
		this.agentState.messages = [...this.agentState.messages, failure];
		this.agentState.error = failure.errorMessage;
		this.handleEvent({ type: "agent_end", messages: [failure] });
	}

	/**
	 * Ours: a run that fails during tool execution leaves tool calls without results, and every provider
	 * rejects such a history. Each open call of the last assistant turn is answered with an error result,
	 * reported like any other result so session layers persist it.
	 */
	private answerOpenToolCalls(): void {
		const messages = this.agentState.messages;
		let lastAssistantIndex = messages.length - 1;
		while (lastAssistantIndex >= 0 && !isAssistantMessage(messages[lastAssistantIndex])) lastAssistantIndex--;
		const lastAssistant = messages[lastAssistantIndex];
		if (!lastAssistant || !isAssistantMessage(lastAssistant)) return;
		if (lastAssistant.stopReason === "error" || lastAssistant.stopReason === "aborted") return;
		const answered = new Set(
			messages
				.slice(lastAssistantIndex + 1)
				.filter((message): message is ToolResultMessage => (message as { role?: unknown }).role === "toolResult")
				.map((message) => message.toolCallId),
		);
		for (const toolCall of toolCallsOf(lastAssistant)) {
			if (answered.has(toolCall.id)) continue;
			const result = textResult(INTERRUPTED_TOOL_CALL_TEXT);
			if (this.agentState.pendingToolCalls.has(toolCall.id)) {
				this.handleEvent({
					type: "tool_execution_end",
					toolCallId: toolCall.id,
					toolName: toolCall.name,
					result,
					isError: true,
				});
			}
			const message = createToolResultMessage(toolCall, result, true);
			this.handleEvent({ type: "message_start", message });
			this.handleEvent({ type: "message_end", message });
		}
	}
}
