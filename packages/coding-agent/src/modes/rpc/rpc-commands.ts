// What each RPC command does (docs/rpc.md "Commands"): validates its fields, calls the session, returns the response data.
// A handler that throws is answered with the command's own error response by the caller (rpc-mode.ts).
import type { ThinkingLevel } from "@agent/agent-core";
import type { ImageContent } from "@agent/ai";
import { LOGIN_CANCELLED_MESSAGE } from "@agent/ai";
import {
	type AgentSession,
	noModelSelectedPromptText,
	STREAMING_WITHOUT_BEHAVIOR_TEXT,
} from "../../core/agent-session.js";
import type { CheckpointSummary, FileRestoreResult } from "../../core/checkpoints/types.js";
import { unknownLoginProviderText } from "../../core/config/auth-storage.js";
import type { McpServerStatus } from "../../core/mcp/status.js";
import { invalidPermissionModeText, isPermissionMode, PERMISSION_MODES } from "../../core/permissions/modes.js";
import { parseSlashCommand } from "../../core/session-runtime/prompt-input.js";
import type { RpcExtensionUiBridge } from "./extension-ui-bridge.js";
import type {
	RpcCheckpoint,
	RpcCommandType,
	RpcFileRestoreResult,
	RpcMcpServer,
	RpcPermissionModeState,
	RpcQueueMode,
	RpcResponseDataMap,
	RpcSessionState,
} from "./protocol.js";

/** An error whose message is sent to the client as is (a command's own `success: false` response). */
export class RpcCommandFailure extends Error {
	override readonly name = "RpcCommandFailure";
}

const THINKING_LEVELS: readonly string[] = ["off", "minimal", "low", "medium", "high", "xhigh"];
const QUEUE_MODES: readonly string[] = ["all", "one-at-a-time"];

type Fields = Record<string, unknown>;

function requireString(command: Fields, field: string): string {
	const value = command[field];
	if (typeof value !== "string") throw new RpcCommandFailure(`Missing required field "${field}" (string)`);
	return value;
}

function optionalString(command: Fields, field: string): string | undefined {
	const value = command[field];
	if (value === undefined) return undefined;
	if (typeof value !== "string") throw new RpcCommandFailure(`Field "${field}" must be a string`);
	return value;
}

function optionalBoolean(command: Fields, field: string): boolean | undefined {
	const value = command[field];
	if (value === undefined) return undefined;
	if (typeof value !== "boolean") throw new RpcCommandFailure(`Field "${field}" must be true or false`);
	return value;
}

function requireBoolean(command: Fields, field: string): boolean {
	const value = command[field];
	if (typeof value !== "boolean") throw new RpcCommandFailure(`Missing required field "${field}" (boolean)`);
	return value;
}

function optionalImages(command: Fields): ImageContent[] | undefined {
	const value = command.images;
	if (value === undefined) return undefined;
	const valid =
		Array.isArray(value) &&
		value.every(
			(image: unknown) =>
				typeof image === "object" &&
				image !== null &&
				(image as Fields).type === "image" &&
				typeof (image as Fields).data === "string" &&
				typeof (image as Fields).mimeType === "string",
		);
	if (!valid) throw new RpcCommandFailure('Field "images" must be an array of {"type":"image","data","mimeType"}');
	return value as ImageContent[];
}

function requireQueueMode(command: Fields): RpcQueueMode {
	const mode = requireString(command, "mode");
	// The reference stores any string; an unknown mode silently behaving as "all" is a trap.
	if (!QUEUE_MODES.includes(mode)) {
		throw new RpcCommandFailure(`Invalid mode "${mode}". Valid values: ${QUEUE_MODES.join(", ")}`);
	}
	return mode as RpcQueueMode;
}

/** `get_state` data with the wire's key order; absent model, file and name are omitted. */
export function buildSessionState(session: AgentSession): RpcSessionState {
	const state: RpcSessionState = {
		...(session.model ? { model: session.model } : {}),
		thinkingLevel: session.thinkingLevel,
		isStreaming: session.isStreaming,
		isCompacting: session.isCompacting,
		steeringMode: session.steeringMode,
		followUpMode: session.followUpMode,
		...(session.sessionManager.isPersisted() && session.sessionFile ? { sessionFile: session.sessionFile } : {}),
		sessionId: session.sessionId,
		...(session.sessionName ? { sessionName: session.sessionName } : {}),
		autoCompactionEnabled: session.autoCompactionEnabled,
		messageCount: session.messages.length,
		pendingMessageCount: session.pendingMessageCount,
	};
	return state;
}

/** An MCP server's status as the wire gives it: the fields of `RpcMcpServer`, in its order, nothing more. */
export function toRpcMcpServer(status: McpServerStatus): RpcMcpServer {
	return {
		name: status.name,
		source: status.source,
		...(status.configPath !== undefined ? { configPath: status.configPath } : {}),
		transport: status.transport,
		state: status.state,
		...(status.toolMode ? { toolMode: status.toolMode } : {}),
		tools: status.tools.map((tool) => ({
			name: tool.name,
			mcpName: tool.mcpName,
			...(tool.description !== undefined ? { description: tool.description } : {}),
		})),
		prompts: status.prompts.map((prompt) => ({
			command: prompt.command,
			mcpName: prompt.mcpName,
			...(prompt.description !== undefined ? { description: prompt.description } : {}),
		})),
		...(status.error !== undefined ? { error: status.error } : {}),
		...(status.authorizationUrl !== undefined ? { authorizationUrl: status.authorizationUrl } : {}),
		failedAttempts: status.failedAttempts,
		...(status.pid !== undefined ? { pid: status.pid } : {}),
		...(status.stderr !== undefined ? { stderr: status.stderr } : {}),
	};
}

/** What `login` needs of the extension-UI bridge: showing the sign-in page, asking for a value. */
export type RpcLoginUi = Pick<RpcExtensionUiBridge, "notify" | "input">;

export const RPC_PASTE_REDIRECT_TITLE = "Paste the URL the browser ends up on (or finish signing in there)";
/** A restore result as the wire gives it (`RpcFileRestoreResult`). */
export function toRpcFileRestoreResult(result: FileRestoreResult): RpcFileRestoreResult {
	return {
		restored: [...result.restored],
		removed: [...result.removed],
		conflicts: [...result.conflicts],
		unrestorable: [...result.unrestorable],
		...(result.diffs ? { diffs: result.diffs.map(({ path, diff }) => ({ path, diff })) } : {}),
	};
}

export function toRpcCheckpoint(checkpoint: CheckpointSummary): RpcCheckpoint {
	return {
		entryId: checkpoint.entryId,
		timestamp: checkpoint.timestamp,
		source: checkpoint.source,
		...(checkpoint.toolCallIds ? { toolCallIds: [...checkpoint.toolCallIds] } : {}),
		files: checkpoint.files.map(({ path, change }) => ({ path, change })),
	};
}

/** How the prompt handler reports: a run that may fail later, or a failure known at once. */
export interface PromptReporter {
	/** The run is not awaited; its failure becomes a second response with the same id (docs/rpc.md "prompt"). */
	started(run: Promise<void>): void;
	/** Written immediately, so it precedes the success response, as the reference orders these cases. */
	failedAtOnce(message: string): void;
}

/**
 * The failures `prompt` can know before anything asynchronous happens (docs/rpc.md "prompt"): a plain message
 * while streaming without `streamingBehavior`, or no model. Extension commands and `input` handlers may
 * still take such a message, so it is only checked when neither applies.
 */
export function immediatePromptFailure(session: AgentSession, message: string, behavior: unknown): string | undefined {
	const call = parseSlashCommand(message);
	if (call && session.hooks.getCommand(call.name)) return undefined;
	if (session.hooks.hasHandlers("input")) return undefined;
	if (session.isStreaming) return behavior === undefined ? STREAMING_WITHOUT_BEHAVIOR_TEXT : undefined;
	return session.model ? undefined : noModelSelectedPromptText();
}

function permissionModeState(session: AgentSession): RpcPermissionModeState {
	return { mode: session.permissions.mode, availableModes: [...PERMISSION_MODES] };
}

type Handler<C extends RpcCommandType> = (
	command: Fields,
	session: AgentSession,
	prompt: PromptReporter,
	ui: RpcLoginUi,
) => Promise<RpcResponseDataMap[C]> | RpcResponseDataMap[C];

type HandlerTable = { [C in RpcCommandType]: Handler<C> };

export const RPC_COMMAND_HANDLERS: HandlerTable = {
	prompt: (command, session, reporter) => {
		const message = requireString(command, "message");
		const images = optionalImages(command);
		const behavior = command.streamingBehavior;
		if (behavior !== undefined && behavior !== "steer" && behavior !== "followUp") {
			throw new RpcCommandFailure(`Invalid streamingBehavior "${String(behavior)}". Valid values: steer, followUp`);
		}
		const failure = immediatePromptFailure(session, message, behavior);
		if (failure !== undefined) {
			reporter.failedAtOnce(failure);
			return undefined;
		}
		reporter.started(
			session.prompt(message, {
				source: "rpc",
				...(images ? { images } : {}),
				...(behavior ? { streamingBehavior: behavior } : {}),
			}),
		);
		return undefined;
	},
	steer: async (command, session) => {
		await session.steer(requireString(command, "message"), optionalImages(command));
		return undefined;
	},
	follow_up: async (command, session) => {
		await session.followUp(requireString(command, "message"), optionalImages(command));
		return undefined;
	},
	abort: async (_command, session) => {
		await session.abort();
		return undefined;
	},
	new_session: async (command, session) => {
		const parentSession = optionalString(command, "parentSession");
		const created = await session.newSession(parentSession !== undefined ? { parentSession } : {});
		return { cancelled: !created };
	},
	get_state: (_command, session) => buildSessionState(session),
	set_model: async (command, session) => {
		const provider = requireString(command, "provider");
		const modelId = requireString(command, "modelId");
		const model = session.getAvailableModels().find((m) => m.provider === provider && m.id === modelId);
		if (!model) throw new RpcCommandFailure(`Model not found: ${provider}/${modelId}`);
		await session.setModel(model);
		return model;
	},
	cycle_model: async (_command, session) => (await session.cycleModel("forward")) ?? null,
	get_available_models: (_command, session) => ({ models: session.getAvailableModels() }),
	set_thinking_level: (command, session) => {
		const level = requireString(command, "level");
		if (!THINKING_LEVELS.includes(level)) {
			throw new RpcCommandFailure(`Invalid thinking level "${level}". Valid values: ${THINKING_LEVELS.join(", ")}`);
		}
		session.setThinkingLevel(level as ThinkingLevel);
		return undefined;
	},
	cycle_thinking_level: (_command, session) => {
		const level = session.cycleThinkingLevel();
		return level === undefined ? null : { level };
	},
	set_steering_mode: (command, session) => {
		session.setSteeringMode(requireQueueMode(command));
		return undefined;
	},
	set_follow_up_mode: (command, session) => {
		session.setFollowUpMode(requireQueueMode(command));
		return undefined;
	},
	compact: (command, session) => session.compact(optionalString(command, "customInstructions")),
	set_auto_compaction: (command, session) => {
		session.setAutoCompactionEnabled(requireBoolean(command, "enabled"));
		return undefined;
	},
	set_auto_retry: (command, session) => {
		session.setAutoRetryEnabled(requireBoolean(command, "enabled"));
		return undefined;
	},
	abort_retry: (_command, session) => {
		session.abortRetry();
		return undefined;
	},
	bash: (command, session) => session.executeBash(requireString(command, "command")),
	abort_bash: (_command, session) => {
		session.abortBash();
		return undefined;
	},
	get_session_stats: (_command, session) => session.getSessionStats(),
	export_html: async (command, session) => {
		const { exportAgentSessionToHtml } = await import("../../core/export-html/export-session.js");
		return { path: await exportAgentSessionToHtml(session, optionalString(command, "outputPath")) };
	},
	switch_session: async (command, session) => {
		const switched = await session.switchSession(requireString(command, "sessionPath"));
		return { cancelled: !switched };
	},
	fork: async (command, session) => {
		const restoreFiles = optionalBoolean(command, "restoreFiles");
		const force = optionalBoolean(command, "force");
		const result = await session.fork(requireString(command, "entryId"), {
			...(restoreFiles ? { restoreFiles } : {}),
			...(force ? { forceRestore: force } : {}),
		});
		return {
			text: result.selectedText,
			cancelled: result.cancelled,
			...(result.files ? { files: toRpcFileRestoreResult(result.files) } : {}),
		};
	},
	get_fork_messages: (_command, session) => ({ messages: session.getUserMessagesForForking() }),
	get_last_assistant_text: (_command, session) => ({ text: session.getLastAssistantText() ?? null }),
	set_session_name: (command, session) => {
		session.setSessionName(requireString(command, "name"));
		return undefined;
	},
	get_messages: (_command, session) => ({ messages: session.messages }),
	get_commands: (_command, session) => ({ commands: session.getCommands() }),
	get_mcp_servers: (_command, session) => ({ servers: session.getMcpServers().map(toRpcMcpServer) }),
	get_oauth_providers: (_command, session) => {
		const auth = session.modelRegistry.authStorage;
		return {
			providers: auth.getOAuthProviders().map((provider) => ({
				id: provider.id,
				name: provider.name,
				loggedIn: auth.get(provider.id)?.type === "oauth",
				usesCallbackServer: provider.usesCallbackServer === true,
			})),
		};
	},
	login: async (command, session, _reporter, ui) => {
		const provider = requireString(command, "provider");
		const auth = session.modelRegistry.authStorage;
		const oauth = auth.getOAuthProvider(provider);
		if (!oauth) throw new RpcCommandFailure(unknownLoginProviderText(provider, auth.getOAuthProviders()));
		const abort = new AbortController();
		const ask = async (title: string, placeholder?: string) => {
			const value = await ui.input(title, placeholder, { signal: abort.signal });
			if (value === undefined) {
				abort.abort();
				throw new Error(LOGIN_CANCELLED_MESSAGE);
			}
			return value;
		};
		try {
			await auth.login(provider, {
				onAuth: ({ url, instructions }) =>
					ui.notify(
						`Open this page to sign in to ${oauth.name}:\n${url}${instructions ? `\n${instructions}` : ""}`,
						"info",
					),
				onPrompt: ({ message, placeholder }) => ask(message, placeholder),
				onProgress: (message) => ui.notify(message, "info"),
				...(oauth.usesCallbackServer ? { onManualCodeInput: () => ask(RPC_PASTE_REDIRECT_TITLE) } : {}),
				signal: abort.signal,
			});
		} finally {
			abort.abort();
		}
		session.modelRegistry.refresh();
		return { provider };
	},
	logout: (command, session) => {
		const provider = requireString(command, "provider");
		const auth = session.modelRegistry.authStorage;
		if (!auth.listOAuth().includes(provider)) throw new RpcCommandFailure(`Not logged in to ${provider}`);
		auth.logout(provider);
		session.modelRegistry.refresh();
		return undefined;
	},
	restart_mcp_server: async (command, session) => {
		await session.restartMcpServer(requireString(command, "name"));
		return undefined;
	},
	get_available_thinking_levels: (_command, session) => ({ levels: session.getAvailableThinkingLevels() }),
	clear_queue: (_command, session) => session.clearQueue(),
	get_entries: (command, session) => {
		const since = optionalString(command, "since");
		let entries = session.sessionManager.getEntries();
		if (since !== undefined) {
			const index = entries.findIndex((entry) => entry.id === since);
			if (index === -1) throw new RpcCommandFailure(entryNotFoundText(since));
			entries = entries.slice(index + 1);
		}
		return { entries, leafId: session.sessionManager.getLeafId() };
	},
	get_tree: (_command, session) => ({
		tree: session.sessionManager.getTree(),
		leafId: session.sessionManager.getLeafId(),
	}),
	clone: async (_command, session) => session.clone(),
	get_permission_mode: (_command, session) => permissionModeState(session),
	set_permission_mode: (command, session) => {
		const mode = requireString(command, "mode");
		if (!isPermissionMode(mode)) throw new RpcCommandFailure(invalidPermissionModeText(mode));
		session.permissions.setMode(mode);
		return permissionModeState(session);
	},
	get_checkpoints: (_command, session) => ({ checkpoints: session.getCheckpoints().map(toRpcCheckpoint) }),
	restore_checkpoint: (command, session) => {
		const dryRun = optionalBoolean(command, "dryRun");
		const force = optionalBoolean(command, "force");
		const result = session.restoreFiles(requireString(command, "entryId"), {
			...(dryRun ? { dryRun } : {}),
			...(force ? { force } : {}),
		});
		return toRpcFileRestoreResult(result);
	},
	navigate_tree: async (command, session) => {
		const summarize = optionalBoolean(command, "summarize");
		const customInstructions = optionalString(command, "customInstructions");
		const restoreFiles = optionalBoolean(command, "restoreFiles");
		const force = optionalBoolean(command, "force");
		const result = await session.navigateTree(requireString(command, "targetId"), {
			...(summarize ? { summarize } : {}),
			...(customInstructions !== undefined ? { customInstructions } : {}),
			...(restoreFiles ? { restoreFiles } : {}),
			...(force ? { forceRestore: force } : {}),
		});
		return {
			cancelled: result.cancelled,
			...(result.editorText !== undefined ? { editorText: result.editorText } : {}),
			...(result.summaryEntry ? { summaryEntryId: result.summaryEntry.id } : {}),
			...(result.files ? { files: toRpcFileRestoreResult(result.files) } : {}),
		};
	},
};

/** `get_entries` with a `since` that names no entry (the newest reference's text). */
export function entryNotFoundText(id: string): string {
	return `Entry not found: ${id}`;
}
