// Builds what an AgentSession delegates to and connects the pieces: the Agent and its stream function, the
// collaborators of this folder, permissions and checkpoints. The session stays the public facade; everything
// here is reached through it.
import type { Agent, AgentMessage, StreamFn } from "@agent/agent-core";
import { type AssistantMessage, preloadApiProvider, streamSimple } from "@agent/ai";
import type { AgentSessionConfig } from "../agent-session-config.js";
import { SessionCheckpoints } from "../checkpoints/session-checkpoints.js";
import { type ExtensionError, type ExtensionHooks, noopExtensionHooks } from "../extensions/hooks.js";
import { SessionPermissions } from "../permissions/session-permissions.js";
import { BashOutputFiles } from "../tools/bash-output-files.js";
import { ShellEnvironment } from "../tools/shell-env.js";
import { CompactionController } from "./compaction-controller.js";
import { ModelController } from "./model-controller.js";
import { PromptController } from "./prompt-controller.js";
import { withRetryCapNote } from "./retry-cap-note.js";
import { RetryController } from "./retry-controller.js";
import { createSessionAgent } from "./session-agent.js";
import { SessionEventPipeline } from "./session-event-pipeline.js";
import { SessionNavigator } from "./session-navigation.js";
import { SessionTools } from "./session-tools.js";
import { DEFAULT_STREAM_STALL_TIMEOUT_MS, withStallWatchdog } from "./stall-watchdog.js";
import { UserBashController } from "./user-bash.js";

/** An AgentSession's working parts, connected to each other. */
export interface SessionRuntime {
	readonly agent: Agent;
	readonly hooks: ExtensionHooks;
	/** The configured stream function wrapped in the stall watchdog and the retry-cap note. */
	readonly streamFn: StreamFn;
	readonly permissions: SessionPermissions;
	readonly checkpoints: SessionCheckpoints;
	readonly models: ModelController;
	readonly tools: SessionTools;
	readonly retry: RetryController;
	readonly compaction: CompactionController;
	readonly navigator: SessionNavigator;
	readonly events: SessionEventPipeline;
	readonly prompts: PromptController;
	readonly userBash: UserBashController;
	/** A run is in progress, or about to continue (retry backoff, compaction followed by a retry). */
	isStreaming(): boolean;
	/** Manual or automatic compaction, or a branch summary, is running. */
	isCompacting(): boolean;
	/** The stall watchdog's timeout for later model calls (0 disables it). */
	setStreamStallTimeout(ms: number): void;
	/** Loads the model's built-in provider ahead of its first call; nothing with a stream function of the caller's. */
	preloadProvider(): Promise<void>;
	/** Aborts the run and waits until its events are recorded; no retry or compaction follows it. */
	stopRunWithoutFollowOn(options?: { keepAutoCompaction?: boolean }): Promise<void>;
	/** Stops the run, a retry wait and an automatic compaction; resolves once idle with the events delivered. */
	abort(): Promise<void>;
	/** Resolves when no run, retry or automatic compaction is in progress. */
	waitForIdle(): Promise<void>;
	/** `session_start`, then `resources_discover`; starts the MCP servers. */
	bindExtensions(): Promise<void>;
	/** Settings, models, resources, extensions and MCP servers read again, with the extension events around it. */
	reload(): Promise<void>;
	/** `session_shutdown`, the run stopped, settings written, the session file released, MCP servers stopped. */
	shutdown(): Promise<void>;
	/** Drops the subscriptions made here, the event pipeline, bash full-output files and checkpoint state. */
	dispose(): void;
}

/**
 * Builds the runtime of a session from its config and restores the session file's state (model, thinking
 * level, messages). Extensions are not bound yet: the session does that once it exists.
 */
export function wireSessionRuntime(config: AgentSessionConfig): SessionRuntime {
	const { cwd, sessionManager, settingsManager, modelRegistry, resourceLoader, mcp } = config;
	const hooks = config.hooks ?? noopExtensionHooks;
	const unsubscribers: (() => void)[] = [];
	/** Full-output files of this session's commands, removed by `dispose()` (or at process exit). */
	const bashOutputFiles = new BashOutputFiles();
	/** The environment of this session's commands: provider keys removed (see ShellEnvironment). */
	const shellEnvironment = new ShellEnvironment({
		extraKeyNames: () => modelRegistry.getCredentialEnvNames(),
		passthrough: () => settingsManager.getShellEnvPassthrough(),
	});
	let stallTimeoutMs =
		config.streamStallTimeoutMs ?? settingsManager.getStreamStallTimeoutMs() ?? DEFAULT_STREAM_STALL_TIMEOUT_MS;
	const streamFn = withRetryCapNote(
		withStallWatchdog(config.streamFn ?? streamSimple, () => stallTimeoutMs),
		() => settingsManager.getRetrySettings(),
	);
	const permissions = new SessionPermissions({
		cwd,
		settingsManager,
		...(config.permissions ? { commandLine: config.permissions } : {}),
		record: (decision) => sessionManager.appendPermissionDecision(decision),
	});
	const checkpoints = new SessionCheckpoints({
		cwd,
		sessionManager,
		settingsManager,
		notice: (message) => events.emit({ type: "checkpoint_notice", message }),
	});

	const agent = createSessionAgent({
		sessionId: sessionManager.getSessionId(),
		settingsManager,
		modelRegistry,
		hooks,
		streamFn,
		model: config.model,
		transformContext: async (messages: AgentMessage[]) => {
			if (!hooks.hasHandlers("context")) return messages;
			// Handlers see this turn's `turn_start` and message events before `context` (docs/extensions.md "Events").
			await events.drain();
			return hooks.emitContext(structuredClone(messages));
		},
	});
	// What most collaborators are built from.
	const parts = { agent, sessionManager, settingsManager, modelRegistry, hooks, streamFn };
	const isStreaming = (): boolean => agent.state.isStreaming || events.hasFollowOnWork || prompts.isStarting;
	const isCompacting = (): boolean => compaction.isCompacting || navigator.isSummarizing;
	const rebuildAgentMessages = () => agent.replaceMessages(sessionManager.buildSessionContext().messages);
	const reportExtensionError = (error: ExtensionError) =>
		events.emit({
			type: "extension_error",
			extensionPath: error.extensionPath,
			event: error.event,
			error: error.error,
		});
	/** After a run: retry a transient failure, else check compaction. Returns the follow-on work, if any. */
	const afterRun = (lastAssistant: AssistantMessage | undefined): Promise<void> | undefined => {
		if (!lastAssistant) return undefined;
		if (retry.shouldRetry(lastAssistant)) return retry.start(lastAssistant);
		if (retry.isRetrying) return undefined;
		return compaction.checkCompaction(lastAssistant, { allowResume: true });
	};
	const stopRunWithoutFollowOn = async (options: { keepAutoCompaction?: boolean } = {}): Promise<void> => {
		events.cancelPendingResume();
		retry.abortRetry();
		if (!options.keepAutoCompaction) compaction.abortAuto();
		await events.withoutFollowOnWork(async () => {
			agent.abort();
			await agent.waitForIdle();
		});
		await events.settle();
	};

	const abort = async (): Promise<void> => {
		events.cancelPendingResume();
		retry.abortRetry();
		compaction.abortAuto();
		agent.abort();
		await agent.waitForIdle();
		await events.settle();
	};

	const models = new ModelController(
		{
			...parts,
			notifyModelSelect: (model, previousModel, source) =>
				void hooks.emit({ type: "model_select", model, previousModel, source }),
		},
		config.model,
		config.scopedModels,
	);
	const tools = new SessionTools({
		agent,
		cwd,
		shellEnvironment,
		bashOutputFiles,
		bashSpawnHook: permissions.sandbox.spawnHook,
		settingsManager,
		resourceLoader,
		hooks,
		tools: config.tools,
		customTools: config.customTools,
		...(mcp ? { mcpTools: () => mcp.getTools() } : {}),
		wrapTool: (tool) => checkpoints.wrapTool(tool),
	});
	if (mcp) unsubscribers.push(mcp.onToolsChanged(() => tools.refresh()));
	const events = new SessionEventPipeline({
		...parts,
		onQueuedTextDelivered: (text) => prompts.noteDelivered(text),
		onUserMessageStart: () => compaction.noteUserMessageStart(),
		onAssistantMessageEnd: (message) => {
			retry.noteAssistantMessageEnd(message);
			compaction.noteAssistantMessageEnd(message);
		},
		afterRun,
		beforeRecordMessage: (message) => checkpoints.beforeRecordMessage(message),
	});
	const retry = new RetryController({
		...parts,
		getRetrySettings: () => settingsManager.getRetrySettings(),
		getContextWindow: () => (models.model ? compaction.contextWindowOf(models.model) : undefined),
		emit: (event) => events.emit(event),
		drainEvents: () => events.drain(),
		afterGivingUp: (failure) => compaction.checkCompaction(failure, { allowResume: true }),
	});
	const compaction = new CompactionController({
		...parts,
		get model() {
			return models.model;
		},
		getApiKey: (model) => modelRegistry.getApiKey(model),
		emit: (event) => events.emit(event),
		rebuildAgentMessages,
		resumeAgent: () => events.resumeAgent(),
	});
	const navigator = new SessionNavigator({
		...parts,
		models,
		getApiKey: (model) => modelRegistry.getApiKey(model),
		stopRun: () => stopRunWithoutFollowOn(),
		resetRuntime: () => {
			agent.reset();
			prompts.reset();
			userBash.reset();
		},
		rebuildAgentMessages,
		sessionFileChanged: (options) => checkpoints.sessionChanged(options),
	});
	const userBash = new UserBashController({
		...parts,
		cwd,
		shellEnvironment,
		bashOutputFiles,
		isAgentStreaming: () => agent.state.isStreaming,
		appendMessage: (message) => {
			agent.appendMessage(message);
			checkpoints.beforeRecordMessage(message);
			sessionManager.appendMessage(message);
		},
		commands: checkpoints.commands,
	});
	const prompts = new PromptController({
		...parts,
		resourceLoader,
		get model() {
			return models.model;
		},
		// A running compaction is busy too: a prompt would race it for the session's context.
		get isStreaming(): boolean {
			return isStreaming() || isCompacting();
		},
		get baseSystemPrompt() {
			return tools.baseSystemPrompt;
		},
		flushPendingBashMessages: () => userBash.flushPending(),
		expandMcpPrompt: (text) => mcp?.expandPromptCommand(text) ?? Promise.resolve(undefined),
		checkCompactionBeforePrompt: (lastAssistant) =>
			compaction.checkCompaction(lastAssistant, { skipAbortedCheck: true, allowResume: false }),
		settle: () => events.settle(),
		emitMessageEvents: (message) => {
			events.emit({ type: "message_start", message });
			events.emit({ type: "message_end", message });
		},
		reportExtensionError,
	});

	agent.setBeforeToolCall(async (context, signal) => {
		const hooked = await events.beforeToolCall(context);
		if (hooked?.block) return hooked;
		// After the `tool_call` handlers (they may change the arguments), with the calling message recorded.
		await events.drain();
		const toolCall = { toolCallId: context.toolCall.id, toolName: context.toolCall.name };
		const refusal = await permissions.check({ ...toolCall, args: context.args as Record<string, unknown> }, signal);
		return refusal === undefined ? undefined : { block: true, reason: refusal };
	});
	agent.setAfterToolCall((context) => events.afterToolCall(context));
	unsubscribers.push(hooks.onError(reportExtensionError));
	navigator.initializeSession(config.thinkingLevel);

	return {
		agent,
		hooks,
		streamFn,
		permissions,
		checkpoints,
		models,
		tools,
		retry,
		compaction,
		navigator,
		events,
		prompts,
		userBash,
		isStreaming,
		isCompacting,
		setStreamStallTimeout: (ms) => {
			stallTimeoutMs = ms;
		},
		preloadProvider: async () => {
			const model = models.model;
			if (!config.streamFn && model) await preloadApiProvider(model.api);
		},
		stopRunWithoutFollowOn,
		abort,
		waitForIdle: async () => {
			await agent.waitForIdle();
			await events.settle();
		},
		bindExtensions: async () => {
			// MCP servers start here (or with the first prompt), in the background: after the terminal UI drew its
			// first frame, so three servers booting do not compete with it for the CPU.
			mcp?.start();
			await hooks.emit({ type: "session_start" });
			await tools.discoverExtensionResources("startup");
		},
		reload: async () => {
			await hooks.emit({ type: "session_shutdown" });
			await settingsManager.reload();
			modelRegistry.refresh();
			await resourceLoader.reload();
			await hooks.reload();
			await mcp?.reload();
			tools.refresh();
			await hooks.emit({ type: "session_start" });
			await tools.discoverExtensionResources("reload");
		},
		shutdown: async () => {
			await hooks.emit({ type: "session_shutdown" });
			await abort();
			await settingsManager.flush();
			sessionManager.close();
			await mcp?.dispose();
		},
		dispose: () => {
			for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
			events.dispose();
			bashOutputFiles.dispose();
			checkpoints.dispose();
		},
	};
}
