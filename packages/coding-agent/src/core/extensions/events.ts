// The events extensions subscribe to with `pi.on(name, handler)` (docs/extensions.md "Events"): what each handler
// receives and what it may return. The payloads are the session's (./hooks.js) plus the `type` field; the
// runner (./runner.js) applies the combination rules.
import type { AgentMessage } from "@agent/agent-core";
import type {
	BashToolDetails,
	BashToolInput,
	EditToolDetails,
	EditToolInput,
	FindToolDetails,
	FindToolInput,
	GrepToolDetails,
	GrepToolInput,
	LsToolDetails,
	LsToolInput,
	ReadToolDetails,
	ReadToolInput,
	WriteToolInput,
} from "../tools/index.js";
import type {
	BeforeAgentStartEvent,
	CustomMessageInput,
	ExtensionEventType,
	ExtensionNotification,
	InputEvent,
	InputEventResult,
	ResourcesDiscoverEvent,
	SessionBeforeCompactEvent,
	SessionBeforeCompactResult,
	SessionBeforeForkEvent,
	SessionBeforeForkResult,
	SessionBeforeSwitchEvent,
	SessionBeforeTreeEvent,
	SessionBeforeTreeResult,
	ToolCallEvent,
	ToolCallEventResult,
	ToolResultEvent,
	ToolResultEventResult,
	UserBashEvent,
	UserBashEventResult,
} from "./hooks.js";

export type ExtensionEventName = ExtensionEventType;

/** `session_directory` (CLI startup only): where to keep session files for `cwd`. */
export interface SessionDirectoryEvent {
	cwd: string;
}

export interface SessionDirectoryResult {
	sessionDir?: string;
}

export interface ResourcesDiscoverResult {
	skillPaths?: string[];
	promptPaths?: string[];
	themePaths?: string[];
}

export interface SessionBeforeSwitchResult {
	cancel?: boolean;
}

/** `context`: the messages of the next model call (a deep copy; each handler sees the previous output). */
export interface ContextEvent {
	messages: AgentMessage[];
}

export interface ContextEventResult {
	messages?: AgentMessage[];
}

/** `before_provider_request`: the provider-specific request body. Returning any value replaces it. */
export interface BeforeProviderRequestEvent {
	payload: unknown;
}

/** One handler's answer to `before_agent_start`: a message to add to the prompt, a system prompt to use. */
export interface BeforeAgentStartEventResult {
	message?: CustomMessageInput;
	systemPrompt?: string;
}

/** What each event name delivers to its handlers (the `type` field included). */
export type ExtensionEventMap = {
	[K in ExtensionNotification["type"]]: Extract<ExtensionNotification, { type: K }>;
} & {
	resources_discover: ResourcesDiscoverEvent & { type: "resources_discover" };
	session_directory: SessionDirectoryEvent & { type: "session_directory" };
	session_before_switch: SessionBeforeSwitchEvent & { type: "session_before_switch" };
	session_before_fork: SessionBeforeForkEvent & { type: "session_before_fork" };
	session_before_compact: SessionBeforeCompactEvent & { type: "session_before_compact" };
	session_before_tree: SessionBeforeTreeEvent & { type: "session_before_tree" };
	context: ContextEvent & { type: "context" };
	before_provider_request: BeforeProviderRequestEvent & { type: "before_provider_request" };
	before_agent_start: BeforeAgentStartEvent & { type: "before_agent_start" };
	tool_call: ToolCallEvent & { type: "tool_call" };
	tool_result: ToolResultEvent & { type: "tool_result" };
	user_bash: UserBashEvent & { type: "user_bash" };
	input: InputEvent & { type: "input" };
};

/** What a handler of each event may return; notification events ignore return values. */
export type ExtensionEventResultMap = {
	[K in ExtensionNotification["type"]]: unknown;
} & {
	resources_discover: ResourcesDiscoverResult;
	session_directory: SessionDirectoryResult;
	session_before_switch: SessionBeforeSwitchResult;
	session_before_fork: SessionBeforeForkResult;
	session_before_compact: SessionBeforeCompactResult;
	session_before_tree: SessionBeforeTreeResult;
	context: ContextEventResult;
	before_provider_request: unknown;
	before_agent_start: BeforeAgentStartEventResult;
	tool_call: ToolCallEventResult;
	tool_result: ToolResultEventResult;
	user_bash: UserBashEventResult;
	input: InputEventResult;
};

// Names the reference exports for single events, so ported handlers keep their annotations.
export type SessionStartEvent = ExtensionEventMap["session_start"];
export type SessionSwitchEvent = ExtensionEventMap["session_switch"];
export type SessionForkEvent = ExtensionEventMap["session_fork"];
export type SessionCompactEvent = ExtensionEventMap["session_compact"];
export type SessionTreeEvent = ExtensionEventMap["session_tree"];
export type SessionShutdownEvent = ExtensionEventMap["session_shutdown"];
export type ModelSelectEvent = ExtensionEventMap["model_select"];
export type AgentStartEvent = ExtensionEventMap["agent_start"];
export type AgentEndEvent = ExtensionEventMap["agent_end"];
export type TurnStartEvent = ExtensionEventMap["turn_start"];
export type TurnEndEvent = ExtensionEventMap["turn_end"];
export type MessageStartEvent = ExtensionEventMap["message_start"];
export type MessageUpdateEvent = ExtensionEventMap["message_update"];
export type MessageEndEvent = ExtensionEventMap["message_end"];
export type ToolExecutionStartEvent = ExtensionEventMap["tool_execution_start"];
export type ToolExecutionUpdateEvent = ExtensionEventMap["tool_execution_update"];
export type ToolExecutionEndEvent = ExtensionEventMap["tool_execution_end"];

// ---------------------------------------------------------------------------------------------------------
// Narrowing helpers for the built-in tools
// ---------------------------------------------------------------------------------------------------------

/** Validated arguments of the built-in tools, by name. */
export interface BuiltinToolInputs {
	bash: BashToolInput;
	read: ReadToolInput;
	edit: EditToolInput;
	write: WriteToolInput;
	grep: GrepToolInput;
	find: FindToolInput;
	ls: LsToolInput;
}

/** `details` of the built-in tools' successful results, by name (`write` has none). */
export interface BuiltinToolDetails {
	bash: BashToolDetails;
	read: ReadToolDetails;
	edit: EditToolDetails;
	write: undefined;
	grep: GrepToolDetails;
	find: FindToolDetails;
	ls: LsToolDetails;
}

type NarrowedToolCall<TName extends string, TInput> = Omit<ToolCallEvent, "toolName" | "input"> & {
	toolName: TName;
	input: TInput;
};

/**
 * Narrows a `tool_call` event to one tool: built-in tools get their input type; for a custom tool pass the
 * input type, `isToolCallEventType<"todo", TodoInput>("todo", event)`.
 */
export function isToolCallEventType<TName extends keyof BuiltinToolInputs>(
	toolName: TName,
	event: ToolCallEvent,
): event is ToolCallEvent & NarrowedToolCall<TName, BuiltinToolInputs[TName]>;
export function isToolCallEventType<TName extends string, TInput extends Record<string, unknown>>(
	toolName: TName,
	event: ToolCallEvent,
): event is ToolCallEvent & NarrowedToolCall<TName, TInput>;
export function isToolCallEventType(toolName: string, event: ToolCallEvent): boolean {
	return event.toolName === toolName;
}

/** A `tool_result` event of one built-in tool; `details` is undefined when the call failed. */
export type BuiltinToolResultEvent<TName extends keyof BuiltinToolDetails> = Omit<
	ToolResultEvent,
	"toolName" | "input" | "details"
> & {
	toolName: TName;
	input: BuiltinToolInputs[TName];
	details: BuiltinToolDetails[TName] | undefined;
};

function resultGuard<TName extends keyof BuiltinToolDetails>(
	toolName: TName,
): (event: ToolResultEvent) => event is ToolResultEvent & BuiltinToolResultEvent<TName> {
	return (event): event is ToolResultEvent & BuiltinToolResultEvent<TName> => event.toolName === toolName;
}

export const isBashToolResult = resultGuard("bash");
export const isReadToolResult = resultGuard("read");
export const isEditToolResult = resultGuard("edit");
export const isWriteToolResult = resultGuard("write");
export const isGrepToolResult = resultGuard("grep");
export const isFindToolResult = resultGuard("find");
export const isLsToolResult = resultGuard("ls");
