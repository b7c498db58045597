// The runtime every mode shares: an Agent wired to a session file, settings, models, resources, tools and
// extensions. Modes send commands in (prompt, steer, abort, setModel, compact, …) and render the events that
// come out (`subscribe`). The work is split over collaborators in ./session-runtime/: prompts and queues,
// compaction, retry, models and thinking levels, tools and the system prompt, user bash, navigation.
import type { Agent, AgentMessage, AgentState, StreamFn, ThinkingLevel } from "@agent/agent-core";
import { type AssistantMessage, type ImageContent, type Model, streamSimple, type TextContent } from "@agent/ai";
import type { AgentSessionConfig } from "./agent-session-config.js";
import { SessionCheckpoints } from "./checkpoints/session-checkpoints.js";
import type { CheckpointSummary, FileRestoreOptions, FileRestoreResult, UndoResult } from "./checkpoints/types.js";
import type { CompactionResult } from "./compaction/compaction.js";
import type { ModelRegistry } from "./config/model-registry.js";
import type { ScopedModel } from "./config/model-resolver.js";
import type { SettingsManager } from "./config/settings-manager.js";
import type { ExtensionEventType } from "./extensions/hooks.js";
import {
	type BashResult,
	type ContextUsage,
	type CustomMessageInput,
	type ExtensionError,
	type ExtensionHooks,
	type ExtensionSessionBinding,
	type ForkOptions,
	type ForkResult,
	type MessageDelivery,
	type NavigateTreeOptions,
	type NavigateTreeResult,
	type NewSessionRequest,
	noopExtensionHooks,
	type SlashCommandInfo,
} from "./extensions/hooks.js";
import type { ExtensionRunner } from "./extensions/runner.js";
import type { McpManager } from "./mcp/manager.js";
import type { McpNotice, McpServerStatus } from "./mcp/status.js";
import { SessionPermissions } from "./permissions/session-permissions.js";
import type { PromptTemplate } from "./resources/prompt-templates.js";
import type { ResourceLoader } from "./resources/resource-loader.js";
import type { SessionManager } from "./session/session-manager.js";
import { COMPACTION_IN_PROGRESS_TEXT, CompactionController } from "./session-runtime/compaction-controller.js";
import type {
	AgentSessionEventListener,
	ModelCycleResult,
	PromptOptions,
	SessionStats,
} from "./session-runtime/events.js";
import { ModelController } from "./session-runtime/model-controller.js";
import { PromptController } from "./session-runtime/prompt-controller.js";
import { listSlashCommands } from "./session-runtime/prompt-input.js";
import { withRetryCapNote } from "./session-runtime/retry-cap-note.js";
import { RetryController } from "./session-runtime/retry-controller.js";
import { createSessionAgent } from "./session-runtime/session-agent.js";
import { SessionEventPipeline } from "./session-runtime/session-event-pipeline.js";
import { SessionNavigator } from "./session-runtime/session-navigation.js";
import { computeContextUsage, computeSessionStats, findLastAssistantText } from "./session-runtime/session-stats.js";
import { SessionTools } from "./session-runtime/session-tools.js";
import { DEFAULT_STREAM_STALL_TIMEOUT_MS, withStallWatchdog } from "./session-runtime/stall-watchdog.js";
import { UserBashController } from "./session-runtime/user-bash.js";
import type { BashOperations } from "./tools/bash-executor.js";
import { BashOutputFiles } from "./tools/bash-output-files.js";
import { ShellEnvironment } from "./tools/shell-env.js";

export type { AgentSessionConfig } from "./agent-session-config.js";
export {
	extensionCommandCannotBeQueuedText,
	noApiKeyFoundText,
	noModelSelectedPromptText,
	oauthAuthenticationFailedText,
	STREAMING_WITHOUT_BEHAVIOR_TEXT,
} from "./session-runtime/prompt-controller.js";

/** Files are not restored while the agent works: its tools could be writing them. */
export const RESTORE_WHILE_BUSY_TEXT = "Cannot restore files while the agent is working. Abort it first, or wait.";

/**
 * One conversation with the model, persisted as a session file. Every message and every model or
 * thinking-level change is recorded as an entry; compaction keeps long sessions within the context window;
 * transient provider failures are retried; extensions are called at the points docs/extensions.md "Events" names.
 */
export class AgentSession implements ExtensionSessionBinding {
	readonly agent: Agent;
	readonly cwd: string;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly modelRegistry: ModelRegistry;
	readonly resourceLoader: ResourceLoader;
	readonly hooks: ExtensionHooks;
	/** The session's MCP servers, when MCP is on (`createAgentSession` turns it on unless told not to). */
	readonly mcp: McpManager | undefined;
	/** The stream function every model call goes through (the configured one wrapped in the stall watchdog). */
	readonly streamFn: StreamFn;
	/** Ours: permission rules and mode, checked before every tool call (docs/permissions.md). */
	readonly permissions: SessionPermissions;
	/** Ours: the files the agent changed, recorded per session entry, and their restore (docs/checkpoints.md). */
	readonly checkpoints: SessionCheckpoints;

	private readonly models: ModelController;
	private readonly tools: SessionTools;
	private readonly retry: RetryController;
	private readonly compaction: CompactionController;
	private readonly navigator: SessionNavigator;
	private readonly events: SessionEventPipeline;
	private readonly unsubscribers: (() => void)[] = [];
	/** Full-output files of this session's commands, removed by `dispose()` (or at process exit). */
	private readonly bashOutputFiles = new BashOutputFiles();
	/** The environment of this session's commands: provider keys removed (see ShellEnvironment). */
	private readonly shellEnvironment: ShellEnvironment;

	private readonly prompts: PromptController;
	private readonly userBash: UserBashController;
	private stallTimeoutMs: number;

	constructor(config: AgentSessionConfig) {
		this.cwd = config.cwd;
		this.sessionManager = config.sessionManager;
		this.settingsManager = config.settingsManager;
		this.modelRegistry = config.modelRegistry;
		this.resourceLoader = config.resourceLoader;
		this.hooks = config.hooks ?? noopExtensionHooks;
		this.mcp = config.mcp;
		this.stallTimeoutMs =
			config.streamStallTimeoutMs ??
			config.settingsManager.getStreamStallTimeoutMs() ??
			DEFAULT_STREAM_STALL_TIMEOUT_MS;
		this.streamFn = withRetryCapNote(
			withStallWatchdog(config.streamFn ?? streamSimple, () => this.stallTimeoutMs),
			() => this.settingsManager.getRetrySettings(),
		);
		this.permissions = new SessionPermissions({
			cwd: this.cwd,
			settingsManager: this.settingsManager,
			...(config.permissions ? { commandLine: config.permissions } : {}),
			record: (decision) => this.sessionManager.appendPermissionDecision(decision),
		});
		this.shellEnvironment = new ShellEnvironment({
			extraKeyNames: () => this.modelRegistry.getCredentialEnvNames(),
			passthrough: () => this.settingsManager.getShellEnvPassthrough(),
		});

		this.checkpoints = new SessionCheckpoints({
			cwd: this.cwd,
			sessionManager: this.sessionManager,
			settingsManager: this.settingsManager,
			notice: (message) => this.events.emit({ type: "checkpoint_notice", message }),
		});

		this.agent = createSessionAgent({
			sessionId: this.sessionManager.getSessionId(),
			settingsManager: this.settingsManager,
			modelRegistry: this.modelRegistry,
			hooks: this.hooks,
			streamFn: this.streamFn,
			transformContext: (messages) => this.transformContext(messages),
		});
		// What most collaborators are built from.
		const parts = {
			agent: this.agent,
			sessionManager: this.sessionManager,
			settingsManager: this.settingsManager,
			modelRegistry: this.modelRegistry,
			hooks: this.hooks,
			streamFn: this.streamFn,
		};
		const session = this;

		this.models = new ModelController(
			{
				...parts,
				notifyModelSelect: (model, previousModel, source) =>
					void this.hooks.emit({ type: "model_select", model, previousModel, source }),
			},
			config.model,
			config.scopedModels,
		);
		this.tools = new SessionTools({
			agent: this.agent,
			cwd: this.cwd,
			shellEnvironment: this.shellEnvironment,
			bashOutputFiles: this.bashOutputFiles,
			bashSpawnHook: this.permissions.sandbox.spawnHook,
			settingsManager: this.settingsManager,
			resourceLoader: this.resourceLoader,
			hooks: this.hooks,
			tools: config.tools,
			customTools: config.customTools,
			...(config.mcp ? { mcpTools: () => config.mcp?.getTools() ?? [] } : {}),
			wrapTool: (tool) => this.checkpoints.wrapTool(tool),
		});
		if (config.mcp) this.unsubscribers.push(config.mcp.onToolsChanged(() => this.tools.refresh()));
		this.events = new SessionEventPipeline({
			...parts,
			onQueuedTextDelivered: (text) => this.prompts.noteDelivered(text),
			onUserMessageStart: () => this.compaction.noteUserMessageStart(),
			onAssistantMessageEnd: (message) => {
				this.retry.noteAssistantMessageEnd(message);
				this.compaction.noteAssistantMessageEnd(message);
			},
			afterRun: (message) => this.afterRun(message),
			beforeRecordMessage: (message) => this.checkpoints.beforeRecordMessage(message),
		});
		this.retry = new RetryController({
			...parts,
			getRetrySettings: () => this.settingsManager.getRetrySettings(),
			getContextWindow: () => (this.model ? this.compaction.contextWindowOf(this.model) : undefined),
			emit: (event) => this.events.emit(event),
			drainEvents: () => this.events.drain(),
			afterGivingUp: (failure) => this.compaction.checkCompaction(failure, { allowResume: true }),
		});
		this.compaction = new CompactionController({
			...parts,
			get model() {
				return session.model;
			},
			getApiKey: (model) => this.modelRegistry.getApiKey(model),
			emit: (event) => this.events.emit(event),
			rebuildAgentMessages: () => this.rebuildAgentMessages(),
			resumeAgent: () => this.events.resumeAgent(),
		});
		this.navigator = new SessionNavigator({
			...parts,
			models: this.models,
			getApiKey: (model) => this.modelRegistry.getApiKey(model),
			stopRun: () => this.stopRunWithoutFollowOn(),
			resetRuntime: () => this.resetRuntime(),
			rebuildAgentMessages: () => this.rebuildAgentMessages(),
		});

		this.userBash = new UserBashController({
			...parts,
			cwd: this.cwd,
			shellEnvironment: this.shellEnvironment,
			bashOutputFiles: this.bashOutputFiles,
			isAgentStreaming: () => this.agent.state.isStreaming,
			appendMessage: (message) => {
				this.agent.appendMessage(message);
				this.checkpoints.beforeRecordMessage(message);
				this.sessionManager.appendMessage(message);
			},
			commands: this.checkpoints.commands,
		});
		this.prompts = new PromptController({
			...parts,
			resourceLoader: this.resourceLoader,
			get model() {
				return session.model;
			},
			// A running compaction is busy too: a prompt would race it for the session's context.
			get isStreaming() {
				return session.isStreaming || session.isCompacting;
			},
			get baseSystemPrompt() {
				return session.tools.baseSystemPrompt;
			},
			flushPendingBashMessages: () => this.userBash.flushPending(),
			expandMcpPrompt: (text) => this.mcp?.expandPromptCommand(text) ?? Promise.resolve(undefined),
			checkCompactionBeforePrompt: (lastAssistant) =>
				this.compaction.checkCompaction(lastAssistant, { skipAbortedCheck: true, allowResume: false }),
			settle: () => this.events.settle(),
			emitMessageEvents: (message) => {
				this.events.emit({ type: "message_start", message });
				this.events.emit({ type: "message_end", message });
			},
			reportExtensionError: (error) => this.reportExtensionError(error),
		});

		this.agent.setBeforeToolCall(async (context, signal) => {
			const hooked = await this.events.beforeToolCall(context);
			if (hooked?.block) return hooked;
			// After the `tool_call` handlers (they may change the arguments), with the calling message recorded.
			await this.events.drain();
			const toolCall = { toolCallId: context.toolCall.id, toolName: context.toolCall.name };
			const refusal = await this.permissions.check(
				{ ...toolCall, args: context.args as Record<string, unknown> },
				signal,
			);
			return refusal === undefined ? undefined : { block: true, reason: refusal };
		});
		this.agent.setAfterToolCall((context) => this.events.afterToolCall(context));
		this.unsubscribers.push(this.hooks.onError((error) => this.reportExtensionError(error)));
		this.navigator.initializeSession(config.thinkingLevel);
		this.hooks.bindSession(this);
	}

	// ── State ───────────────────────────────────────────────────────────────────────────────────────────────

	get model(): Model | undefined {
		return this.models.model;
	}

	get thinkingLevel(): ThinkingLevel {
		return this.agent.state.thinkingLevel;
	}

	/** A run is in progress, or about to continue (retry backoff, compaction followed by a retry). */
	get isStreaming(): boolean {
		return this.agent.state.isStreaming || this.events.hasFollowOnWork || this.prompts.isStarting;
	}

	/** Manual or automatic compaction, or a branch summary, is running. */
	get isCompacting(): boolean {
		return this.compaction.isCompacting || this.navigator.isSummarizing;
	}

	get isRetrying(): boolean {
		return this.retry.isRetrying;
	}

	get retryAttempt(): number {
		return this.retry.attempt;
	}

	get isBashRunning(): boolean {
		return this.userBash.isRunning;
	}

	/** The agent's context: what is converted and sent on the next model call. */
	get messages(): AgentMessage[] {
		return this.agent.state.messages;
	}

	/** The base system prompt of the active tools and resources. */
	get systemPrompt(): string {
		return this.agent.state.systemPrompt || this.tools.baseSystemPrompt;
	}

	get sessionFile(): string | undefined {
		return this.sessionManager.getSessionFile();
	}

	get sessionId(): string {
		return this.sessionManager.getSessionId();
	}

	get sessionName(): string | undefined {
		return this.sessionManager.getSessionName();
	}

	get steeringMode(): "all" | "one-at-a-time" {
		return this.agent.getSteeringMode();
	}

	get followUpMode(): "all" | "one-at-a-time" {
		return this.agent.getFollowUpMode();
	}

	get autoCompactionEnabled(): boolean {
		return this.settingsManager.getCompactionEnabled();
	}

	get autoRetryEnabled(): boolean {
		return this.settingsManager.getRetryEnabled();
	}

	get scopedModels(): readonly ScopedModel[] {
		return this.models.scopedModels;
	}

	/** Queued steering plus follow-up messages. */
	get pendingMessageCount(): number {
		return this.prompts.pendingMessageCount;
	}

	getSteeringMessages(): readonly string[] {
		return this.prompts.getSteeringMessages();
	}

	getFollowUpMessages(): readonly string[] {
		return this.prompts.getFollowUpMessages();
	}

	/** Listeners run synchronously, in order, after extensions saw the event. Returns the unsubscribe function. */
	subscribe(listener: AgentSessionEventListener): () => void {
		return this.events.subscribe(listener);
	}

	// ── Prompting and queues (docs/rpc.md "prompt") ─────────────────────────────────────────────────────────────

	/**
	 * Sends a message (docs/rpc.md "prompt"): an extension command runs at once, even while streaming; otherwise
	 * `input` handlers, `/skill:` and `/template` expansion, then — while streaming — the message is queued as
	 * `streamingBehavior` says (or rejected without it), else a new run starts. Resolves when the run, its
	 * tools, and any automatic retry or compaction-and-retry have finished.
	 */
	prompt(text: string, options: PromptOptions = {}): Promise<void> {
		this.mcp?.start();
		this.checkpoints.prepare();
		return this.prompts.prompt(text, options);
	}

	/**
	 * Queues a message that interrupts the run (remaining tool calls are skipped); while idle it waits for
	 * the next prompt. Throws for extension commands, which cannot be queued.
	 */
	async steer(text: string, images?: ImageContent[]): Promise<void> {
		this.prompts.steer(text, images);
	}

	/** Queues a message delivered when the run would otherwise stop. Throws for extension commands. */
	async followUp(text: string, images?: ImageContent[]): Promise<void> {
		this.prompts.followUp(text, images);
	}

	/** Empties both queues and returns their texts (for an editor to take them back). */
	clearQueue(): { steering: string[]; followUp: string[] } {
		return this.prompts.clearQueue();
	}

	/**
	 * Stops the current model call and tools, cancels a retry wait and an automatic compaction, and resolves
	 * once the agent is idle and the run's events have been delivered. Queued messages stay queued.
	 */
	async abort(): Promise<void> {
		this.events.cancelPendingResume();
		this.retry.abortRetry();
		this.compaction.abortAuto();
		this.agent.abort();
		await this.agent.waitForIdle();
		await this.events.settle();
	}

	/** Resolves when no run, retry or automatic compaction is in progress. */
	async waitForIdle(): Promise<void> {
		await this.agent.waitForIdle();
		await this.events.settle();
	}

	/** An extension's message (`sendMessage`, docs/extensions.md "`ExtensionAPI`"). */
	sendCustomMessage(
		message: CustomMessageInput,
		options?: { triggerTurn?: boolean; deliverAs?: MessageDelivery | "nextTurn" },
	): Promise<void> {
		return this.prompts.sendCustomMessage(message, options);
	}

	/** A user message from an extension: typed input without command/skill/template expansion. */
	sendUserMessage(
		content: string | (TextContent | ImageContent)[],
		options?: { deliverAs?: MessageDelivery },
	): Promise<void> {
		return this.prompts.sendUserMessage(content, options);
	}

	// ── Model and thinking level ────────────────────────────────────────────────────────

	/** Throws `No API key for <provider>/<id>` when the model's provider has no key. */
	setModel(model: Model): Promise<void> {
		return this.models.setModel(model);
	}

	trySetModel(model: Model): Promise<boolean> {
		return this.models.trySetModel(model);
	}

	cycleModel(direction: "forward" | "backward" = "forward"): Promise<ModelCycleResult | undefined> {
		return this.models.cycleModel(direction);
	}

	getAvailableModels(): Model[] {
		return this.models.getAvailableModels();
	}

	setScopedModels(models: readonly ScopedModel[]): void {
		this.models.setScopedModels(models);
	}

	setThinkingLevel(level: ThinkingLevel): void {
		this.models.setThinkingLevel(level);
	}

	cycleThinkingLevel(): ThinkingLevel | undefined {
		return this.models.cycleThinkingLevel();
	}

	getAvailableThinkingLevels(): ThinkingLevel[] {
		return this.models.getAvailableThinkingLevels();
	}

	supportsThinking(): boolean {
		return this.models.supportsThinking();
	}

	setSteeringMode(mode: "all" | "one-at-a-time"): void {
		this.agent.setSteeringMode(mode);
		this.settingsManager.setSteeringMode(mode);
	}

	setFollowUpMode(mode: "all" | "one-at-a-time"): void {
		this.agent.setFollowUpMode(mode);
		this.settingsManager.setFollowUpMode(mode);
	}

	// ── Compaction and retry (docs/compaction.md) ───────────────────────────────────────────────────────────

	/** `/compact [instructions]`: stops the current run, summarizes the branch, returns the result. */
	async compact(customInstructions?: string): Promise<CompactionResult> {
		if (this.isCompacting) throw new Error(COMPACTION_IN_PROGRESS_TEXT);
		await this.stopRunWithoutFollowOn({ keepAutoCompaction: true });
		return this.compaction.compactNow(customInstructions);
	}

	/** Cancels a running compaction (manual or automatic) or branch summary. */
	abortCompaction(): void {
		this.compaction.abort();
		this.navigator.abortBranchSummary();
	}

	setAutoCompactionEnabled(enabled: boolean): void {
		this.settingsManager.setCompactionEnabled(enabled);
	}

	setAutoRetryEnabled(enabled: boolean): void {
		this.settingsManager.setRetryEnabled(enabled);
	}

	/** Cancels a retry's backoff wait (`auto_retry_end` with "Retry cancelled"). */
	abortRetry(): void {
		this.retry.abortRetry();
	}

	/** The stall watchdog's timeout for later model calls (0 disables it). */
	setStreamStallTimeout(ms: number): void {
		this.stallTimeoutMs = ms;
	}

	// ── User bash ─────────────────────────────────────────────────────────────────────

	/**
	 * Runs a command of the user's (`!cmd`; `excludeFromContext` for `!!cmd`) and records a `bashExecution`
	 * message: appended at once when idle, held until the next prompt while the agent streams.
	 */
	executeBash(
		command: string,
		onChunk?: (text: string) => void,
		options: { excludeFromContext?: boolean; operations?: BashOperations } = {},
	): Promise<BashResult> {
		return this.userBash.execute(command, onChunk, options);
	}

	/** Kills the running user command's process tree; its result comes back `cancelled`. */
	abortBash(): void {
		this.userBash.abort();
	}

	/** Records a command's result the caller ran itself (e.g. a `user_bash` handler's) as `executeBash` would. */
	recordBashResult(command: string, result: BashResult, options?: { excludeFromContext?: boolean }): void {
		this.userBash.record(command, result, options);
	}

	get hasPendingBashMessages(): boolean {
		return this.userBash.hasPending;
	}

	// ── Sessions and the tree ─────────────────────────────────────────────

	async newSession(options?: NewSessionRequest): Promise<boolean> {
		const changed = await this.navigator.newSession(options);
		this.agent.sessionId = this.sessionId;
		if (changed) this.checkpoints.sessionChanged();
		return changed;
	}

	async switchSession(sessionPath: string): Promise<boolean> {
		const changed = await this.navigator.switchSession(sessionPath);
		this.agent.sessionId = this.sessionId;
		if (changed) this.checkpoints.sessionChanged();
		return changed;
	}

	/** Ours: `restoreFiles` also puts the files back as they were before the message (docs/checkpoints.md). */
	async fork(entryId: string, options: ForkOptions = {}): Promise<ForkResult> {
		if (options.restoreFiles && this.isStreaming) throw new Error(RESTORE_WHILE_BUSY_TEXT);
		return this.checkpoints.fork(entryId, options, async () => {
			const result = await this.navigator.fork(entryId);
			this.agent.sessionId = this.sessionId;
			// The run is not stopped: results still to come are recorded in the new session, with their changes.
			if (!result.cancelled) this.checkpoints.sessionChanged({ keepPending: true });
			return result;
		});
	}

	/** A new session holding the active branch up to here (RPC `clone`); `session_before_fork` may cancel it. */
	async clone(): Promise<{ cancelled: boolean }> {
		const result = await this.navigator.clone();
		this.agent.sessionId = this.sessionId;
		return result;
	}

	getUserMessagesForForking(): { entryId: string; text: string }[] {
		return this.navigator.getUserMessagesForForking();
	}

	/** Ours: `restoreFiles` also puts the files back as they were at the new position (docs/checkpoints.md). */
	navigateTree(targetId: string, options: NavigateTreeOptions = {}): Promise<NavigateTreeResult> {
		return this.checkpoints.navigateTree(targetId, options, (navigateOptions) =>
			this.navigator.navigateTree(targetId, navigateOptions),
		);
	}

	// ── File checkpoints (docs/checkpoints.md) ──────────────────────────────────────────────────────────────

	/** The file checkpoints of the current branch, oldest first. */
	getCheckpoints(): CheckpointSummary[] {
		return this.checkpoints.list();
	}

	/**
	 * Puts the files back as they were at entry `entryId` (the conversation stays where it is). With conflicts
	 * and without `force` nothing is written. Throws while the agent works and for an unknown entry.
	 */
	restoreFiles(entryId: string, options: FileRestoreOptions = {}): FileRestoreResult {
		if (!this.sessionManager.getEntry(entryId)) throw new Error(`Entry ${entryId} not found`);
		if (!options.dryRun && this.isStreaming) throw new Error(RESTORE_WHILE_BUSY_TEXT);
		return this.checkpoints.restoreTo(entryId, options);
	}

	/** `/undo`: the files of the last turn that changed any go back to how they were before it. */
	undoFiles(options: FileRestoreOptions = {}): UndoResult {
		if (!options.dryRun && this.isStreaming) throw new Error(RESTORE_WHILE_BUSY_TEXT);
		return this.checkpoints.undo(options);
	}

	/** Trims the name; throws `Session name cannot be empty`. */
	setSessionName(name: string): void {
		const trimmed = name.trim();
		if (!trimmed) throw new Error("Session name cannot be empty");
		this.sessionManager.appendSessionInfo(trimmed);
	}

	setLabel(entryId: string, label: string | undefined): void {
		this.sessionManager.appendLabelChange(entryId, label);
	}

	// ── Queries ────────────────────────────────────────────────────────────────

	getSessionStats(): SessionStats {
		const sessionFile = this.sessionManager.isPersisted() ? this.sessionFile : undefined;
		return computeSessionStats(this.messages, {
			sessionId: this.sessionId,
			...(sessionFile !== undefined ? { sessionFile } : {}),
		});
	}

	getContextUsage(): ContextUsage | undefined {
		// A window an overflow error revealed counts for the rest of the session.
		const model = this.model && { ...this.model, contextWindow: this.compaction.contextWindowOf(this.model) };
		return computeContextUsage(model, this.messages, this.sessionManager.getBranch());
	}

	/** The text of the last reply in context (aborted empty replies skipped), trimmed; undefined when empty. */
	getLastAssistantText(): string | undefined {
		return findLastAssistantText(this.messages);
	}

	getCommands(): SlashCommandInfo[] {
		return listSlashCommands(
			this.hooks.getCommands(),
			this.resourceLoader.getPrompts().prompts,
			this.resourceLoader.getSkills().skills,
			this.mcp?.getPromptCommands() ?? [],
		);
	}

	// ── MCP servers (docs/mcp.md) ───────────────────────────────────────────────────────────────────────────

	/** Each configured MCP server: state, tools, prompts, last error (RPC `get_mcp_servers`, `/mcp`). */
	getMcpServers(): McpServerStatus[] {
		return this.mcp?.getServers() ?? [];
	}

	/** Stops and starts an MCP server again, its failure count reset. Throws for an unknown name. */
	restartMcpServer(name: string): Promise<void> {
		if (!this.mcp) return Promise.reject(new Error(`Unknown MCP server "${name}"`));
		return this.mcp.restart(name);
	}

	/** MCP server failures and authorization requests, for the mode to show (earlier ones are delivered first). */
	onMcpNotice(listener: (notice: McpNotice) => void): () => void {
		return this.mcp?.onNotice(listener) ?? (() => {});
	}

	// ── Tools and resources ─────────────────────────────────────────────────────────────────────────────────

	getActiveToolNames(): string[] {
		return this.tools.getActiveToolNames();
	}

	getAllTools(): { name: string; description: string; parameters: unknown }[] {
		return this.tools.getAllTools();
	}

	/** Changes the active tools and rebuilds the system prompt. Unknown names are ignored. */
	setActiveToolsByName(names: string[]): void {
		this.tools.setActiveToolsByName(names);
	}

	refreshTools(): void {
		this.tools.refresh();
	}

	/**
	 * Tells extensions the session is ready (`session_start`, then `resources_discover`) and starts the MCP
	 * servers. Modes call this once their UI is bound; until then extension handlers for these events have not
	 * run.
	 */
	async bindExtensions(): Promise<void> {
		// MCP servers start here (or with the first prompt), in the background: after the terminal UI drew its
		// first frame, so three servers booting do not compete with it for the CPU.
		this.mcp?.start();
		await this.hooks.emit({ type: "session_start" });
		await this.tools.discoverExtensionResources("startup");
	}

	/** `/reload`: settings, models, resources and extensions are read again. */
	async reload(): Promise<void> {
		await this.hooks.emit({ type: "session_shutdown" });
		await this.settingsManager.reload();
		this.modelRegistry.refresh();
		await this.resourceLoader.reload();
		await this.hooks.reload();
		await this.mcp?.reload();
		this.tools.refresh();
		await this.hooks.emit({ type: "session_start" });
		await this.tools.discoverExtensionResources("reload");
	}

	/** Ends the session: `session_shutdown`, the run stopped, settings written, the session file released. */
	async shutdown(): Promise<void> {
		await this.hooks.emit({ type: "session_shutdown" });
		await this.abort();
		await this.settingsManager.flush();
		this.sessionManager.close();
		await this.mcp?.dispose();
		this.dispose();
	}

	/**
	 * Detaches from the agent and extensions (listeners get nothing more), stops the MCP servers and removes
	 * bash full-output files.
	 */
	// ── Members of the reference's AgentSession that embedders use ──────────────────────────────────────────

	/** The agent's state: messages, model, thinking level, tools, system prompt, streaming flags. */
	get state(): AgentState {
		return this.agent.state;
	}

	get promptTemplates(): ReadonlyArray<PromptTemplate> {
		return this.resourceLoader.getPrompts().prompts;
	}

	/** The extension runner, when the session's hooks are one (sessions built with extensions). */
	get extensionRunner(): ExtensionRunner | undefined {
		// By shape, not instanceof: the runner's module is loaded only when there are extensions.
		const hooks = this.hooks as Partial<ExtensionRunner>;
		return typeof hooks.getExtensions === "function" && hooks.runtime ? (this.hooks as ExtensionRunner) : undefined;
	}

	hasExtensionHandlers(eventType: string): boolean {
		return this.hooks.hasHandlers(eventType as ExtensionEventType);
	}

	supportsXhighThinking(): boolean {
		return this.getAvailableThinkingLevels().includes("xhigh");
	}

	abortBranchSummary(): void {
		this.navigator.abortBranchSummary();
	}

	/** Writes the session as an HTML page (see `/export`); returns the file's path. */
	async exportToHtml(outputPath?: string): Promise<string> {
		const { exportAgentSessionToHtml } = await import("./export-html/export-session.js");
		return exportAgentSessionToHtml(this, outputPath);
	}

	dispose(): void {
		for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
		this.events.dispose();
		this.bashOutputFiles.dispose();
		this.checkpoints.dispose();
		void this.mcp?.dispose();
	}

	// ── Internals ───────────────────────────────────────────────────────────────────────────────────────────

	private async transformContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
		if (!this.hooks.hasHandlers("context")) return messages;
		// Handlers see this turn's `turn_start` and message events before `context` (docs/extensions.md "Events").
		await this.events.drain();
		return this.hooks.emitContext(structuredClone(messages));
	}

	/** After a run: retry a transient failure, else check compaction. Returns the follow-on work, if any. */
	private afterRun(lastAssistant: AssistantMessage | undefined): Promise<void> | undefined {
		if (!lastAssistant) return undefined;
		if (this.retry.shouldRetry(lastAssistant)) return this.retry.start(lastAssistant);
		if (this.retry.isRetrying) return undefined;
		return this.compaction.checkCompaction(lastAssistant, { allowResume: true });
	}

	private rebuildAgentMessages(): void {
		this.agent.replaceMessages(this.sessionManager.buildSessionContext().messages);
	}

	/** Aborts the run and waits until its events are recorded; no retry or compaction follows it. */
	private async stopRunWithoutFollowOn(options: { keepAutoCompaction?: boolean } = {}): Promise<void> {
		this.events.cancelPendingResume();
		this.retry.abortRetry();
		if (!options.keepAutoCompaction) this.compaction.abortAuto();
		await this.events.withoutFollowOnWork(async () => {
			this.agent.abort();
			await this.agent.waitForIdle();
		});
		await this.events.settle();
	}

	private resetRuntime(): void {
		this.agent.reset();
		this.prompts.reset();
		this.userBash.reset();
	}

	private reportExtensionError(error: ExtensionError): void {
		this.events.emit({
			type: "extension_error",
			extensionPath: error.extensionPath,
			event: error.event,
			error: error.error,
		});
	}
}
