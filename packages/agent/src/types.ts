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

export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

export interface AgentToolResult<TDetails = unknown> {
	/** What the model sees. */
	content: (TextContent | ImageContent)[];
	/** What UIs see (diffs, truncation info, exit codes, ...). */
	details: TDetails;
}

export type AgentToolUpdateCallback<TDetails = unknown> = (partialResult: AgentToolResult<TDetails>) => void;

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

export interface AgentContext {
	systemPrompt: string;
	messages: AgentMessage[];
	tools?: AgentTool[];
}

export interface AgentState {
	systemPrompt: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	tools: AgentTool[];
	messages: AgentMessage[];
	isStreaming: boolean;
	streamMessage: AgentMessage | null;
	pendingToolCalls: Set<string>;
	error?: string;
}

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

export type ToolExecutionMode = "sequential" | "parallel";

export type AgentToolCall = ToolCall;

export interface BeforeToolCallResult {
	block?: boolean;
	reason?: string;
}

export interface AfterToolCallResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	isError?: boolean;
}

export interface BeforeToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	args: unknown;
	context: AgentContext;
}

export interface AfterToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	args: unknown;
	result: AgentToolResult;
	isError: boolean;
	context: AgentContext;
}

export interface AgentLoopConfig extends SimpleStreamOptions {
	model: Model;
	/** Must not throw. Custom messages never reach providers unless converted here. */
	convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/** Pruning / injection before each call. */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/** Resolved before every call, for expiring tokens. */
	getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
	getSteeringMessages?: () => Promise<AgentMessage[]>;
	getFollowUpMessages?: () => Promise<AgentMessage[]>;
	/** Default "parallel". */
	toolExecution?: ToolExecutionMode;
	/** Ours: in parallel mode, how many calls of one reply run at once; the rest queue. Default 8. */
	maxParallelToolCalls?: number;
	beforeToolCall?: (ctx: BeforeToolCallContext, signal?: AbortSignal) => Promise<BeforeToolCallResult | undefined>;
	afterToolCall?: (ctx: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined>;
}

export type QueueMode = "all" | "one-at-a-time";

export interface AgentOptions {
	initialState?: Partial<AgentState>;
	/** Default: keep messages with role user, assistant or toolResult. */
	convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/** Default "one-at-a-time". */
	steeringMode?: QueueMode;
	/** Default "one-at-a-time". */
	followUpMode?: QueueMode;
	/** Default streamSimple. */
	streamFn?: StreamFn;
	sessionId?: string;
	getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
	onPayload?: SimpleStreamOptions["onPayload"];
	thinkingBudgets?: ThinkingBudgets;
	/** Default "sse". */
	transport?: Transport;
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
