// The runtime every mode shares: an Agent wired to a session file, settings, models, resources, tools and
// extensions. Modes send commands in (prompt, steer, abort, setModel, compact, …) and render the events that
// come out (`subscribe`). The work is split over collaborators in ./session-runtime/: compaction, retry,
// models and thinking levels, the tool set and system prompt, user bash, and session navigation.
import { join } from "node:path";
import { Agent, type AgentMessage, type AgentTool, type StreamFn, type ThinkingLevel } from "@agent/agent-core";
import { type AssistantMessage, type ImageContent, type Model, streamSimple, type TextContent } from "@agent/ai";
import type { CompactionResult } from "./compaction/compaction.js";
import type { ModelRegistry } from "./config/model-registry.js";
import type { ScopedModel } from "./config/model-resolver.js";
import type { SettingsManager } from "./config/settings-manager.js";
import {
	type BashResult,
	type ContextUsage,
	type CustomMessageInput,
	type ExtensionError,
	type ExtensionHooks,
	type ExtensionSessionBinding,
	type ExtensionTool,
	type ForkResult,
	type MessageDelivery,
	type NavigateTreeOptions,
	type NavigateTreeResult,
	type NewSessionRequest,
	noopExtensionHooks,
	type SlashCommandInfo,
} from "./extensions/hooks.js";
import { type BashExecutionMessage, type CustomMessage, convertToLlm, createCustomMessage } from "./messages.js";
import { getDocsPath } from "./resources/package-docs.js";
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
import {
	expandPromptText,
	listSlashCommands,
	parseSlashCommand,
	splitMessageContent,
} from "./session-runtime/prompt-input.js";
import { RetryController } from "./session-runtime/retry-controller.js";
import { SessionEventPipeline } from "./session-runtime/session-event-pipeline.js";
import { SessionNavigator } from "./session-runtime/session-navigation.js";
import { computeContextUsage, computeSessionStats } from "./session-runtime/session-stats.js";
import { SessionTools } from "./session-runtime/session-tools.js";
import { DEFAULT_STREAM_STALL_TIMEOUT_MS, withStallWatchdog } from "./session-runtime/stall-watchdog.js";
import { createBashExecutionMessage, runUserBash } from "./session-runtime/user-bash.js";
import { type BashOperations, createLocalBashOperations } from "./tools/bash-executor.js";

export const STREAMING_WITHOUT_BEHAVIOR_TEXT =
	"Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

export function extensionCommandCannotBeQueuedText(name: string): string {
	return `Extension command "/${name}" cannot be queued. Use prompt() or execute the command when not streaming.`;
}

export function noModelSelectedPromptText(docsPath: string = getDocsPath()): string {
	return `No model selected.\n\nUse /login or set an API key environment variable. See ${join(docsPath, "providers.md")}\n\nThen use /model to select a model.`;
}

export function noApiKeyFoundText(provider: string, docsPath: string = getDocsPath()): string {
	return `No API key found for ${provider}.\n\nUse /login or set an API key environment variable. See ${join(docsPath, "providers.md")}`;
}

export function oauthAuthenticationFailedText(provider: string): string {
	return `Authentication failed for "${provider}". Credentials may have expired or network is unavailable. Run '/login ${provider}' to re-authenticate.`;
}

/** Everything an AgentSession is built from; `createAgentSession` fills in the defaults. */
export interface AgentSessionConfig {
	cwd: string;
	sessionManager: SessionManager;
	settingsManager: SettingsManager;
	modelRegistry: ModelRegistry;
	resourceLoader: ResourceLoader;
	/** Default: no extensions. */
	hooks?: ExtensionHooks;
	/** The model to start with; undefined when none could be chosen (prompts then fail with a clear error). */
	model?: Model;
	/** Requested level (clamped to the model); default: the session's recorded level, else the settings default. */
	thinkingLevel?: ThinkingLevel;
	/** Models for cycling (`--models`, `enabledModels`). */
	scopedModels?: ScopedModel[];
	/** Initially active built-in tools. Default: read, bash, edit, write for `cwd`. */
	tools?: AgentTool[];
	/** Additional tools (with optional prompt snippet and guidelines), active from the start. */
	customTools?: ExtensionTool[];
	/** The provider call. Default `streamSimple`; tests pass a FauxProvider's `stream`. */
	streamFn?: StreamFn;
	/**
	 * A model call whose stream is silent this long fails as retryable. Default: settings
	 * `retry.streamStallTimeoutMs`, else 120 s; 0 disables.
	 */
	streamStallTimeoutMs?: number;
}

/**
 * One conversation with the model, persisted as a session file. Every message and every model or
 * thinking-level change is recorded as an entry; compaction keeps long sessions within the context window;
 * transient provider failures are retried; extensions are called at the points extensions.md §3 names.
 */
export class AgentSession implements ExtensionSessionBinding {
	readonly agent: Agent;
	readonly cwd: string;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly modelRegistry: ModelRegistry;
	readonly resourceLoader: ResourceLoader;
	readonly hooks: ExtensionHooks;
	/** The stream function every model call goes through (the configured one wrapped in the stall watchdog). */
	readonly streamFn: StreamFn;

	private readonly models: ModelController;
	private readonly tools: SessionTools;
	private readonly retry: RetryController;
	private readonly compaction: CompactionController;
	private readonly navigator: SessionNavigator;
	private readonly events: SessionEventPipeline;
	private readonly unsubscribers: (() => void)[] = [];

	private baseSystemPrompt = "";
	private steeringTexts: string[] = [];
	private followUpTexts: string[] = [];
	/** `sendCustomMessage(…, {deliverAs: "nextTurn"})`: injected after the next user message. */
	private nextTurnMessages: CustomMessage[] = [];
	/** `!command` results that arrived while the agent was streaming; appended before the next prompt. */
	private pendingBashMessages: BashExecutionMessage[] = [];
	private bashAbort: AbortController | undefined;
	private stallTimeoutMs: number;

	constructor(config: AgentSessionConfig) {
		this.cwd = config.cwd;
		this.sessionManager = config.sessionManager;
		this.settingsManager = config.settingsManager;
		this.modelRegistry = config.modelRegistry;
		this.resourceLoader = config.resourceLoader;
		this.hooks = config.hooks ?? noopExtensionHooks;
		this.stallTimeoutMs =
			config.streamStallTimeoutMs ??
			config.settingsManager.getStreamStallTimeoutMs() ??
			DEFAULT_STREAM_STALL_TIMEOUT_MS;
		this.streamFn = withStallWatchdog(config.streamFn ?? streamSimple, () => this.stallTimeoutMs);

		const settings = this.settingsManager;
		this.agent = new Agent({
			convertToLlm: (messages) => convertToLlm(messages, { blockImages: settings.getBlockImages() }),
			transformContext: (messages) => this.transformContext(messages),
			streamFn: this.streamFn,
			sessionId: this.sessionManager.getSessionId(),
			getApiKey: (provider) => this.modelRegistry.getApiKeyForProvider(provider),
			onPayload: (payload, model) =>
				this.hooks.hasHandlers("before_provider_request")
					? this.hooks.emitBeforeProviderRequest(payload, model)
					: undefined,
			steeringMode: settings.getSteeringMode(),
			followUpMode: settings.getFollowUpMode(),
			thinkingBudgets: settings.getThinkingBudgets(),
			transport: settings.getTransport(),
			maxRetryDelayMs: settings.getRetrySettings().maxDelayMs,
		});

		this.models = new ModelController(
			{
				agent: this.agent,
				sessionManager: this.sessionManager,
				settingsManager: this.settingsManager,
				modelRegistry: this.modelRegistry,
				notifyModelSelect: (model, previousModel, source) =>
					void this.hooks.emit({ type: "model_select", model, previousModel, source }),
			},
			config.model,
			config.scopedModels,
		);
		this.tools = new SessionTools({
			cwd: this.cwd,
			settingsManager: this.settingsManager,
			resourceLoader: this.resourceLoader,
			hooks: this.hooks,
			tools: config.tools,
			customTools: config.customTools,
		});
		this.events = new SessionEventPipeline({
			agent: this.agent,
			sessionManager: this.sessionManager,
			hooks: this.hooks,
			onQueuedTextDelivered: (text) => this.removeQueuedText(text),
			onUserMessageStart: () => this.compaction.noteUserMessageStart(),
			onAssistantMessageEnd: (message) => {
				this.retry.noteAssistantMessageEnd(message);
				this.compaction.noteAssistantMessageEnd(message);
			},
			afterRun: (message) => this.afterRun(message),
		});
		this.retry = new RetryController({
			agent: this.agent,
			getRetrySettings: () => this.settingsManager.getRetrySettings(),
			getContextWindow: () => this.model?.contextWindow,
			emit: (event) => this.events.emit(event),
			drainEvents: () => this.events.drain(),
			afterGivingUp: (failure) => this.compaction.checkCompaction(failure, { allowResume: true }),
		});
		const session = this;
		this.compaction = new CompactionController({
			agent: this.agent,
			sessionManager: this.sessionManager,
			settingsManager: this.settingsManager,
			hooks: this.hooks,
			get model() {
				return session.model;
			},
			getApiKey: (model) => this.modelRegistry.getApiKey(model),
			streamFn: this.streamFn,
			emit: (event) => this.events.emit(event),
			rebuildAgentMessages: () => this.rebuildAgentMessages(),
			resumeAgent: () => this.events.resumeAgent(),
		});
		this.navigator = new SessionNavigator({
			agent: this.agent,
			sessionManager: this.sessionManager,
			settingsManager: this.settingsManager,
			modelRegistry: this.modelRegistry,
			hooks: this.hooks,
			models: this.models,
			streamFn: this.streamFn,
			getApiKey: (model) => this.modelRegistry.getApiKey(model),
			stopRun: () => this.stopRunDetached(),
			resetRuntime: () => this.resetRuntime(),
			rebuildAgentMessages: () => this.rebuildAgentMessages(),
		});

		this.agent.setBeforeToolCall((context) => this.events.beforeToolCall(context));
		this.agent.setAfterToolCall((context) => this.events.afterToolCall(context));
		this.unsubscribers.push(this.hooks.onError((error) => this.reportExtensionError(error)));
		this.initializeSessionState(config.thinkingLevel);
		this.applyTools();
		this.hooks.bindSession(this);
	}

	// ---------------------------------------------------------------------------------------------------------
	// State
	// ---------------------------------------------------------------------------------------------------------

	get model(): Model | undefined {
		return this.models.model;
	}

	get thinkingLevel(): ThinkingLevel {
		return this.agent.state.thinkingLevel;
	}

	/** A run is in progress, or about to continue (retry backoff, compaction followed by a retry). */
	get isStreaming(): boolean {
		return this.agent.state.isStreaming || this.events.hasFollowOnWork;
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
		return this.bashAbort !== undefined;
	}

	/** The agent's context: what is converted and sent on the next model call. */
	get messages(): AgentMessage[] {
		return this.agent.state.messages;
	}

	/** The base system prompt of the active tools and resources. */
	get systemPrompt(): string {
		return this.agent.state.systemPrompt || this.baseSystemPrompt;
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
		return this.steeringTexts.length + this.followUpTexts.length;
	}

	getSteeringMessages(): readonly string[] {
		return [...this.steeringTexts];
	}

	getFollowUpMessages(): readonly string[] {
		return [...this.followUpTexts];
	}

	/** Listeners run synchronously, in order, after extensions saw the event. Returns the unsubscribe function. */
	subscribe(listener: AgentSessionEventListener): () => void {
		return this.events.subscribe(listener);
	}

	// ---------------------------------------------------------------------------------------------------------
	// Prompting and queues (rpc.md §4.2–§4.4)
	// ---------------------------------------------------------------------------------------------------------

	/**
	 * Sends a message (rpc.md §4.2 step 3): an extension command runs at once, even while streaming; otherwise
	 * `input` handlers, `/skill:` and `/template` expansion, then — while streaming — the message is queued as
	 * `streamingBehavior` says (or rejected without it), else a new run starts. Resolves when the run, its
	 * tools, and any automatic retry or compaction-and-retry have finished.
	 */
	async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		const expandCommands = options.expandPromptTemplates !== false;
		if (expandCommands && (await this.tryRunExtensionCommand(text))) return;

		let images = options.images;
		if (this.hooks.hasHandlers("input")) {
			const input = await this.hooks.emitInput({
				text,
				...(images ? { images } : {}),
				source: options.source ?? "interactive",
			});
			if (input.action === "handled") return;
			if (input.action === "transform") {
				text = input.text;
				images = input.images ?? images;
			}
		}
		const expanded = expandCommands ? this.expandText(text) : text;

		if (this.isStreaming) {
			if (options.streamingBehavior === "steer") return this.queueUserMessage("steer", expanded, images);
			if (options.streamingBehavior === "followUp") return this.queueUserMessage("followUp", expanded, images);
			throw new Error(STREAMING_WITHOUT_BEHAVIOR_TEXT);
		}

		this.flushPendingBashMessages();
		const model = this.model;
		if (!model) throw new Error(noModelSelectedPromptText());
		await this.requirePromptApiKey(model);
		await this.checkCompactionBeforePrompt();

		const userMessage: AgentMessage = {
			role: "user",
			content: [{ type: "text", text: expanded }, ...(images ?? [])],
			timestamp: Date.now(),
		};
		const messages: AgentMessage[] = [userMessage, ...this.nextTurnMessages];
		this.nextTurnMessages = [];
		let systemPrompt = this.baseSystemPrompt;
		if (this.hooks.hasHandlers("before_agent_start")) {
			const result = await this.hooks.emitBeforeAgentStart({
				prompt: expanded,
				...(images ? { images } : {}),
				systemPrompt,
			});
			for (const message of result?.messages ?? []) {
				messages.push(
					createCustomMessage(message.customType, message.content, message.display, message.details, Date.now()),
				);
			}
			if (result?.systemPrompt !== undefined) systemPrompt = result.systemPrompt;
		}
		this.agent.setSystemPrompt(systemPrompt);
		await this.agent.prompt(messages);
		await this.events.settle();
	}

	/** Queues a message that interrupts the run (remaining tool calls are skipped). Works idle too. */
	async steer(text: string, images?: ImageContent[]): Promise<void> {
		this.rejectExtensionCommand(text);
		this.queueUserMessage("steer", this.expandText(text), images);
	}

	/** Queues a message delivered when the run would otherwise stop. Works idle too. */
	async followUp(text: string, images?: ImageContent[]): Promise<void> {
		this.rejectExtensionCommand(text);
		this.queueUserMessage("followUp", this.expandText(text), images);
	}

	/** Empties both queues and returns their texts (for an editor to take them back). */
	clearQueue(): { steering: string[]; followUp: string[] } {
		const cleared = { steering: this.steeringTexts, followUp: this.followUpTexts };
		this.steeringTexts = [];
		this.followUpTexts = [];
		this.agent.clearAllQueues();
		return cleared;
	}

	/**
	 * Stops the current model call and tools, cancels a retry wait and an automatic compaction, and resolves
	 * once the agent is idle and the run's events have been delivered. Queued messages stay queued.
	 */
	async abort(): Promise<void> {
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

	/** An extension's message (extensions.md §2 `sendMessage`). */
	async sendCustomMessage(
		input: CustomMessageInput,
		options: { triggerTurn?: boolean; deliverAs?: MessageDelivery | "nextTurn" } = {},
	): Promise<void> {
		const message = createCustomMessage(input.customType, input.content, input.display, input.details, Date.now());
		if (options.deliverAs === "nextTurn") {
			this.nextTurnMessages.push(message);
			return;
		}
		if (this.isStreaming) {
			if (options.deliverAs === "followUp") this.agent.followUp(message);
			else this.agent.steer(message);
			return;
		}
		if (options.triggerTurn) {
			await this.agent.prompt(message);
			await this.events.settle();
			return;
		}
		this.agent.appendMessage(message);
		this.sessionManager.appendCustomMessageEntry(
			message.customType,
			message.content,
			message.display,
			message.details,
		);
		this.events.emit({ type: "message_start", message });
		this.events.emit({ type: "message_end", message });
	}

	/** A user message from an extension: typed input without command/skill/template expansion. */
	async sendUserMessage(
		content: string | (TextContent | ImageContent)[],
		options: { deliverAs?: MessageDelivery } = {},
	): Promise<void> {
		const parts = splitMessageContent(content);
		await this.prompt(parts.text, {
			expandPromptTemplates: false,
			source: "extension",
			...(options.deliverAs ? { streamingBehavior: options.deliverAs } : {}),
			...(parts.images.length > 0 ? { images: parts.images } : {}),
		});
	}

	// ---------------------------------------------------------------------------------------------------------
	// Model and thinking level (rpc.md §4.7–§4.11)
	// ---------------------------------------------------------------------------------------------------------

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

	// ---------------------------------------------------------------------------------------------------------
	// Compaction and retry (rpc.md §4.12–§4.14)
	// ---------------------------------------------------------------------------------------------------------

	/** `/compact [instructions]`: stops the current run, summarizes the branch, returns the result. */
	async compact(customInstructions?: string): Promise<CompactionResult> {
		if (this.isCompacting) throw new Error(COMPACTION_IN_PROGRESS_TEXT);
		await this.stopRunDetached({ keepAutoCompaction: true });
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

	// ---------------------------------------------------------------------------------------------------------
	// User bash (rpc.md §4.15, §4.16)
	// ---------------------------------------------------------------------------------------------------------

	/**
	 * Runs a command of the user's (`!cmd`; `excludeFromContext` for `!!cmd`) and records a `bashExecution`
	 * message: appended at once when idle, held until the next prompt while the agent streams.
	 */
	async executeBash(
		command: string,
		onChunk?: (text: string) => void,
		options: { excludeFromContext?: boolean; operations?: BashOperations } = {},
	): Promise<BashResult> {
		const excludeFromContext = options.excludeFromContext === true;
		let operations = options.operations;
		let result: BashResult | undefined;
		if (this.hooks.hasHandlers("user_bash")) {
			const decision = await this.hooks.emitUserBash({ command, excludeFromContext, cwd: this.cwd });
			result = decision?.result;
			operations = decision?.operations ?? operations;
		}
		if (!result) {
			const controller = new AbortController();
			this.bashAbort = controller;
			try {
				result = await runUserBash(command, {
					cwd: this.cwd,
					operations: operations ?? createLocalBashOperations({ shellPath: this.settingsManager.getShellPath() }),
					commandPrefix: this.settingsManager.getShellCommandPrefix(),
					signal: controller.signal,
					...(onChunk ? { onChunk } : {}),
				});
			} finally {
				if (this.bashAbort === controller) this.bashAbort = undefined;
			}
		}
		this.recordBashExecution(createBashExecutionMessage(command, result, excludeFromContext));
		return result;
	}

	/** Kills the running user command's process tree; its result comes back `cancelled`. */
	abortBash(): void {
		this.bashAbort?.abort();
	}

	// ---------------------------------------------------------------------------------------------------------
	// Sessions and the tree (rpc.md §4.6, §4.19–§4.21, §4.23)
	// ---------------------------------------------------------------------------------------------------------

	newSession(options?: NewSessionRequest): Promise<boolean> {
		return this.navigator.newSession(options);
	}

	switchSession(sessionPath: string): Promise<boolean> {
		return this.navigator.switchSession(sessionPath);
	}

	fork(entryId: string): Promise<ForkResult> {
		return this.navigator.fork(entryId);
	}

	getUserMessagesForForking(): { entryId: string; text: string }[] {
		return this.navigator.getUserMessagesForForking();
	}

	navigateTree(targetId: string, options?: NavigateTreeOptions): Promise<NavigateTreeResult> {
		return this.navigator.navigateTree(targetId, options);
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

	// ---------------------------------------------------------------------------------------------------------
	// Queries (rpc.md §4.17, §4.22, §4.25)
	// ---------------------------------------------------------------------------------------------------------

	getSessionStats(): SessionStats {
		const sessionFile = this.sessionManager.isPersisted() ? this.sessionFile : undefined;
		return computeSessionStats(this.messages, {
			sessionId: this.sessionId,
			...(sessionFile !== undefined ? { sessionFile } : {}),
		});
	}

	getContextUsage(): ContextUsage | undefined {
		return computeContextUsage(this.model, this.messages, this.sessionManager.getBranch());
	}

	/** The text of the last reply in context (aborted empty replies skipped), trimmed; undefined when empty. */
	getLastAssistantText(): string | undefined {
		const messages = this.messages;
		for (let i = messages.length - 1; i >= 0; i--) {
			const message = messages[i] as AgentMessage;
			if (message.role !== "assistant") continue;
			if (message.stopReason === "aborted" && message.content.length === 0) continue;
			const text = message.content
				.filter((block) => block.type === "text")
				.map((block) => block.text)
				.join("")
				.trim();
			return text || undefined;
		}
		return undefined;
	}

	getCommands(): SlashCommandInfo[] {
		return listSlashCommands(
			this.hooks.getCommands(),
			this.resourceLoader.getPrompts().prompts,
			this.resourceLoader.getSkills().skills,
		);
	}

	// ---------------------------------------------------------------------------------------------------------
	// Tools and resources
	// ---------------------------------------------------------------------------------------------------------

	getActiveToolNames(): string[] {
		return this.tools.getActiveToolNames();
	}

	getAllTools(): { name: string; description: string; parameters: unknown }[] {
		return this.tools.getAllTools();
	}

	/** Changes the active tools and rebuilds the system prompt. Unknown names are ignored. */
	setActiveToolsByName(names: string[]): void {
		this.tools.setActiveToolsByName(names);
		this.applyTools();
	}

	refreshTools(): void {
		this.tools.refresh();
		this.applyTools();
	}

	/**
	 * Tells extensions the session is ready (`session_start`, then `resources_discover`). Modes call this once
	 * their UI is bound; until then extension handlers for these events have not run.
	 */
	async bindExtensions(): Promise<void> {
		await this.hooks.emit({ type: "session_start" });
		await this.discoverExtensionResources("startup");
	}

	/** `/reload`: settings, models, resources and extensions are read again. */
	async reload(): Promise<void> {
		await this.hooks.emit({ type: "session_shutdown" });
		await this.settingsManager.reload();
		this.modelRegistry.refresh();
		await this.resourceLoader.reload();
		await this.hooks.reload();
		this.tools.refresh();
		this.applyTools();
		await this.hooks.emit({ type: "session_start" });
		await this.discoverExtensionResources("reload");
	}

	/** Ends the session: `session_shutdown`, the run stopped, settings written, the session file released. */
	async shutdown(): Promise<void> {
		await this.hooks.emit({ type: "session_shutdown" });
		await this.abort();
		await this.settingsManager.flush();
		this.sessionManager.close();
		this.dispose();
	}

	/** Detaches from the agent and extensions; listeners get nothing more. */
	dispose(): void {
		for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
		this.events.dispose();
	}

	// ---------------------------------------------------------------------------------------------------------
	// Internals
	// ---------------------------------------------------------------------------------------------------------

	private initializeSessionState(requestedLevel: ThinkingLevel | undefined): void {
		const hasEntries = this.sessionManager.getEntries().length > 0;
		if (hasEntries) {
			this.navigator.restoreSessionState();
			if (requestedLevel !== undefined) this.models.setThinkingLevel(requestedLevel);
			return;
		}
		this.models.initializeThinkingLevel(requestedLevel ?? this.models.defaultThinkingLevel());
		const model = this.model;
		if (model) this.sessionManager.appendModelChange(model.provider, model.id);
		this.sessionManager.appendThinkingLevelChange(this.thinkingLevel);
	}

	private applyTools(): void {
		this.agent.setTools(this.tools.getActiveTools());
		this.baseSystemPrompt = this.tools.buildSystemPrompt();
		this.agent.setSystemPrompt(this.baseSystemPrompt);
	}

	private async discoverExtensionResources(reason: "startup" | "reload"): Promise<void> {
		if (!this.hooks.hasHandlers("resources_discover")) return;
		const paths = await this.hooks.emitResourcesDiscover({ cwd: this.cwd, reason });
		const found =
			(paths.skillPaths?.length ?? 0) + (paths.promptPaths?.length ?? 0) + (paths.themePaths?.length ?? 0);
		if (found === 0) return;
		this.resourceLoader.extendResources(paths, "extension");
		this.applyTools();
	}

	private async transformContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
		if (!this.hooks.hasHandlers("context")) return messages;
		// Handlers see this turn's `turn_start` and message events before `context` (extensions.md §3 order).
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

	private async checkCompactionBeforePrompt(): Promise<void> {
		const messages = this.messages;
		for (let i = messages.length - 1; i >= 0; i--) {
			const message = messages[i] as AgentMessage;
			if (message.role !== "assistant") continue;
			await this.compaction.checkCompaction(message, { skipAbortedCheck: true, allowResume: false });
			return;
		}
	}

	private async requirePromptApiKey(model: Model): Promise<void> {
		if (await this.modelRegistry.getApiKey(model)) return;
		const credential = this.modelRegistry.authStorage.get(model.provider);
		throw new Error(
			credential?.type === "oauth"
				? oauthAuthenticationFailedText(model.provider)
				: noApiKeyFoundText(model.provider),
		);
	}

	/** Runs `/name args` when an extension registered `name`; true when it did. */
	private async tryRunExtensionCommand(text: string): Promise<boolean> {
		const call = parseSlashCommand(text);
		const command = call ? this.hooks.getCommand(call.name) : undefined;
		if (!call || !command) return false;
		try {
			await command.run(call.args);
		} catch (error) {
			this.reportExtensionError({
				extensionPath: `command:${command.name}`,
				event: "command",
				error: error instanceof Error ? error.message : String(error),
			});
		}
		return true;
	}

	private rejectExtensionCommand(text: string): void {
		const call = parseSlashCommand(text);
		if (call && this.hooks.getCommand(call.name)) throw new Error(extensionCommandCannotBeQueuedText(call.name));
	}

	private expandText(text: string): string {
		const expanded = expandPromptText(
			text,
			this.resourceLoader.getSkills().skills,
			this.resourceLoader.getPrompts().prompts,
		);
		if (expanded.skillFailure) {
			this.reportExtensionError({
				extensionPath: expanded.skillFailure.filePath,
				event: "skill_expansion",
				error: expanded.skillFailure.error,
			});
		}
		return expanded.text;
	}

	private queueUserMessage(delivery: MessageDelivery, text: string, images: ImageContent[] | undefined): void {
		const message: AgentMessage = {
			role: "user",
			content: [{ type: "text", text }, ...(images ?? [])],
			timestamp: Date.now(),
		};
		if (delivery === "steer") {
			this.steeringTexts.push(text);
			this.agent.steer(message);
		} else {
			this.followUpTexts.push(text);
			this.agent.followUp(message);
		}
	}

	/** A queued message reached the model: drop it from the displayed queue. */
	private removeQueuedText(text: string): void {
		const steering = this.steeringTexts.indexOf(text);
		if (steering >= 0) {
			this.steeringTexts.splice(steering, 1);
			return;
		}
		const followUp = this.followUpTexts.indexOf(text);
		if (followUp >= 0) this.followUpTexts.splice(followUp, 1);
	}

	private recordBashExecution(message: BashExecutionMessage): void {
		if (this.agent.state.isStreaming) {
			this.pendingBashMessages.push(message);
			return;
		}
		this.agent.appendMessage(message);
		this.sessionManager.appendMessage(message);
	}

	private flushPendingBashMessages(): void {
		for (const message of this.pendingBashMessages.splice(0)) {
			this.agent.appendMessage(message);
			this.sessionManager.appendMessage(message);
		}
	}

	private rebuildAgentMessages(): void {
		this.agent.replaceMessages(this.sessionManager.buildSessionContext().messages);
	}

	/** Aborts the run with its remaining events detached: they are neither forwarded nor persisted. */
	private async stopRunDetached(options: { keepAutoCompaction?: boolean } = {}): Promise<void> {
		this.retry.abortRetry();
		if (!options.keepAutoCompaction) this.compaction.abortAuto();
		await this.events.withDetached(async () => {
			this.agent.abort();
			await this.agent.waitForIdle();
		});
		await this.events.settle();
	}

	private resetRuntime(): void {
		this.agent.reset();
		this.agent.sessionId = this.sessionManager.getSessionId();
		this.steeringTexts = [];
		this.followUpTexts = [];
		this.nextTurnMessages = [];
		this.pendingBashMessages = [];
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
