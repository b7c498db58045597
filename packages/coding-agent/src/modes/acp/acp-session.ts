// One ACP session: an AgentSession whose events become `session/update` notifications, and the session
// methods (prompt, cancel, mode, model, thinking level) as calls on it. The mode subscribes to events and
// calls AgentSession methods; it never reaches into the loop.
import type { ThinkingLevel } from "@agent/agent-core";
import {
	type AgentContext,
	type ClientCapabilities,
	type ContentBlock,
	RequestError,
	type SessionConfigOption,
	type SessionModeState,
	type SessionUpdate,
	type StopReason,
} from "@agentclientprotocol/sdk";
import type { AgentSession } from "../../core/agent-session.js";
import {
	conflictDetailsText,
	conflictQuestion,
	NOTHING_TO_UNDO_TEXT,
	restoreOutcomeText,
	unrestorableText,
} from "../../core/checkpoints/restore-text.js";
import type { ExtensionRunner } from "../../core/extensions/runner.js";
import type { NotifyType } from "../../core/extensions/ui-context.js";
import { MCP_TOOL_NAME } from "../../core/mcp/search-tool.js";
import { MCP_NAME_PREFIX } from "../../core/mcp/tools.js";
import type { AgentSessionEvent } from "../../core/session-runtime/events.js";
import { availableCommands, isUndoCommand, parseCompactCommand } from "./available-commands.js";
import { createEditorDialogs, type EditorDialogs } from "./editor-dialogs.js";
import { createAcpUIContext } from "./extension-ui.js";
import type { FileChangeRecorder } from "./file-tools.js";
import { createAcpPermissionPrompt } from "./permission-prompt.js";
import { type PromptInput, toPromptInput } from "./prompt-content.js";
import { replayBranch } from "./replay.js";
import {
	type AcpModeId,
	acpModeOf,
	MODE_CONFIG_ID,
	MODEL_CONFIG_ID,
	modelValueOf,
	READ_ONLY_MODE_ID,
	READ_ONLY_TOOL_NAMES,
	sessionConfigOptions,
	sessionModeState,
	THINKING_CONFIG_ID,
} from "./session-config.js";
import { SessionUpdateTranslator } from "./session-updates.js";

export interface AcpSessionOptions {
	session: AgentSession;
	extensions?: ExtensionRunner;
	client: AgentContext;
	capabilities: ClientCapabilities;
	/** Edits and writes of this session's file tools. */
	recorder: FileChangeRecorder;
	/** Editor terminals of this session's bash calls, by tool call id. */
	terminals: Map<string, string>;
	log: (line: string) => void;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
	return a.length === b.length && a.every((name) => b.includes(name));
}

function isMcpToolName(name: string): boolean {
	return name === MCP_TOOL_NAME || name.startsWith(MCP_NAME_PREFIX);
}

const PROMPT_RUNNING_TEXT = "A prompt is already running in this session; cancel it first.";

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A failure before or while prompting, as the JSON-RPC error the client gets. */
function promptFailure(error: unknown): RequestError {
	if (error instanceof RequestError) return error;
	const message = errorText(error);
	// The client shows its auth methods for this code: credentials are what is missing.
	if (message.startsWith("No API key found") || message.startsWith("No model selected"))
		return RequestError.authRequired(undefined, message);
	return RequestError.internalError(undefined, message);
}

export class AcpSession {
	readonly id: string;
	private readonly translator: SessionUpdateTranslator;
	private readonly unsubscribe: () => void;
	private readonly dialogs: EditorDialogs;
	private lastSend: Promise<void> = Promise.resolve();
	private mode: AcpModeId;
	/** The tools of the other modes, as they were when read-only mode began. */
	private codeTools: string[] = [];
	private readonly unsubscribePermissions: () => void;
	private running: Promise<StopReason> | undefined;
	private cancelled = false;
	private readonly unsubscribeMcp: () => void;
	private readonly unsubscribeMcpChanges: () => void;
	private mcpPromptKey = "";

	constructor(private readonly options: AcpSessionOptions) {
		const { session, recorder, terminals } = options;
		this.id = session.sessionId;
		this.translator = new SessionUpdateTranslator({
			cwd: session.cwd,
			takeFileChange: (_toolName, path) => recorder.take(path),
			terminalOf: (toolCallId) => terminals.get(toolCallId),
		});
		this.unsubscribe = session.subscribe((event) => this.handleEvent(event));
		this.dialogs = createEditorDialogs({
			sessionId: this.id,
			client: options.client,
			capabilities: options.capabilities,
			send: (update) => this.send(update),
			runningToolCalls: () => this.translator.runningToolCalls(),
			log: options.log,
		});
		options.extensions?.setUIContext(createAcpUIContext(this.dialogs), true);
		// Permission questions go to the editor; the mode follows changes made elsewhere (an extension).
		this.mode = session.permissions.mode;
		session.permissions.setPrompt(createAcpPermissionPrompt(this.dialogs));
		this.unsubscribePermissions = session.permissions.onModeChange((mode) => {
			if (this.mode === READ_ONLY_MODE_ID || this.mode === mode) return;
			this.mode = mode;
			this.sendModeUpdates();
		});
		// MCP failures and authorization requests: in the editor when it shows notices, and in the log.
		this.unsubscribeMcp = session.onMcpNotice((notice) => {
			options.log(notice.text);
			this.notice(notice.level, notice.text);
		});
		// The commands of MCP prompts come and go with their servers.
		this.unsubscribeMcpChanges =
			session.mcp?.onChange(() => {
				// Tools of a server that connects meanwhile must not slip into read-only mode.
				if (this.mode === READ_ONLY_MODE_ID && !sameNames(session.getActiveToolNames(), READ_ONLY_TOOL_NAMES))
					session.setActiveToolsByName([...READ_ONLY_TOOL_NAMES]);
				const names = session.getMcpServers().flatMap((server) => server.prompts.map((prompt) => prompt.command));
				const key = names.join("\n");
				if (key === this.mcpPromptKey) return;
				this.mcpPromptKey = key;
				this.sendAvailableCommands();
			}) ?? (() => {});
	}

	get session(): AgentSession {
		return this.options.session;
	}

	/** Tells extensions the session started (their `session_start` handlers may use `ctx.ui`). */
	async start(): Promise<void> {
		await this.session.bindExtensions();
	}

	/** Sends the stored conversation of the current branch, as `session/load` requires. */
	async replay(): Promise<void> {
		for (const update of replayBranch(this.session.sessionManager.getBranch(), this.session.cwd)) this.send(update);
		this.sendUsage();
		await this.flush();
	}

	/** Shows an editor terminal in the tool call whose command runs in it. */
	showTerminal(toolCallId: string, terminalId: string): void {
		this.options.terminals.set(toolCallId, terminalId);
		this.send({ sessionUpdate: "tool_call_update", toolCallId, content: [{ type: "terminal", terminalId }] });
	}

	/** A notice for the user: a `notice` update when the editor shows them, else a log line. */
	notice(severity: NotifyType, text: string): void {
		this.dialogs.notify(text, severity);
	}

	sendAvailableCommands(): void {
		this.send({
			sessionUpdate: "available_commands_update",
			availableCommands: availableCommands(this.session.getCommands()),
		});
	}

	/** Runs one prompt turn; resolves with why it stopped once every update of the turn was sent. */
	async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
		if (this.running || this.session.isStreaming) throw RequestError.invalidRequest(undefined, PROMPT_RUNNING_TEXT);
		this.cancelled = false;
		const input = toPromptInput(blocks);
		const compactInstructions = input.images.length === 0 ? parseCompactCommand(input.text) : undefined;
		const run =
			compactInstructions !== undefined
				? this.runCompaction(compactInstructions)
				: input.images.length === 0 && isUndoCommand(input.text)
					? this.runUndo()
					: this.runPrompt(input);
		this.running = run;
		try {
			return await run;
		} finally {
			this.running = undefined;
			await this.flush();
		}
	}

	/** `session/cancel`: stops the model call, tools and any compaction; the prompt then answers `cancelled`. */
	async cancel(): Promise<void> {
		if (!this.running) return;
		this.cancelled = true;
		// A permission gate waiting for an answer would hold the tool call, and with it the abort.
		this.dialogs.withdrawAll();
		this.session.abortCompaction();
		await this.session.abort();
	}

	modeState(): SessionModeState {
		return sessionModeState(this.mode);
	}

	configOptions(): SessionConfigOption[] {
		const session = this.session;
		return sessionConfigOptions({
			mode: this.mode,
			model: session.model,
			availableModels: session.getAvailableModels(),
			thinkingLevel: session.thinkingLevel,
			availableThinkingLevels: session.getAvailableThinkingLevels(),
		});
	}

	setMode(modeId: string): void {
		const mode = acpModeOf(modeId);
		if (!mode) throw RequestError.invalidParams({ modeId }, `Unknown mode: ${modeId}`);
		if (mode === this.mode) return;
		const wasReadOnly = this.mode === READ_ONLY_MODE_ID;
		this.mode = mode;
		if (mode === READ_ONLY_MODE_ID) {
			this.codeTools = this.session.getActiveToolNames();
			this.session.setActiveToolsByName([...READ_ONLY_TOOL_NAMES]);
			// Read-only is plan mode too: a tool an extension adds cannot change anything either.
			this.session.permissions.setMode("plan");
		} else {
			if (wasReadOnly) {
				// MCP tools of servers that connected during read-only mode join the other modes too.
				const mcpTools = this.session
					.getAllTools()
					.map((tool) => tool.name)
					.filter((name) => isMcpToolName(name) && !this.codeTools.includes(name));
				this.session.setActiveToolsByName([...this.codeTools, ...mcpTools]);
			}
			this.session.permissions.setMode(mode);
		}
		this.sendModeUpdates();
	}

	private sendModeUpdates(): void {
		this.send({ sessionUpdate: "current_mode_update", currentModeId: this.mode });
		this.send({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
	}

	/** `session/set_config_option`; answers with every option's new state. */
	async setConfigOption(configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
		if (typeof value !== "string") throw RequestError.invalidParams({ configId }, `${configId} takes a value id`);
		switch (configId) {
			case MODE_CONFIG_ID:
				this.setMode(value);
				break;
			case MODEL_CONFIG_ID: {
				const current = this.session.model;
				if (current && modelValueOf(current) === value) break;
				const model = this.session.getAvailableModels().find((candidate) => modelValueOf(candidate) === value);
				if (!model) throw RequestError.invalidParams({ configId, value }, `Unknown or unavailable model: ${value}`);
				await this.session.setModel(model);
				break;
			}
			case THINKING_CONFIG_ID: {
				const level = this.session.getAvailableThinkingLevels().find((candidate) => candidate === value);
				if (!level)
					throw RequestError.invalidParams(
						{ configId, value },
						`Thinking level ${value} is not available for this model`,
					);
				this.session.setThinkingLevel(level as ThinkingLevel);
				break;
			}
			default:
				throw RequestError.invalidParams({ configId }, `Unknown config option: ${configId}`);
		}
		return this.configOptions();
	}

	/** Stops work and releases the session file; no more updates are sent. */
	async close(): Promise<void> {
		await this.cancel();
		this.unsubscribe();
		this.unsubscribeMcp();
		this.unsubscribeMcpChanges();
		this.unsubscribePermissions();
		this.session.permissions.setPrompt(undefined);
		await this.session.shutdown();
		await this.flush();
	}

	private async runPrompt(input: PromptInput): Promise<StopReason> {
		this.translator.expectPromptEcho();
		try {
			await this.session.prompt(input.text, {
				...(input.images.length > 0 ? { images: input.images } : {}),
				source: "rpc",
			});
		} catch (error) {
			if (this.cancelled) return "cancelled";
			throw promptFailure(error);
		} finally {
			this.translator.endPrompt();
		}
		const last = this.translator.lastAssistant;
		if (this.cancelled || last?.stopReason === "aborted") return "cancelled";
		if (last?.stopReason === "length") return "max_tokens";
		if (last?.stopReason === "error") throw promptFailure(new Error(last.errorMessage ?? "The model call failed."));
		return "end_turn";
	}

	private async runCompaction(instructions: string): Promise<StopReason> {
		try {
			const result = await this.session.compact(instructions || undefined);
			this.send({
				sessionUpdate: "agent_message_chunk",
				content: { type: "text", text: `Compacted the conversation (${result.tokensBefore} tokens before).` },
			});
			this.sendUsage();
			return "end_turn";
		} catch (error) {
			if (this.cancelled) return "cancelled";
			throw promptFailure(error);
		}
	}

	/** Ours: `/undo` restores the files the last turn changed; conflicts are asked about (docs/checkpoints.md). */
	private async runUndo(): Promise<StopReason> {
		const say = (text: string) =>
			this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
		const preview = this.session.undoFiles({ dryRun: true });
		if (preview.turnEntryId === undefined) {
			say(NOTHING_TO_UNDO_TEXT);
			return "end_turn";
		}
		let force = false;
		if (preview.conflicts.length > 0) {
			const chosen = await this.dialogs.requestPermission(
				conflictQuestion(preview.conflicts.length),
				conflictDetailsText(preview),
				[
					{ optionId: "overwrite", name: "Overwrite them", kind: "allow_once" },
					{ optionId: "keep", name: "Keep them", kind: "reject_once" },
				],
				undefined,
			);
			if (chosen !== "overwrite") {
				say("Nothing was restored.");
				return this.cancelled ? "cancelled" : "end_turn";
			}
			force = true;
		}
		const result = this.session.undoFiles({ force });
		const lines = [restoreOutcomeText(result) || NOTHING_TO_UNDO_TEXT];
		if (result.unrestorable.length > 0) lines.push(unrestorableText(result.unrestorable));
		say(lines.join("\n"));
		return "end_turn";
	}

	private handleEvent(event: AgentSessionEvent): void {
		for (const update of this.translator.translate(event)) this.send(update);
		switch (event.type) {
			case "message_end":
				if (event.message.role === "assistant") this.sendUsage();
				break;
			case "tool_execution_end":
				this.options.terminals.delete(event.toolCallId);
				break;
			case "agent_end":
				this.options.recorder.clear();
				break;
			case "extension_error":
				this.options.log(`Extension error (${event.extensionPath}, ${event.event}): ${event.error}`);
				break;
			case "checkpoint_notice":
				this.notice("warning", event.message);
				break;
			case "auto_retry_start":
				this.options.log(`Retrying (${event.attempt}/${event.maxAttempts}) after: ${event.errorMessage}`);
				break;
			default:
				break;
		}
	}

	private sendUsage(): void {
		const usage = this.session.getContextUsage();
		if (!usage || usage.tokens === null) return;
		const cost = this.session.getSessionStats().cost;
		this.send({
			sessionUpdate: "usage_update",
			used: usage.tokens,
			size: usage.contextWindow,
			cost: { amount: cost, currency: "USD" },
		});
	}

	private send(update: SessionUpdate): void {
		this.lastSend = this.options.client
			.notify("session/update", { sessionId: this.id, update })
			.catch((error: unknown) => this.options.log(`Could not send session/update: ${errorText(error)}`));
	}

	/** Resolves once every update sent so far is written. */
	private flush(): Promise<void> {
		return this.lastSend;
	}
}
