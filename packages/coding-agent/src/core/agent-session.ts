// The runtime every mode shares: an Agent wired to a session file, settings, models, resources, tools and
// extensions. Modes send commands in (prompt, steer, abort, setModel, compact, …) and render the events that
// come out (`subscribe`). The work is split over collaborators in ./session-runtime/ (prompts and queues,
// compaction, retry, models and thinking levels, tools and the system prompt, user bash, navigation), which
// session-wiring.ts builds and connects.
import type { Agent, AgentMessage, AgentState, QueueMode, StreamFn, ThinkingLevel } from "@agent/agent-core";
import type { ImageContent, Model, TextContent } from "@agent/ai";
import type { AgentSessionConfig } from "./agent-session-config.js";
import type { SessionCheckpoints } from "./checkpoints/session-checkpoints.js";
import type { CheckpointSummary, FileRestoreOptions, FileRestoreResult, UndoResult } from "./checkpoints/types.js";
import type { CompactionResult } from "./compaction/compaction.js";
import type { ModelRegistry } from "./config/model-registry.js";
import type { ScopedModel } from "./config/model-resolver.js";
import type { SettingsManager } from "./config/settings-manager.js";
import type {
	CustomMessageInput,
	ExtensionEventType,
	ExtensionHooks,
	ExtensionSessionBinding,
} from "./extensions/hooks.js";
import type { ExtensionRunner } from "./extensions/runner.js";
import type { McpManager } from "./mcp/manager.js";
import type { McpNotice, McpServerStatus } from "./mcp/status.js";
import type { SessionPermissions } from "./permissions/session-permissions.js";
import type { PromptTemplate } from "./resources/prompt-templates.js";
import type { ResourceLoader } from "./resources/resource-loader.js";
import type { SessionManager } from "./session/session-manager.js";
import { COMPACTION_IN_PROGRESS_TEXT } from "./session-runtime/compaction-controller.js";
import type {
	AgentSessionEventListener,
	BashResult,
	ContextUsage,
	ForkOptions,
	ForkResult,
	MessageDelivery,
	ModelCycleResult,
	NavigateTreeOptions,
	NavigateTreeResult,
	NewSessionRequest,
	PromptOptions,
	SessionStats,
	SlashCommandInfo,
} from "./session-runtime/events.js";
import { listSlashCommands } from "./session-runtime/prompt-input.js";
import { computeContextUsage, computeSessionStats, findLastAssistantText } from "./session-runtime/session-stats.js";
import { type SessionRuntime, wireSessionRuntime } from "./session-runtime/session-wiring.js";
import { StateChangeNotifier } from "./session-runtime/state-changes.js";
import type { BashOperations } from "./tools/bash-executor.js";

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

	private readonly runtime: SessionRuntime;
	private readonly stateChanges = new StateChangeNotifier();

	constructor(config: AgentSessionConfig) {
		this.cwd = config.cwd;
		this.sessionManager = config.sessionManager;
		this.settingsManager = config.settingsManager;
		this.modelRegistry = config.modelRegistry;
		this.resourceLoader = config.resourceLoader;
		this.mcp = config.mcp;
		this.runtime = wireSessionRuntime(config);
		({
			agent: this.agent,
			hooks: this.hooks,
			streamFn: this.streamFn,
			permissions: this.permissions,
			checkpoints: this.checkpoints,
		} = this.runtime);
		this.hooks.bindSession(this);
	}

	// ── State ───────────────────────────────────────────────────────────────────────────────────────────────

	get model(): Model | undefined {
		return this.runtime.models.model;
	}

	/**
	 * Ours: loads the model's provider (its adapter and SDK, Node's fetch) ahead of the first call, resolving when
	 * done: the interactive, RPC and ACP modes start it while they wait for a first prompt. Nothing for a session
	 * given a stream function of its own, or whose model's API has a custom provider. It never rejects.
	 */
	preloadProvider(): Promise<void> {
		return this.runtime.preloadProvider();
	}

	get thinkingLevel(): ThinkingLevel {
		return this.agent.state.thinkingLevel;
	}

	/** A run is in progress, or about to continue (retry backoff, compaction followed by a retry). */
	get isStreaming(): boolean {
		return this.runtime.isStreaming();
	}

	/** Manual or automatic compaction, or a branch summary, is running. */
	get isCompacting(): boolean {
		return this.runtime.isCompacting();
	}

	get isRetrying(): boolean {
		return this.runtime.retry.isRetrying;
	}

	get retryAttempt(): number {
		return this.runtime.retry.attempt;
	}

	get isBashRunning(): boolean {
		return this.runtime.userBash.isRunning;
	}

	/** The agent's context: what is converted and sent on the next model call. */
	get messages(): AgentMessage[] {
		return this.agent.state.messages;
	}

	/** The base system prompt of the active tools and resources. */
	get systemPrompt(): string {
		return this.agent.state.systemPrompt || this.runtime.tools.baseSystemPrompt;
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

	get steeringMode(): QueueMode {
		return this.agent.getSteeringMode();
	}

	get followUpMode(): QueueMode {
		return this.agent.getFollowUpMode();
	}

	get autoCompactionEnabled(): boolean {
		return this.settingsManager.getCompactionEnabled();
	}

	get autoRetryEnabled(): boolean {
		return this.settingsManager.getRetryEnabled();
	}

	get scopedModels(): readonly ScopedModel[] {
		return this.runtime.models.scopedModels;
	}

	/** Queued steering plus follow-up messages. */
	get pendingMessageCount(): number {
		return this.runtime.prompts.pendingMessageCount;
	}

	getSteeringMessages(): readonly string[] {
		return this.runtime.prompts.getSteeringMessages();
	}

	getFollowUpMessages(): readonly string[] {
		return this.runtime.prompts.getFollowUpMessages();
	}

	/** Listeners run synchronously, in order, after extensions saw the event. Returns the unsubscribe function. */
	subscribe(listener: AgentSessionEventListener): () => void {
		return this.runtime.events.subscribe(listener);
	}

	/**
	 * Called after a method of the session changed what a status line shows (model, thinking level, the session
	 * and its name, the branch, compaction, settings): not an event of the wire, which only reports runs.
	 * Returns the unsubscribe function.
	 */
	onStateChange(listener: () => void): () => void {
		return this.stateChanges.subscribe(listener);
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
		return this.runtime.prompts.prompt(text, options);
	}

	/**
	 * Queues a message that interrupts the run (remaining tool calls are skipped); while idle it waits for
	 * the next prompt. Throws for extension commands, which cannot be queued.
	 */
	async steer(text: string, images?: ImageContent[]): Promise<void> {
		this.runtime.prompts.steer(text, images);
	}

	/** Queues a message delivered when the run would otherwise stop. Throws for extension commands. */
	async followUp(text: string, images?: ImageContent[]): Promise<void> {
		this.runtime.prompts.followUp(text, images);
	}

	/** Empties both queues and returns their texts (for an editor to take them back). */
	clearQueue(): { steering: string[]; followUp: string[] } {
		return this.runtime.prompts.clearQueue();
	}

	/**
	 * Stops the current model call and tools, cancels a retry wait and an automatic compaction, and resolves
	 * once the agent is idle and the run's events have been delivered. Queued messages stay queued.
	 */
	abort(): Promise<void> {
		return this.runtime.abort();
	}

	/** Resolves when no run, retry or automatic compaction is in progress. */
	waitForIdle(): Promise<void> {
		return this.runtime.waitForIdle();
	}

	/** An extension's message (`sendMessage`, docs/extensions.md "`ExtensionAPI`"). */
	sendCustomMessage(
		message: CustomMessageInput,
		options?: { triggerTurn?: boolean; deliverAs?: MessageDelivery | "nextTurn" },
	): Promise<void> {
		return this.runtime.prompts.sendCustomMessage(message, options);
	}

	/** A user message from an extension: typed input without command/skill/template expansion. */
	sendUserMessage(
		content: string | (TextContent | ImageContent)[],
		options?: { deliverAs?: MessageDelivery },
	): Promise<void> {
		return this.runtime.prompts.sendUserMessage(content, options);
	}

	// ── Model and thinking level ────────────────────────────────────────────────────────

	/** Throws `No API key for <provider>/<id>` when the model's provider has no key. */
	setModel(model: Model): Promise<void> {
		return this.stateChanges.notifyAfter(() => this.runtime.models.setModel(model));
	}

	trySetModel(model: Model): Promise<boolean> {
		return this.stateChanges.notifyAfter(() => this.runtime.models.trySetModel(model));
	}

	cycleModel(direction: "forward" | "backward" = "forward"): Promise<ModelCycleResult | undefined> {
		return this.stateChanges.notifyAfter(() => this.runtime.models.cycleModel(direction));
	}

	getAvailableModels(): Model[] {
		return this.runtime.models.getAvailableModels();
	}

	setScopedModels(models: readonly ScopedModel[]): void {
		this.runtime.models.setScopedModels(models);
	}

	setThinkingLevel(level: ThinkingLevel): void {
		this.stateChanges.notifyAfter(() => this.runtime.models.setThinkingLevel(level));
	}

	cycleThinkingLevel(): ThinkingLevel | undefined {
		return this.stateChanges.notifyAfter(() => this.runtime.models.cycleThinkingLevel());
	}

	getAvailableThinkingLevels(): ThinkingLevel[] {
		return this.runtime.models.getAvailableThinkingLevels();
	}

	supportsThinking(): boolean {
		return this.runtime.models.supportsThinking();
	}

	setSteeringMode(mode: QueueMode): void {
		this.agent.setSteeringMode(mode);
		this.settingsManager.setSteeringMode(mode);
	}

	setFollowUpMode(mode: QueueMode): void {
		this.agent.setFollowUpMode(mode);
		this.settingsManager.setFollowUpMode(mode);
	}

	// ── Compaction and retry (docs/compaction.md) ───────────────────────────────────────────────────────────

	/** `/compact [instructions]`: stops the current run, summarizes the branch, returns the result. */
	async compact(customInstructions?: string): Promise<CompactionResult> {
		if (this.isCompacting) throw new Error(COMPACTION_IN_PROGRESS_TEXT);
		await this.runtime.stopRunWithoutFollowOn({ keepAutoCompaction: true });
		return this.stateChanges.notifyAfter(() => this.runtime.compaction.compactNow(customInstructions));
	}

	/** Cancels a running compaction (manual or automatic) or branch summary. */
	abortCompaction(): void {
		this.runtime.compaction.abort();
		this.runtime.navigator.abortBranchSummary();
	}

	setAutoCompactionEnabled(enabled: boolean): void {
		this.stateChanges.notifyAfter(() => this.settingsManager.setCompactionEnabled(enabled));
	}

	setAutoRetryEnabled(enabled: boolean): void {
		this.settingsManager.setRetryEnabled(enabled);
	}

	/** Cancels a retry's backoff wait (`auto_retry_end` with "Retry cancelled"). */
	abortRetry(): void {
		this.runtime.retry.abortRetry();
	}

	/** The stall watchdog's timeout for later model calls (0 disables it). */
	setStreamStallTimeout(ms: number): void {
		this.runtime.setStreamStallTimeout(ms);
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
		return this.stateChanges.notifyAfter(() => this.runtime.userBash.execute(command, onChunk, options));
	}

	/** Kills the running user command's process tree; its result comes back `cancelled`. */
	abortBash(): void {
		this.runtime.userBash.abort();
	}

	/** Records a command's result the caller ran itself (e.g. a `user_bash` handler's) as `executeBash` would. */
	recordBashResult(command: string, result: BashResult, options?: { excludeFromContext?: boolean }): void {
		this.stateChanges.notifyAfter(() => this.runtime.userBash.record(command, result, options));
	}

	get hasPendingBashMessages(): boolean {
		return this.runtime.userBash.hasPending;
	}

	// ── Sessions and the tree ─────────────────────────────────────────────

	async newSession(options?: NewSessionRequest): Promise<boolean> {
		const changed = await this.stateChanges.notifyAfter(() => this.runtime.navigator.newSession(options));
		this.agent.sessionId = this.sessionId;
		return changed;
	}

	async switchSession(sessionPath: string): Promise<boolean> {
		const changed = await this.stateChanges.notifyAfter(() => this.runtime.navigator.switchSession(sessionPath));
		this.agent.sessionId = this.sessionId;
		return changed;
	}

	/** Ours: `restoreFiles` also puts the files back as they were before the message (docs/checkpoints.md). */
	async fork(entryId: string, options: ForkOptions = {}): Promise<ForkResult> {
		if (options.restoreFiles && this.isStreaming) throw new Error(RESTORE_WHILE_BUSY_TEXT);
		return this.checkpoints.fork(entryId, options, async () => {
			const result = await this.stateChanges.notifyAfter(() => this.runtime.navigator.fork(entryId));
			this.agent.sessionId = this.sessionId;
			return result;
		});
	}

	/** A new session holding the active branch up to here (RPC `clone`); `session_before_fork` may cancel it. */
	async clone(): Promise<{ cancelled: boolean }> {
		const result = await this.stateChanges.notifyAfter(() => this.runtime.navigator.clone());
		this.agent.sessionId = this.sessionId;
		return result;
	}

	getUserMessagesForForking(): { entryId: string; text: string }[] {
		return this.runtime.navigator.getUserMessagesForForking();
	}

	/** Ours: `restoreFiles` also puts the files back as they were at the new position (docs/checkpoints.md). */
	navigateTree(targetId: string, options: NavigateTreeOptions = {}): Promise<NavigateTreeResult> {
		return this.stateChanges.notifyAfter(() =>
			this.checkpoints.navigateTree(targetId, options, (navigateOptions) =>
				this.runtime.navigator.navigateTree(targetId, navigateOptions),
			),
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
		this.stateChanges.notifyAfter(() => this.sessionManager.appendSessionInfo(trimmed));
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
		const model = this.model && { ...this.model, contextWindow: this.runtime.compaction.contextWindowOf(this.model) };
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
		return this.runtime.tools.getActiveToolNames();
	}

	getAllTools(): { name: string; description: string; parameters: unknown }[] {
		return this.runtime.tools.getAllTools();
	}

	/** Changes the active tools and rebuilds the system prompt. Unknown names are ignored. */
	setActiveToolsByName(names: string[]): void {
		this.runtime.tools.setActiveToolsByName(names);
	}

	refreshTools(): void {
		this.runtime.tools.refresh();
	}

	/**
	 * Tells extensions the session is ready (`session_start`, then `resources_discover`) and starts the MCP
	 * servers. Modes call this once their UI is bound; until then extension handlers for these events have not
	 * run.
	 */
	bindExtensions(): Promise<void> {
		return this.runtime.bindExtensions();
	}

	/** `/reload`: settings, models, resources and extensions are read again. */
	async reload(): Promise<void> {
		await this.runtime.reload();
		this.stateChanges.notify();
	}

	/** Ends the session: `session_shutdown`, the run stopped, settings written, the session file released. */
	async shutdown(): Promise<void> {
		await this.runtime.shutdown();
		this.dispose();
	}

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
		this.runtime.navigator.abortBranchSummary();
	}

	/** Writes the session as an HTML page (see `/export`); returns the file's path. */
	async exportToHtml(outputPath?: string): Promise<string> {
		const { exportAgentSessionToHtml } = await import("./export-html/export-session.js");
		return exportAgentSessionToHtml(this, outputPath);
	}

	/**
	 * Detaches from the agent and extensions (listeners get nothing more), stops the MCP servers and removes
	 * bash full-output files.
	 */
	dispose(): void {
		this.runtime.dispose();
		void this.mcp?.dispose();
	}
}
