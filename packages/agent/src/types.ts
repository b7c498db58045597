import type {
	AssistantMessage,
	AssistantMessageEvent,
	ImageContent,
	Message,
	Model,
	SimpleStreamOptions,
	Static,
	streamSimple,
	TextContent,
	ThinkingBudgets,
	Tool,
	ToolCall,
	ToolResultMessage,
	Transport,
	TSchema,
} from "@agent/ai";

/** The agent's thinking level; "off" is sent to providers as no reasoning. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh";

/**
 * App-defined message kinds. Empty here; apps add roles by declaration merging:
 * `declare module "@agent/agent-core" { interface CustomAgentMessages { note: { role: "note"; ... } } }`
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging.
export interface CustomAgentMessages {}

/** A message of the conversation: an LLM message, or an app-defined kind (see `CustomAgentMessages`). */
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

/** What a tool returns: content for the model, details for UIs. */
export interface AgentToolResult<TDetails = unknown> {
	/** What the model sees. */
	content: (TextContent | ImageContent)[];
	/** What UIs see (diffs, truncation info, exit codes, ...). */
	details: TDetails;
}

/**
 * Reports a partial result while a tool runs (streamed bash output, progress); each call becomes a
 * `tool_execution_update` event. Calls after the tool settled are dropped. Never throws into the tool.
 */
export type AgentToolUpdateCallback<TDetails = unknown> = (partialResult: AgentToolResult<TDetails>) => void;

/**
 * A tool the agent can run. `execute` receives arguments already validated (and coerced) against `parameters`.
 * Contract: it should honour `signal` (reject soon after it fires); it may throw or reject, which becomes an error
 * result (`isError: true`) whose text is the error's message; it may call `onUpdate` any number of times before
 * it settles. The loop awaits it; in parallel mode several tools of one reply run at once.
 */
export interface AgentTool<TParameters extends TSchema = TSchema, TDetails = unknown> extends Tool<TParameters> {
	/** Shown in UIs. */
	label: string;
	// Declared as a method so tools with specific parameter types fit in an `AgentTool[]`.
	execute(
		toolCallId: string,
		params: Static<TParameters>,
		signal?: AbortSignal,
		onUpdate?: AgentToolUpdateCallback<TDetails>,
	): Promise<AgentToolResult<TDetails>>;
}

/** What one model call is built from: the loop's copy of the conversation, with the tools offered. */
export interface AgentContext {
	systemPrompt: string;
	messages: AgentMessage[];
	tools?: AgentTool[];
}

/** The `Agent`'s state, updated from each loop event before listeners are told. Read it; change it through the Agent. */
export interface AgentState {
	systemPrompt: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	tools: AgentTool[];
	/** The conversation; replaced (never mutated in place) when it changes. */
	messages: AgentMessage[];
	/** True from the start of a run until its `agent_end` has been handled. */
	isStreaming: boolean;
	/** The assistant message being streamed, while a model call is under way. */
	streamMessage: AgentMessage | null;
	/** Ids of the tool calls that have started and not yet ended. */
	pendingToolCalls: Set<string>;
	/** The last failed run's error message; cleared by the next run. */
	error?: string;
}

/**
 * What the loop reports, in order: agent_start, then per turn turn_start, the messages (message_start,
 * message_update* for assistant replies, message_end) and tool executions (tool_execution_start, _update*, _end,
 * then the result's message_start/end), turn_end; finally agent_end. Every tool_execution_start has its _end.
 */
export type AgentEvent =
	| { type: "agent_start" }
	/** Only the messages added by this run. */
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start" }
	| { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	/** Assistant messages only. */
	| { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
	| { type: "message_end"; message: AgentMessage }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: Record<string, unknown> }
	| {
			type: "tool_execution_update";
			toolCallId: string;
			toolName: string;
			args: Record<string, unknown>;
			partialResult: AgentToolResult;
	  }
	| { type: "tool_execution_end"; toolCallId: string; toolName: string; result: AgentToolResult; isError: boolean };

/** Where the loop reports its events; the loop awaits each call before going on. */
export type AgentEventSink = (event: AgentEvent) => void | Promise<void>;

// ---------------------------------------------------------------------------
// Loop configuration
// ---------------------------------------------------------------------------

/**
 * What the loop calls for each model reply; `streamSimple` by default. Typed from `streamSimple` because
 * @agent/ai exports the `AssistantMessageEventStream` *class* under the name of its stream interface, and
 * a stream function only has to honour the interface.
 */
export type StreamFn = (...args: Parameters<typeof streamSimple>) => ModelReplyStream | Promise<ModelReplyStream>;

/** The event stream of one model reply, as stream functions return it. */
export type ModelReplyStream = ReturnType<typeof streamSimple>;

/**
 * `parallel` (default): the calls of one reply are prepared in order, then run at once (up to
 * `maxParallelToolCalls`), their results reported in the reply's order. `sequential`: one after another, and
 * steering messages are looked for after each call.
 */
export type ToolExecutionMode = "sequential" | "parallel";

/** A tool call as the model made it (`arguments` unvalidated). */
export type AgentToolCall = ToolCall;

/** What `beforeToolCall` decides; `undefined` (or `block` unset) lets the call run. */
export interface BeforeToolCallResult {
	/** The call does not run; the model gets an error result with `reason` (default "Tool execution was blocked"). */
	block?: boolean;
	reason?: string;
}

/** Replaces parts of a tool's result; each field given replaces the tool's wholesale, the others stay. */
export interface AfterToolCallResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	isError?: boolean;
}

/** What `beforeToolCall` sees: the call with its validated arguments, and the loop's context at that point. */
export interface BeforeToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	/** Validated and coerced arguments, as the tool will receive them. */
	args: unknown;
	context: AgentContext;
}

/** What `afterToolCall` sees: the call, its arguments and the tool's own result. */
export interface AfterToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	args: unknown;
	result: AgentToolResult;
	isError: boolean;
	context: AgentContext;
}

/** Everything one run of the loop needs; the stream options are passed to every model call. */
export interface AgentLoopConfig extends SimpleStreamOptions {
	model: Model;
	/** Must not throw. Custom messages never reach providers unless converted here. */
	convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/** Pruning / injection before each call. */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/** Resolved before every call, for expiring tokens. */
	getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
	/** Polled before each model call and after tool calls; messages returned are delivered before the next call. */
	getSteeringMessages?: () => Promise<AgentMessage[]>;
	/** Polled when the run would end; messages returned start another turn. */
	getFollowUpMessages?: () => Promise<AgentMessage[]>;
	/** Default "parallel". */
	toolExecution?: ToolExecutionMode;
	/** Ours: in parallel mode, how many calls of one reply run at once; the rest queue. Default 8. */
	maxParallelToolCalls?: number;
	/**
	 * Asked before each call runs, after its arguments validated; awaited. Not asked for calls that never run
	 * (unknown tool, invalid arguments, a reply cut off at the output limit). May throw: the call is answered
	 * with the error's message as an error result and does not run.
	 */
	beforeToolCall?: (ctx: BeforeToolCallContext, signal?: AbortSignal) => Promise<BeforeToolCallResult | undefined>;
	/**
	 * Asked after each call that ran, before its result is reported; awaited, in the reply's order. May throw:
	 * the result becomes an error result with the error's message.
	 */
	afterToolCall?: (ctx: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined>;
}

/** The queue modes, the one list settings, commands and protocols validate against. */
export const QUEUE_MODES = ["all", "one-at-a-time"] as const;
/** How many queued messages one delivery takes: all of them, or the oldest one. */
export type QueueMode = (typeof QUEUE_MODES)[number];

/** Options of `new Agent(…)`; each is also a settable field or setter of the Agent. */
export interface AgentOptions {
	initialState?: Partial<AgentState>;
	/** Default: keep messages with role user, assistant or toolResult. */
	convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/** Called before each model call with the conversation; returns what is sent (pruning, injection). */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/** Default "one-at-a-time". */
	steeringMode?: QueueMode;
	/** Default "one-at-a-time". */
	followUpMode?: QueueMode;
	/** Default streamSimple. */
	streamFn?: StreamFn;
	/** Passed to providers as a prompt-cache key / routing hint. */
	sessionId?: string;
	/** Asked before every model call (so expiring tokens can be refreshed); the loop's `apiKey` otherwise. */
	getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
	/** See `StreamOptions.onPayload`. */
	onPayload?: SimpleStreamOptions["onPayload"];
	thinkingBudgets?: ThinkingBudgets;
	/** Default "sse". */
	transport?: Transport;
	/** See `StreamOptions.maxRetryDelayMs`. */
	maxRetryDelayMs?: number;
	/** Default "parallel". */
	toolExecution?: ToolExecutionMode;
	/** See `AgentLoopConfig.maxParallelToolCalls`. */
	maxParallelToolCalls?: number;
	/** See `StreamOptions.maxReplyBytes` in `@agent/ai`. */
	maxReplyBytes?: number;
	/** See `StreamOptions.replyTimeoutMs` in `@agent/ai`. */
	replyTimeoutMs?: number;
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	afterToolCall?: AgentLoopConfig["afterToolCall"];
}
