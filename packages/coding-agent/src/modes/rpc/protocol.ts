// The RPC wire format (docs/rpc.md): every command, response, event and extension-UI record, defined once. The
// server (rpc-mode.ts), the client (rpc-client.ts) and embedders import these types; nothing else defines them.
import type { AgentMessage, ThinkingLevel } from "@agent/agent-core";
import type { ImageContent, Model } from "@agent/ai";
import type { CompactionResult } from "../../core/compaction/compaction.js";
import type { BashResult, SlashCommandInfo } from "../../core/extensions/hooks.js";
import type { PermissionMode } from "../../core/permissions/modes.js";
import type { SessionEntry, SessionTreeNode } from "../../core/session/entries.js";
import type { AgentSessionEvent, ModelCycleResult, SessionStats } from "../../core/session-runtime/events.js";

export type { BashResult, CompactionResult, ModelCycleResult, SessionEntry, SessionStats, SessionTreeNode };

// ---------------------------------------------------------------------------------------------------------
// Commands (client → agent)
// ---------------------------------------------------------------------------------------------------------

/** Queue dequeue mode for steering and follow-up messages. */
export type RpcQueueMode = "all" | "one-at-a-time";

export type RpcStreamingBehavior = "steer" | "followUp";

interface CommandBase {
	/** Correlation token, echoed in the response. */
	id?: string;
}

export type RpcCommand =
	| (CommandBase & {
			type: "prompt";
			message: string;
			images?: ImageContent[];
			streamingBehavior?: RpcStreamingBehavior;
	  })
	| (CommandBase & { type: "steer"; message: string; images?: ImageContent[] })
	| (CommandBase & { type: "follow_up"; message: string; images?: ImageContent[] })
	| (CommandBase & { type: "abort" })
	| (CommandBase & { type: "new_session"; parentSession?: string })
	| (CommandBase & { type: "get_state" })
	| (CommandBase & { type: "set_model"; provider: string; modelId: string })
	| (CommandBase & { type: "cycle_model" })
	| (CommandBase & { type: "get_available_models" })
	| (CommandBase & { type: "set_thinking_level"; level: ThinkingLevel })
	| (CommandBase & { type: "cycle_thinking_level" })
	| (CommandBase & { type: "set_steering_mode"; mode: RpcQueueMode })
	| (CommandBase & { type: "set_follow_up_mode"; mode: RpcQueueMode })
	| (CommandBase & { type: "compact"; customInstructions?: string })
	| (CommandBase & { type: "set_auto_compaction"; enabled: boolean })
	| (CommandBase & { type: "set_auto_retry"; enabled: boolean })
	| (CommandBase & { type: "abort_retry" })
	| (CommandBase & { type: "bash"; command: string })
	| (CommandBase & { type: "abort_bash" })
	| (CommandBase & { type: "get_session_stats" })
	| (CommandBase & { type: "export_html"; outputPath?: string })
	| (CommandBase & { type: "switch_session"; sessionPath: string })
	| (CommandBase & {
			type: "fork";
			entryId: string;
			/** Ours: also restore the files as they were before that message (docs/checkpoints.md). */
			restoreFiles?: boolean;
			/** Ours: with `restoreFiles`, overwrite files changed outside the agent. */
			force?: boolean;
	  })
	| (CommandBase & { type: "get_fork_messages" })
	| (CommandBase & { type: "get_last_assistant_text" })
	| (CommandBase & { type: "set_session_name"; name: string })
	| (CommandBase & { type: "get_messages" })
	| (CommandBase & { type: "get_commands" })
	// Ours: MCP servers (docs/mcp.md).
	| (CommandBase & { type: "get_mcp_servers" })
	| (CommandBase & { type: "restart_mcp_server"; name: string })
	// The newest reference's additions.
	| (CommandBase & { type: "get_available_thinking_levels" })
	| (CommandBase & { type: "clear_queue" })
	| (CommandBase & { type: "get_entries"; since?: string })
	| (CommandBase & { type: "get_tree" })
	| (CommandBase & { type: "clone" })
	// Ours: permission modes (docs/permissions.md).
	| (CommandBase & { type: "get_permission_mode" })
	| (CommandBase & { type: "set_permission_mode"; mode: PermissionMode })
	// Ours: subscription sign-in (docs/login.md). `login` asks through the extension-UI sub-protocol.
	| (CommandBase & { type: "get_oauth_providers" })
	| (CommandBase & { type: "login"; provider: string })
	| (CommandBase & { type: "logout"; provider: string })
	// Ours: file checkpoints and tree navigation (docs/checkpoints.md, docs/rpc.md).
	| (CommandBase & { type: "get_checkpoints" })
	| (CommandBase & { type: "restore_checkpoint"; entryId: string; dryRun?: boolean; force?: boolean })
	| (CommandBase & {
			type: "navigate_tree";
			targetId: string;
			summarize?: boolean;
			customInstructions?: string;
			restoreFiles?: boolean;
			/** With `restoreFiles`, overwrite files changed outside the agent. */
			force?: boolean;
	  });

export type RpcCommandType = RpcCommand["type"];

/** A command of one type. */
export type RpcCommandOf<C extends RpcCommandType> = Extract<RpcCommand, { type: C }>;

/**
 * The reference's 28 command types, then ours (MCP), the newest reference's, then ours (permissions, sign-in,
 * file checkpoints and tree navigation).
 */
export const RPC_COMMAND_TYPES = [
	"prompt",
	"steer",
	"follow_up",
	"abort",
	"new_session",
	"get_state",
	"set_model",
	"cycle_model",
	"get_available_models",
	"set_thinking_level",
	"cycle_thinking_level",
	"set_steering_mode",
	"set_follow_up_mode",
	"compact",
	"set_auto_compaction",
	"set_auto_retry",
	"abort_retry",
	"bash",
	"abort_bash",
	"get_session_stats",
	"export_html",
	"switch_session",
	"fork",
	"get_fork_messages",
	"get_last_assistant_text",
	"set_session_name",
	"get_messages",
	"get_commands",
	"get_mcp_servers",
	"restart_mcp_server",
	"get_available_thinking_levels",
	"clear_queue",
	"get_entries",
	"get_tree",
	"clone",
	"get_permission_mode",
	"set_permission_mode",
	"get_oauth_providers",
	"login",
	"logout",
	"get_checkpoints",
	"restore_checkpoint",
	"navigate_tree",
] as const satisfies readonly RpcCommandType[];

export function isRpcCommandType(type: string): type is RpcCommandType {
	return (RPC_COMMAND_TYPES as readonly string[]).includes(type);
}

// ---------------------------------------------------------------------------------------------------------
// Response payloads (docs/rpc.md "Commands")
// ---------------------------------------------------------------------------------------------------------

/** `get_state` (docs/rpc.md "get_state"). Keys are written in this order; undefined ones are omitted. */
export interface RpcSessionState {
	model?: Model;
	thinkingLevel: ThinkingLevel;
	isStreaming: boolean;
	isCompacting: boolean;
	steeringMode: RpcQueueMode;
	followUpMode: RpcQueueMode;
	sessionFile?: string;
	sessionId: string;
	sessionName?: string;
	autoCompactionEnabled: boolean;
	messageCount: number;
	pendingMessageCount: number;
}

export type RpcSlashCommand = SlashCommandInfo;

/** One MCP server in `get_mcp_servers` (docs/mcp.md). Absent fields are omitted. */
export interface RpcMcpServer {
	name: string;
	/** Where it was configured. */
	source: "user" | "project" | "editor" | "sdk";
	/** The mcp.json that configured it. */
	configPath?: string;
	transport: "stdio" | "http" | "sse";
	state: "disabled" | "starting" | "connected" | "reconnecting" | "needs-auth" | "failed" | "stopped";
	/** How its tools reach the model; absent until decided (when its tools are first listed). */
	toolMode?: "direct" | "on-demand";
	/** `name` is what the model calls (`mcp__<server>__<tool>`), `mcpName` the tool's name on the server. */
	tools: { name: string; mcpName: string; description?: string }[];
	/** Offered as slash commands (`/<command> args`). */
	prompts: { command: string; mcpName: string; description?: string }[];
	/** The last failure. */
	error?: string;
	/** `needs-auth`: the page the user opens to authorize. */
	authorizationUrl?: string;
	/** Failed attempts since the last successful connection. */
	failedAttempts: number;
	/** stdio: the server's process id while it runs. */
	pid?: number;
	/** stdio: the end of its stderr (at most 16 KB). */
	stderr?: string;
}

/** One sign-in provider in `get_oauth_providers`. */
export interface RpcOAuthProvider {
	id: string;
	name: string;
	/** auth.json holds its credentials (possibly expired: they are refreshed when used). */
	loggedIn: boolean;
	/** Its login waits for a browser redirect and also takes the pasted redirect URL (an `input` request). */
	usesCallbackServer: boolean;
}

export interface RpcForkMessage {
	entryId: string;
	text: string;
}

/**
 * Ours: what restoring files did (`restore_checkpoint`, and `files` of `fork` / `navigate_tree`). Paths are
 * relative to the working directory (absolute outside it). With conflicts and without `force`, nothing was
 * written: `restored` and `removed` are empty.
 */
export interface RpcFileRestoreResult {
	/** Written back (recreated or given their content at that point). */
	restored: string[];
	/** Deleted (they did not exist at that point). */
	removed: string[];
	/** Changed outside the agent since it last recorded them. */
	conflicts: string[];
	/** Their content at that point was not kept (too large, store full) or is unreadable: left as they are. */
	unrestorable: string[];
	/** With conflicts: per file, what changed since the agent last recorded it (a line diff). */
	diffs?: { path: string; diff: string }[];
}

/** Ours: one `file_checkpoint` entry of the current branch (`get_checkpoints`). */
export interface RpcCheckpoint {
	/** The checkpoint entry; `restore_checkpoint` with it restores the files as they were right after it. */
	entryId: string;
	/** ISO-8601. */
	timestamp: string;
	source: "edit" | "write" | "bash" | "user_bash" | "restore";
	/** The tool calls whose changes these are. */
	toolCallIds?: string[];
	files: { path: string; change: "created" | "modified" | "deleted" }[];
}

/** Ours: `navigate_tree`, the RPC form of `/tree`. */
export interface RpcNavigateTreeResult {
	/** True when nothing happened (an extension cancelled, the summary was aborted, or files conflicted). */
	cancelled: boolean;
	/** The text of the selected user message, to put back in an editor. */
	editorText?: string;
	/** The id of the branch summary entry, when one was written. */
	summaryEntryId?: string;
	/** With `restoreFiles`. */
	files?: RpcFileRestoreResult;
}

/** The `data` of each command's success response; `undefined` means the response has no `data` key. */
export interface RpcResponseDataMap {
	prompt: undefined;
	steer: undefined;
	follow_up: undefined;
	abort: undefined;
	new_session: { cancelled: boolean };
	get_state: RpcSessionState;
	set_model: Model;
	cycle_model: ModelCycleResult | null;
	get_available_models: { models: Model[] };
	set_thinking_level: undefined;
	cycle_thinking_level: { level: ThinkingLevel } | null;
	set_steering_mode: undefined;
	set_follow_up_mode: undefined;
	compact: CompactionResult;
	set_auto_compaction: undefined;
	set_auto_retry: undefined;
	abort_retry: undefined;
	bash: BashResult;
	abort_bash: undefined;
	get_session_stats: SessionStats;
	export_html: { path: string };
	switch_session: { cancelled: boolean };
	/** `files` (ours) only with `restoreFiles`. */
	fork: { text: string; cancelled: boolean; files?: RpcFileRestoreResult };
	get_fork_messages: { messages: RpcForkMessage[] };
	/** `null` when there is no assistant text (the newest reference; v0.58.3 sent `{}`). */
	get_last_assistant_text: { text: string | null };
	set_session_name: undefined;
	get_messages: { messages: AgentMessage[] };
	get_commands: { commands: RpcSlashCommand[] };
	get_mcp_servers: { servers: RpcMcpServer[] };
	restart_mcp_server: undefined;
	get_oauth_providers: { providers: RpcOAuthProvider[] };
	login: { provider: string };
	logout: undefined;
	/** `["off"]` for a model without reasoning. */
	get_available_thinking_levels: { levels: ThinkingLevel[] };
	/** The texts that were queued, removed from the queues. */
	clear_queue: { steering: string[]; followUp: string[] };
	/** Entries in append order (no header), after `since` when given; `leafId` null for an empty session. */
	get_entries: { entries: SessionEntry[]; leafId: string | null };
	get_tree: { tree: SessionTreeNode[]; leafId: string | null };
	clone: { cancelled: boolean };
	get_permission_mode: RpcPermissionModeState;
	set_permission_mode: RpcPermissionModeState;
	get_checkpoints: { checkpoints: RpcCheckpoint[] };
	restore_checkpoint: RpcFileRestoreResult;
	navigate_tree: RpcNavigateTreeResult;
}

/** `get_permission_mode` / `set_permission_mode` (docs/permissions.md): the mode now, and every mode there is. */
export interface RpcPermissionModeState {
	mode: PermissionMode;
	availableModes: PermissionMode[];
}

// ---------------------------------------------------------------------------------------------------------
// Responses (agent → client)
// ---------------------------------------------------------------------------------------------------------

type ResponseData<C extends RpcCommandType> = RpcResponseDataMap[C] extends undefined
	? unknown
	: { data: RpcResponseDataMap[C] };

/** Key order on the wire: `id`, `type`, `command`, `success`, then `data`. */
export type RpcSuccessResponse<C extends RpcCommandType = RpcCommandType> = {
	id?: string;
	type: "response";
	command: C;
	success: true;
} & ResponseData<C>;

/**
 * A failed command: its own `command` and `id` (also for errors thrown by the handler and unknown command types
 * — docs/rpc.md "Errors"), or `command: "parse"` for a line that is not a JSON object with a string
 * `type` (no `id` unless the object carried one).
 */
export interface RpcErrorResponse {
	id?: string;
	type: "response";
	command: string;
	success: false;
	error: string;
}

/** The `command` of the response to a line that could not be understood as a command. */
export const PARSE_ERROR_COMMAND = "parse";

export type RpcResponse = { [C in RpcCommandType]: RpcSuccessResponse<C> }[RpcCommandType] | RpcErrorResponse;

/** What a command's promise resolves to in the client: its success response, or an error response. */
export type RpcResponseFor<C extends RpcCommandType> = RpcSuccessResponse<C> | RpcErrorResponse;

/** Builds a success response with the wire's key order; `data` is omitted when undefined. */
export function successResponse(id: unknown, command: string, data?: unknown): Record<string, unknown> {
	const response: Record<string, unknown> = {};
	if (id !== undefined) response.id = id;
	response.type = "response";
	response.command = command;
	response.success = true;
	if (data !== undefined) response.data = data;
	return response;
}

/** Builds an error response with the wire's key order. */
export function errorResponse(id: unknown, command: string | undefined, error: string): Record<string, unknown> {
	const response: Record<string, unknown> = {};
	if (id !== undefined) response.id = id;
	response.type = "response";
	if (command !== undefined) response.command = command;
	response.success = false;
	response.error = error;
	return response;
}

/** `Failed to parse command: <reason>` (docs/rpc.md "Errors"). */
export function parseErrorMessage(reason: string): string {
	return `Failed to parse command: ${reason}`;
}

/** `Unknown command: <type>` (docs/rpc.md "Errors"). */
export function unknownCommandMessage(type: string): string {
	return `Unknown command: ${type}`;
}

// ---------------------------------------------------------------------------------------------------------
// Events (agent → client, no id) — the session's event stream, shared with `--mode json`
// ---------------------------------------------------------------------------------------------------------

export type RpcEvent = AgentSessionEvent;

export type RpcEventType = RpcEvent["type"];

// ---------------------------------------------------------------------------------------------------------
// Extension UI sub-protocol (docs/rpc.md "Extension UI")
// ---------------------------------------------------------------------------------------------------------

export type RpcNotifyType = "info" | "warning" | "error";
export type RpcWidgetPlacement = "aboveEditor" | "belowEditor";

interface UiRequestBase {
	type: "extension_ui_request";
	/** A fresh random UUID per request. */
	id: string;
}

/** Dialogs: the client answers each with one `extension_ui_response` carrying the same `id`. */
export type RpcExtensionUiDialogRequest =
	| (UiRequestBase & { method: "select"; title: string; options: string[]; timeout?: number })
	| (UiRequestBase & { method: "confirm"; title: string; message: string; timeout?: number })
	| (UiRequestBase & { method: "input"; title: string; placeholder?: string; timeout?: number })
	| (UiRequestBase & { method: "editor"; title: string; prefill?: string });

/** Fire and forget: no response expected. */
export type RpcExtensionUiNotificationRequest =
	| (UiRequestBase & { method: "notify"; message: string; notifyType?: RpcNotifyType })
	| (UiRequestBase & { method: "setStatus"; statusKey: string; statusText?: string })
	| (UiRequestBase & {
			method: "setWidget";
			widgetKey: string;
			widgetLines?: string[];
			widgetPlacement?: RpcWidgetPlacement;
	  })
	| (UiRequestBase & { method: "setTitle"; title: string })
	| (UiRequestBase & { method: "set_editor_text"; text: string });

export type RpcExtensionUiRequest = RpcExtensionUiDialogRequest | RpcExtensionUiNotificationRequest;

export type RpcExtensionUiMethod = RpcExtensionUiRequest["method"];

export const RPC_DIALOG_METHODS = [
	"select",
	"confirm",
	"input",
	"editor",
] as const satisfies readonly RpcExtensionUiMethod[];

/** The client's answer to a dialog. `cancelled: true` wins over `value` / `confirmed`. */
export interface RpcExtensionUiResponse {
	type: "extension_ui_response";
	id: string;
	value?: string;
	confirmed?: boolean;
	cancelled?: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Records per direction
// ---------------------------------------------------------------------------------------------------------

/** Every line the agent writes to stdout. */
export type RpcOutputRecord = RpcResponse | RpcEvent | RpcExtensionUiRequest;

/** Every line a client writes to stdin. */
export type RpcInputRecord = RpcCommand | RpcExtensionUiResponse;
