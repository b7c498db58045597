// The seam between AgentSession and extensions (docs/extensions.md "Events", "Tools", "Contexts").
//
// AgentSession calls into extensions only through `ExtensionHooks`: notification events, events whose
// handlers return results, and a few lookups (commands, tools). The extension runner (loader + handlers)
// implements this interface; the session never sees extension modules. Combination rules of the events (chaining,
// first cancel wins, …) are the runner's job: each `emit…` method returns the *combined* result, and the
// session applies it as docs/extensions.md "Events" describes. Handler errors go to the runner's error listeners (`onError`), which
// the session turns into `extension_error` events — except `tool_call`, whose errors propagate (they block
// the tool, fail-safe).
//
// `noopExtensionHooks` is the default: no handlers, no commands, no tools.
//
// This file imports only types from lower layers, and nothing of AgentSession: the session is described to
// the runner by `ExtensionSessionBinding`, which AgentSession implements.
import type { AgentMessage, AgentTool, AgentToolResult, ThinkingLevel } from "@agent/agent-core";
import type { AssistantMessageEvent, ImageContent, Model, TextContent, ToolResultMessage } from "@agent/ai";
import type { FileRestoreResult } from "../checkpoints/types.js";
import type { CompactionPreparation, CompactionResult } from "../compaction/compaction.js";
import type { ModelRegistry } from "../config/model-registry.js";
import type { SessionPermissions } from "../permissions/session-permissions.js";
import type { ResourceExtensionPaths } from "../resources/resource-loader.js";
import type { BranchSummaryEntry, CompactionEntry, SessionEntry } from "../session/entries.js";
import type { SessionManager } from "../session/session-manager.js";
import type { BashOperations } from "../tools/bash-executor.js";

// ---------------------------------------------------------------------------------------------------------
// Shared payload types
// ---------------------------------------------------------------------------------------------------------

/** Result of a user `!command` / RPC `bash` (docs/rpc.md "bash and abort_bash"). */
export interface BashResult {
	output: string;
	/** Absent when the process was killed or cancelled. */
	exitCode?: number;
	cancelled: boolean;
	truncated: boolean;
	/** Set when the output exceeded 50 KiB: the whole sanitized output is in this file. */
	fullOutputPath?: string;
}

/** Context usage for footers and `ctx.getContextUsage()` (docs/compaction.md "When it happens"). */
export interface ContextUsage {
	/** null right after a compaction, until a reply reports usage again. */
	tokens: number | null;
	contextWindow: number;
	percent: number | null;
}

/** A slash command as `get_commands` lists it (docs/rpc.md "Reading the conversation"). */
export interface SlashCommandInfo {
	name: string;
	description?: string;
	/** Ours: `mcp` for an MCP server's prompt (`mcp__<server>__<prompt>`). */
	source: "extension" | "prompt" | "skill" | "mcp";
	location?: "user" | "project" | "path";
	path?: string;
}

/** What an extension passes to `sendMessage`. */
export interface CustomMessageInput<TDetails = unknown> {
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: TDetails;
}

/** Where a branch-summary navigation ends up (docs/compaction.md "Branch summaries"). */
export interface TreePreparation {
	targetId: string;
	oldLeafId: string | null;
	commonAncestorId: string | null;
	entriesToSummarize: SessionEntry[];
	userWantsSummary: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

export interface NavigateTreeOptions {
	summarize?: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
	/** Ours: also put the files back as they were at the new position (docs/checkpoints.md). */
	restoreFiles?: boolean;
	/** Ours: with `restoreFiles`, overwrite files changed outside the agent too. */
	forceRestore?: boolean;
}

export interface NavigateTreeResult {
	cancelled: boolean;
	/** The summarizer was aborted (`abortBranchSummary()`); nothing changed. */
	aborted?: boolean;
	/** Text of the target user/custom message, to pre-fill an editor. */
	editorText?: string;
	summaryEntry?: BranchSummaryEntry;
	/**
	 * Ours: with `restoreFiles`, what restoring the files did. With conflicts (and no `forceRestore`) nothing
	 * happened: `cancelled` is true and the conflicts are listed.
	 */
	files?: FileRestoreResult;
}

/** Ours (docs/checkpoints.md). */
export interface ForkOptions {
	/** Also put the files back as they were before the selected message. */
	restoreFiles?: boolean;
	/** With `restoreFiles`, overwrite files changed outside the agent too. */
	forceRestore?: boolean;
}

export interface ForkResult {
	/** Text of the selected user message (to pre-fill an editor). */
	selectedText: string;
	cancelled: boolean;
	/** Ours: with `restoreFiles`, what restoring the files did (conflicts without force: nothing, `cancelled`). */
	files?: FileRestoreResult;
}

export interface NewSessionRequest {
	parentSession?: string;
	/** Runs on the fresh session before it is used (extensions seed entries here). */
	setup?: (sessionManager: SessionManager) => Promise<void>;
}

export type SessionSwitchReason = "new" | "resume";
export type ModelSelectSource = "set" | "cycle" | "restore";
export type InputSource = "interactive" | "rpc" | "extension";
export type MessageDelivery = "steer" | "followUp";

// ---------------------------------------------------------------------------------------------------------
// Events (docs/extensions.md "Events")
// ---------------------------------------------------------------------------------------------------------

/** Events whose handlers' return values are ignored. */
export type ExtensionNotification =
	| { type: "session_start" }
	| { type: "session_switch"; reason: SessionSwitchReason; previousSessionFile: string | undefined }
	| { type: "session_fork"; previousSessionFile: string | undefined }
	| { type: "session_compact"; compactionEntry: CompactionEntry; fromExtension: boolean }
	| {
			type: "session_tree";
			newLeafId: string | null;
			oldLeafId: string | null;
			summaryEntry?: BranchSummaryEntry;
			fromExtension?: boolean;
	  }
	| { type: "session_shutdown" }
	| { type: "model_select"; model: Model; previousModel: Model | undefined; source: ModelSelectSource }
	| { type: "agent_start" }
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start"; turnIndex: number; timestamp: number }
	| { type: "turn_end"; turnIndex: number; message: AgentMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
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

/** Every event name an extension can subscribe to. */
export type ExtensionEventType =
	| ExtensionNotification["type"]
	| "resources_discover"
	| "session_directory"
	| "session_before_switch"
	| "session_before_fork"
	| "session_before_compact"
	| "session_before_tree"
	| "context"
	| "before_provider_request"
	| "before_agent_start"
	| "tool_call"
	| "tool_result"
	| "user_bash"
	| "input";

export interface InputEvent {
	/** Raw text, before skill and template expansion. */
	text: string;
	images?: ImageContent[];
	source: InputSource;
}

/** Combined: `transform` when any handler changed text or images, `handled` when one consumed the input. */
export type InputEventResult =
	| { action: "continue" }
	| { action: "transform"; text: string; images?: ImageContent[] }
	| { action: "handled" };

export interface BeforeAgentStartEvent {
	/** The expanded prompt text. */
	prompt: string;
	images?: ImageContent[];
	/** The current system prompt. */
	systemPrompt: string;
}

/** Combined: every handler's `message`, and the chained `systemPrompt` (undefined when none changed it). */
export interface BeforeAgentStartResult {
	messages: CustomMessageInput[];
	systemPrompt?: string;
}

export interface ToolCallEvent {
	toolCallId: string;
	toolName: string;
	/** The validated arguments. */
	input: Record<string, unknown>;
}

export interface ToolCallEventResult {
	block?: boolean;
	reason?: string;
}

export interface ToolResultEvent {
	toolCallId: string;
	toolName: string;
	input: Record<string, unknown>;
	content: (TextContent | ImageContent)[];
	/** Undefined when `isError`. */
	details: unknown;
	isError: boolean;
}

/** Combined patch; undefined when no handler changed anything. The session applies only content/details. */
export interface ToolResultEventResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	isError?: boolean;
}

export interface UserBashEvent {
	command: string;
	/** `!!` commands: shown, never sent to the model. */
	excludeFromContext: boolean;
	cwd: string;
}

/** First non-empty result wins: run with other operations, or skip running and use `result`. */
export interface UserBashEventResult {
	operations?: BashOperations;
	result?: BashResult;
}

export interface SessionBeforeSwitchEvent {
	reason: SessionSwitchReason;
	targetSessionFile?: string;
}

export interface SessionBeforeForkEvent {
	entryId: string;
}

export interface SessionBeforeForkResult {
	cancel?: boolean;
	/** Keep the agent's messages as they are after the fork. */
	skipConversationRestore?: boolean;
}

export interface SessionBeforeCompactEvent {
	preparation: CompactionPreparation;
	branchEntries: SessionEntry[];
	customInstructions?: string;
	signal: AbortSignal;
}

export interface SessionBeforeCompactResult {
	cancel?: boolean;
	compaction?: CompactionResult;
}

export interface SessionBeforeTreeEvent {
	preparation: TreePreparation;
	signal: AbortSignal;
}

export interface SessionBeforeTreeResult {
	cancel?: boolean;
	summary?: { summary: string; details?: unknown };
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

export interface ResourcesDiscoverEvent {
	cwd: string;
	reason: "startup" | "reload";
}

/** A handler failure, reported as an `extension_error` event. */
export interface ExtensionError {
	/** The extension's file, `command:<name>`, a skill file, or `<runtime>`. */
	extensionPath: string;
	event: string;
	error: string;
	stack?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Lookups
// ---------------------------------------------------------------------------------------------------------

/** A registered slash command. The runner builds the command context; the session only runs it. */
export interface ExtensionCommand {
	name: string;
	description?: string;
	/** The registering extension's file. */
	extensionPath: string;
	/** Runs the handler with the text after the first space. Throwing is reported as event `command`. */
	run(args: string): Promise<void>;
}

/** A tool registered by an extension (or passed to the SDK), already wrapped as an AgentTool. */
export interface ExtensionTool extends AgentTool {
	/** One line for the system prompt's "Available tools"; falls back to the description. */
	promptSnippet?: string;
	/** Bullets added to "Guidelines" while the tool is active. */
	promptGuidelines?: string[];
}

// ---------------------------------------------------------------------------------------------------------
// What the runner may ask of the session (ExtensionAPI actions, ExtensionContext, command context)
// ---------------------------------------------------------------------------------------------------------

/**
 * The session as extensions see it. AgentSession implements this; the runner gets it from `bindSession`
 * and builds `ExtensionContext` / `ExtensionCommandContext` / the API's action methods on top of it.
 */
export interface ExtensionSessionBinding {
	readonly cwd: string;
	readonly sessionManager: SessionManager;
	readonly modelRegistry: ModelRegistry;
	readonly model: Model | undefined;
	readonly thinkingLevel: ThinkingLevel;
	readonly isStreaming: boolean;
	/** The effective system prompt of the current run (or the base prompt when idle). */
	readonly systemPrompt: string;
	readonly pendingMessageCount: number;
	/** Ours: permission rules and mode. */
	readonly permissions: Pick<SessionPermissions, "mode" | "setMode" | "addRules" | "listRules" | "evaluate">;

	abort(): Promise<void>;
	waitForIdle(): Promise<void>;
	getContextUsage(): ContextUsage | undefined;
	compact(customInstructions?: string): Promise<CompactionResult>;

	sendCustomMessage(
		message: CustomMessageInput,
		options?: { triggerTurn?: boolean; deliverAs?: MessageDelivery | "nextTurn" },
	): Promise<void>;
	sendUserMessage(
		content: string | (TextContent | ImageContent)[],
		options?: { deliverAs?: MessageDelivery },
	): Promise<void>;
	setSessionName(name: string): void;
	setLabel(entryId: string, label: string | undefined): void;

	getActiveToolNames(): string[];
	getAllTools(): { name: string; description: string; parameters: unknown }[];
	setActiveToolsByName(names: string[]): void;
	/** Re-reads `ExtensionHooks.getTools()` (after a runtime `registerTool`): new tools become active. */
	refreshTools(): void;
	getCommands(): SlashCommandInfo[];

	/** Resolves false when the model's provider has no API key. */
	trySetModel(model: Model): Promise<boolean>;
	setThinkingLevel(level: ThinkingLevel): void;

	newSession(options?: NewSessionRequest): Promise<boolean>;
	fork(entryId: string): Promise<ForkResult>;
	navigateTree(targetId: string, options?: NavigateTreeOptions): Promise<NavigateTreeResult>;
	switchSession(sessionPath: string): Promise<boolean>;
	reload(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------
// The hook interface
// ---------------------------------------------------------------------------------------------------------

export interface ExtensionHooks {
	/** Called once by the AgentSession constructor; from then on action methods work. */
	bindSession(session: ExtensionSessionBinding): void;
	/** Lets the session skip work (deep copies, queue drains) for events nobody handles. */
	hasHandlers(type: ExtensionEventType): boolean;
	/** Notification events, awaited; handler errors are reported, never thrown. */
	emit(event: ExtensionNotification): Promise<void>;

	/** Raw user input before expansion. */
	emitInput(event: InputEvent): Promise<InputEventResult>;
	emitBeforeAgentStart(event: BeforeAgentStartEvent): Promise<BeforeAgentStartResult | undefined>;
	/** Receives a deep copy; returns the (chained) messages for this model call. */
	emitContext(messages: AgentMessage[]): Promise<AgentMessage[]>;
	/** Chained; returns the payload to send (the input when nobody replaced it). */
	emitBeforeProviderRequest(payload: unknown, model: Model): Promise<unknown>;
	/** First block wins. Handler errors propagate: the session blocks the tool with the error's message. */
	emitToolCall(event: ToolCallEvent): Promise<ToolCallEventResult | undefined>;
	emitToolResult(event: ToolResultEvent): Promise<ToolResultEventResult | undefined>;
	emitUserBash(event: UserBashEvent): Promise<UserBashEventResult | undefined>;
	emitSessionBeforeSwitch(event: SessionBeforeSwitchEvent): Promise<{ cancel?: boolean } | undefined>;
	emitSessionBeforeFork(event: SessionBeforeForkEvent): Promise<SessionBeforeForkResult | undefined>;
	emitSessionBeforeCompact(event: SessionBeforeCompactEvent): Promise<SessionBeforeCompactResult | undefined>;
	emitSessionBeforeTree(event: SessionBeforeTreeEvent): Promise<SessionBeforeTreeResult | undefined>;
	/** All handlers' paths, merged. */
	emitResourcesDiscover(event: ResourcesDiscoverEvent): Promise<ResourceExtensionPaths>;

	/** Exact name, without the slash. */
	getCommand(name: string): ExtensionCommand | undefined;
	/** In registration order. */
	getCommands(): ExtensionCommand[];
	/** Extension tools; one named like a built-in replaces it. */
	getTools(): ExtensionTool[];
	/** Handler failures; returns the unsubscribe function. */
	onError(listener: (error: ExtensionError) => void): () => void;
	/** `/reload`: re-load extension modules (between `session_shutdown` and `session_start`). */
	reload(): Promise<void>;
}

/** No extensions: every event passes through unchanged. */
export const noopExtensionHooks: ExtensionHooks = {
	bindSession: () => {},
	hasHandlers: () => false,
	emit: async () => {},
	emitInput: async () => ({ action: "continue" }),
	emitBeforeAgentStart: async () => undefined,
	emitContext: async (messages) => messages,
	emitBeforeProviderRequest: async (payload) => payload,
	emitToolCall: async () => undefined,
	emitToolResult: async () => undefined,
	emitUserBash: async () => undefined,
	emitSessionBeforeSwitch: async () => undefined,
	emitSessionBeforeFork: async () => undefined,
	emitSessionBeforeCompact: async () => undefined,
	emitSessionBeforeTree: async () => undefined,
	emitResourcesDiscover: async () => ({}),
	getCommand: () => undefined,
	getCommands: () => [],
	getTools: () => [],
	onError: () => () => {},
	reload: async () => {},
};
