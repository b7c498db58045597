// The extension runner: the session's `ExtensionHooks`, implemented over the loaded extensions. It delivers
// events in load order (and registration order within an extension), applies each event's combination rule
// (extensions.md §3), isolates handler failures (§6: reported with the extension's path and the stack, the
// next handler still runs), and gives handlers, tools and commands their contexts (§7).
import type { AgentMessage } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import type { KeyId } from "@agent/tui";
import type { ModelRegistry } from "../config/model-registry.js";
import type { ResourceExtensionPaths } from "../resources/resource-loader.js";
import {
	type CommandActions,
	type ContextSources,
	createCommandContext,
	createExtensionContext,
	type ModeBindings,
} from "./context.js";
import type { ExtensionEventMap, ExtensionEventResultMap } from "./events.js";
import type {
	BeforeAgentStartEvent,
	BeforeAgentStartResult,
	CustomMessageInput,
	ExtensionCommand,
	ExtensionError,
	ExtensionEventType,
	ExtensionHooks,
	ExtensionNotification,
	ExtensionSessionBinding,
	ExtensionTool,
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
import type { LoadExtensionsResult } from "./loader.js";
import {
	type Conflict,
	type ResolvedShortcuts,
	resolveCommands,
	resolveFlags,
	resolveShortcuts,
	resolveTools,
} from "./registrations.js";
import type { ExtensionRuntime } from "./runtime.js";
import { wrapToolDefinition } from "./tool-wrapper.js";
import type {
	Extension,
	ExtensionCommandContext,
	ExtensionContext,
	ExtensionLoadError,
	ExtensionOAuthConfig,
	MessageRenderer,
	RegisteredCommand,
	RegisteredFlag,
	RegisteredShortcut,
	StoredHandler,
	ToolDefinition,
} from "./types.js";
import { createNoopUIContext, type ExtensionUIContext } from "./ui-context.js";

export interface ExtensionRunnerOptions {
	/** The session's cwd (contexts report it before a session binds). */
	cwd: string;
	/** Providers registered while loading are applied here at once (before the CLI resolves the model). */
	modelRegistry?: ModelRegistry;
	/**
	 * Names of the mode's own slash commands; extension commands with these names are skipped. The interactive
	 * mode passes `BUILTIN_SLASH_COMMAND_NAMES`; print and RPC modes have no built-ins, so nothing is skipped.
	 */
	builtInCommandNames?: readonly string[];
	/** `/reload`: loads the extensions again into the same runtime (the paths may have changed). */
	reload?: (runtime: ExtensionRuntime) => Promise<LoadExtensionsResult>;
	/**
	 * Milliseconds a handler may take before the runner reports it and goes on without its result (a timed-out
	 * `tool_call` handler blocks the call, like one that throws). The handler itself keeps running: JavaScript
	 * cannot cancel it. Default: no limit — a gate may legitimately wait minutes for the user's answer.
	 */
	handlerTimeoutMs?: number;
}

export function handlerTimedOutText(ms: number): string {
	return `Extension handler did not finish within ${ms} ms; continuing without its result.`;
}

interface Delivery {
	extension: Extension;
	handler: StoredHandler;
}

/** Event types whose payloads are copied before handlers see them (a handler must not edit session state). */
const COPIED_NOTIFICATIONS = new Set<ExtensionNotification["type"]>([
	"agent_end",
	"turn_end",
	"message_start",
	"message_end",
	"tool_execution_start",
	"tool_execution_end",
	"session_compact",
	"session_tree",
]);

function copyOf<T>(value: T): T {
	try {
		return structuredClone(value);
	} catch {
		// Not cloneable (a function in `details`): handlers get the value itself.
		return value;
	}
}

function errorFields(error: unknown): { error: string; stack?: string } {
	if (error instanceof Error) return { error: error.message, ...(error.stack ? { stack: error.stack } : {}) };
	return { error: String(error) };
}

/** `Extension error (<event>) in <path>: <message>` plus the stack, for logs. */
export function formatExtensionError(error: ExtensionError): string {
	const head = `Extension error (${error.event}) in ${error.extensionPath}: ${error.error}`;
	return error.stack ? `${head}\n${error.stack}` : head;
}

function isNonEmptyResult(value: unknown): boolean {
	return typeof value === "object" && value !== null && Object.values(value).some((field) => field !== undefined);
}

export class ExtensionRunner implements ExtensionHooks {
	readonly runtime: ExtensionRuntime;
	private extensions: Extension[];
	private loadErrors: ExtensionLoadError[];
	private session: ExtensionSessionBinding | undefined;
	private readonly errorListeners = new Set<(error: ExtensionError) => void>();
	private readonly reportedConflicts = new Set<string>();
	private readonly conflicts: Conflict[] = [];
	private readonly wrappedTools = new WeakMap<ToolDefinition, ExtensionTool>();
	private readonly commandHandles = new WeakMap<RegisteredCommand, ExtensionCommand>();
	private shutdownRequested = false;
	private mode: ModeBindings = {
		ui: createNoopUIContext(),
		hasUI: false,
		shutdown: () => {
			this.shutdownRequested = true;
		},
		commandActions: {},
	};
	private readonly sources: ContextSources;

	constructor(
		loaded: LoadExtensionsResult,
		private readonly options: ExtensionRunnerOptions,
	) {
		this.runtime = loaded.runtime;
		this.extensions = loaded.extensions;
		this.loadErrors = loaded.errors;
		this.runtime.setErrorSink((error) => this.emitError(error));
		if (options.modelRegistry) this.runtime.attachModelRegistry(options.modelRegistry);
		const runner = this;
		this.sources = {
			get cwd() {
				return runner.options.cwd;
			},
			get modelRegistry() {
				return runner.options.modelRegistry;
			},
			get session() {
				return runner.session;
			},
			get mode() {
				return runner.mode;
			},
			reportError: (error, event) => this.emitError({ extensionPath: "<runtime>", event, ...errorFields(error) }),
		};
		this.collectConflicts();
	}

	// -- what loading produced -------------------------------------------------------------------------------

	getExtensions(): readonly Extension[] {
		return this.extensions;
	}

	/** Modules that failed to load, and names that conflicted (every extension involved stays loaded). */
	getLoadErrors(): ExtensionLoadError[] {
		this.collectConflicts();
		return [...this.loadErrors, ...this.conflicts.map(({ path, message }) => ({ path, error: message }))];
	}

	/** Flags for the second argument pass, first registration winning. */
	getFlags(): Map<string, RegisteredFlag> {
		return resolveFlags(this.extensions, []);
	}

	/** Values the command line gave extension flags (they override the registered defaults). */
	setFlagValues(values: ReadonlyMap<string, boolean | string>): void {
		for (const [name, value] of values) this.runtime.flagValues.set(name, value);
	}

	getFlagValues(): ReadonlyMap<string, boolean | string> {
		return this.runtime.flagValues;
	}

	getRegisteredCommands(): RegisteredCommand[] {
		return [...resolveCommands(this.extensions, this.options.builtInCommandNames ?? [], []).values()];
	}

	/** Extension shortcuts against the mode's effective key bindings (action → keys). */
	getShortcuts(builtInBindings: Readonly<Record<string, readonly KeyId[] | readonly string[]>>): ResolvedShortcuts {
		return resolveShortcuts(this.extensions, builtInBindings);
	}

	/** The first renderer registered for a custom message type. */
	getMessageRenderer(customType: string): MessageRenderer | undefined {
		for (const extension of this.extensions) {
			const renderer = extension.messageRenderers.get(customType);
			if (renderer) return renderer;
		}
		return undefined;
	}

	/** The definition (with its renderers) of an extension tool, by name. */
	getToolDefinition(name: string): ToolDefinition | undefined {
		return resolveTools(this.extensions, []).get(name)?.definition;
	}

	getOAuthProviders(): { id: string; config: ExtensionOAuthConfig }[] {
		return this.runtime.providers.getOAuthProviders();
	}

	// -- mode bindings -----------------------------------------------------------------------------------------

	/** The mode's UI. Until called, `ctx.ui` is the no-op context and `ctx.hasUI` is false. */
	setUIContext(ui: ExtensionUIContext, hasUI: boolean): void {
		this.mode = { ...this.mode, ui, hasUI };
	}

	/** What `ctx.shutdown()` does; by default it only records the request (`isShutdownRequested`). */
	setShutdownHandler(handler: () => void): void {
		this.mode = { ...this.mode, shutdown: handler };
	}

	isShutdownRequested(): boolean {
		return this.shutdownRequested;
	}

	/** A mode's versions of the session-changing command methods (the session's own are the default). */
	setCommandActions(actions: Partial<CommandActions>): void {
		this.mode = { ...this.mode, commandActions: { ...this.mode.commandActions, ...actions } };
	}

	createContext(): ExtensionContext {
		return createExtensionContext(this.sources);
	}

	createCommandContext(): ExtensionCommandContext {
		return createCommandContext(this.sources);
	}

	/** Runs a shortcut's handler; a failure is reported as event `shortcut`. */
	async runShortcut(shortcut: RegisteredShortcut): Promise<void> {
		try {
			await shortcut.handler(this.createContext());
		} catch (error) {
			this.emitError({ extensionPath: shortcut.extensionPath, event: "shortcut", ...errorFields(error) });
		}
	}

	// -- ExtensionHooks: binding, errors, lookups ------------------------------------------------------------

	bindSession(session: ExtensionSessionBinding): void {
		this.session = session;
		this.runtime.bindSession(session);
	}

	onError(listener: (error: ExtensionError) => void): () => void {
		this.errorListeners.add(listener);
		return () => {
			this.errorListeners.delete(listener);
		};
	}

	emitError(error: ExtensionError): void {
		for (const listener of [...this.errorListeners]) listener(error);
	}

	hasHandlers(type: ExtensionEventType): boolean {
		return this.extensions.some((extension) => (extension.handlers.get(type)?.length ?? 0) > 0);
	}

	getCommand(name: string): ExtensionCommand | undefined {
		const command = resolveCommands(this.extensions, this.options.builtInCommandNames ?? [], []).get(name);
		return command ? this.commandHandle(command) : undefined;
	}

	getCommands(): ExtensionCommand[] {
		return this.getRegisteredCommands().map((command) => this.commandHandle(command));
	}

	getTools(): ExtensionTool[] {
		this.collectConflicts();
		return [...resolveTools(this.extensions, []).values()].map(({ definition }) => {
			let tool = this.wrappedTools.get(definition);
			if (!tool) {
				tool = wrapToolDefinition(definition, () => this.createContext());
				this.wrappedTools.set(definition, tool);
			}
			return tool;
		});
	}

	async reload(): Promise<void> {
		const reload = this.options.reload;
		if (!reload) return;
		this.runtime.providers.clear();
		const loaded = await reload(this.runtime);
		this.extensions = loaded.extensions;
		this.loadErrors = loaded.errors;
		this.reportedConflicts.clear();
		this.conflicts.length = 0;
		for (const error of loaded.errors)
			this.emitError({ extensionPath: error.path, event: "load", error: error.error });
		this.collectConflicts();
		for (const conflict of this.conflicts) {
			this.emitError({ extensionPath: conflict.path, event: "load", error: conflict.message });
		}
	}

	/** `session_directory` (CLI startup, no context): the last handler's `sessionDir` wins. */
	async emitSessionDirectory(cwd: string): Promise<string | undefined> {
		let sessionDir: string | undefined;
		for (const { extension, handler } of this.deliveries("session_directory")) {
			const result = await this.call<"session_directory">(extension, "session_directory", handler, {
				type: "session_directory",
				cwd,
			});
			if (result?.sessionDir) sessionDir = result.sessionDir;
		}
		return sessionDir;
	}

	// -- ExtensionHooks: events --------------------------------------------------------------------------------

	async emit(event: ExtensionNotification): Promise<void> {
		const deliveries = this.deliveries(event.type);
		if (deliveries.length === 0) return;
		const payload = COPIED_NOTIFICATIONS.has(event.type) ? copyOf(event) : event;
		const ctx = this.createContext();
		for (const { extension, handler } of deliveries) await this.call(extension, event.type, handler, payload, ctx);
	}

	async emitInput(event: InputEvent): Promise<InputEventResult> {
		let text = event.text;
		let images = event.images;
		const ctx = this.createContext();
		for (const { extension, handler } of this.deliveries("input")) {
			const result = await this.call<"input">(
				extension,
				"input",
				handler,
				{ type: "input", text, ...(images ? { images } : {}), source: event.source },
				ctx,
			);
			if (result?.action === "handled") return { action: "handled" };
			if (result?.action === "transform") {
				text = result.text;
				images = result.images ?? images;
			}
		}
		if (text === event.text && images === event.images) return { action: "continue" };
		return { action: "transform", text, ...(images ? { images } : {}) };
	}

	async emitBeforeAgentStart(event: BeforeAgentStartEvent): Promise<BeforeAgentStartResult | undefined> {
		const messages: CustomMessageInput[] = [];
		let systemPrompt = event.systemPrompt;
		let changed = false;
		const ctx = this.createContext();
		for (const { extension, handler } of this.deliveries("before_agent_start")) {
			const result = await this.call<"before_agent_start">(
				extension,
				"before_agent_start",
				handler,
				{ ...event, type: "before_agent_start", systemPrompt },
				ctx,
			);
			if (result?.message) messages.push(result.message);
			if (result?.systemPrompt !== undefined) {
				systemPrompt = result.systemPrompt;
				changed = true;
			}
		}
		if (messages.length === 0 && !changed) return undefined;
		return { messages, ...(changed ? { systemPrompt } : {}) };
	}

	async emitContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
		let current = messages;
		const ctx = this.createContext();
		for (const { extension, handler } of this.deliveries("context")) {
			const result = await this.call<"context">(
				extension,
				"context",
				handler,
				{ type: "context", messages: current },
				ctx,
			);
			if (result?.messages) current = result.messages;
		}
		return current;
	}

	async emitBeforeProviderRequest(payload: unknown, _model: Model): Promise<unknown> {
		let current = payload;
		const ctx = this.createContext();
		for (const { extension, handler } of this.deliveries("before_provider_request")) {
			const result = await this.call<"before_provider_request">(
				extension,
				"before_provider_request",
				handler,
				{ type: "before_provider_request", payload: current },
				ctx,
			);
			if (result !== undefined) current = result;
		}
		return current;
	}

	/** First `block` wins. A throwing handler is reported and its error propagates: the session blocks the call. */
	async emitToolCall(event: ToolCallEvent): Promise<ToolCallEventResult | undefined> {
		const ctx = this.createContext();
		// `input` is the live argument object: handlers may patch it in place (the reference allows this).
		const payload: ExtensionEventMap["tool_call"] = { ...event, type: "tool_call" };
		for (const { extension, handler } of this.deliveries("tool_call")) {
			let result: ToolCallEventResult | undefined;
			try {
				result = (await this.withTimeout(handler(payload, ctx))) as ToolCallEventResult | undefined;
			} catch (error) {
				this.emitError({ extensionPath: extension.resolvedPath, event: "tool_call", ...errorFields(error) });
				throw error;
			}
			if (result?.block) return result;
		}
		return undefined;
	}

	async emitToolResult(event: ToolResultEvent): Promise<ToolResultEventResult | undefined> {
		let content = copyOf(event.content);
		let details = copyOf(event.details);
		let isError = event.isError;
		let changed = false;
		const ctx = this.createContext();
		for (const { extension, handler } of this.deliveries("tool_result")) {
			const result = await this.call<"tool_result">(
				extension,
				"tool_result",
				handler,
				{ ...event, type: "tool_result", content, details, isError },
				ctx,
			);
			if (!result) continue;
			if (result.content !== undefined) {
				content = result.content;
				changed = true;
			}
			if (result.details !== undefined) {
				details = result.details;
				changed = true;
			}
			if (result.isError !== undefined) {
				isError = result.isError;
				changed = true;
			}
		}
		return changed ? { content, details, isError } : undefined;
	}

	async emitUserBash(event: UserBashEvent): Promise<UserBashEventResult | undefined> {
		const ctx = this.createContext();
		for (const { extension, handler } of this.deliveries("user_bash")) {
			const result = await this.call<"user_bash">(
				extension,
				"user_bash",
				handler,
				{ ...event, type: "user_bash" },
				ctx,
			);
			if (isNonEmptyResult(result)) return result;
		}
		return undefined;
	}

	async emitSessionBeforeSwitch(event: SessionBeforeSwitchEvent): Promise<{ cancel?: boolean } | undefined> {
		const ctx = this.createContext();
		for (const { extension, handler } of this.deliveries("session_before_switch")) {
			const result = await this.call<"session_before_switch">(
				extension,
				"session_before_switch",
				handler,
				{ ...event, type: "session_before_switch" },
				ctx,
			);
			if (result?.cancel) return { cancel: true };
		}
		return undefined;
	}

	emitSessionBeforeFork(event: SessionBeforeForkEvent): Promise<SessionBeforeForkResult | undefined> {
		return this.emitCancellable("session_before_fork", { ...event, type: "session_before_fork" });
	}

	emitSessionBeforeCompact(event: SessionBeforeCompactEvent): Promise<SessionBeforeCompactResult | undefined> {
		return this.emitCancellable("session_before_compact", { ...event, type: "session_before_compact" });
	}

	emitSessionBeforeTree(event: SessionBeforeTreeEvent): Promise<SessionBeforeTreeResult | undefined> {
		return this.emitCancellable("session_before_tree", { ...event, type: "session_before_tree" });
	}

	async emitResourcesDiscover(event: ResourcesDiscoverEvent): Promise<ResourceExtensionPaths> {
		const merged: Required<ResourceExtensionPaths> = { skillPaths: [], promptPaths: [], themePaths: [] };
		const ctx = this.createContext();
		for (const { extension, handler } of this.deliveries("resources_discover")) {
			const result = await this.call<"resources_discover">(
				extension,
				"resources_discover",
				handler,
				{ ...event, type: "resources_discover" },
				ctx,
			);
			merged.skillPaths.push(...(result?.skillPaths ?? []));
			merged.promptPaths.push(...(result?.promptPaths ?? []));
			merged.themePaths.push(...(result?.themePaths ?? []));
		}
		const paths: ResourceExtensionPaths = {};
		if (merged.skillPaths.length > 0) paths.skillPaths = merged.skillPaths;
		if (merged.promptPaths.length > 0) paths.promptPaths = merged.promptPaths;
		if (merged.themePaths.length > 0) paths.themePaths = merged.themePaths;
		return paths;
	}

	// -- internals ---------------------------------------------------------------------------------------------

	/** Handlers of one event: extensions in load order, each extension's in registration order (a snapshot). */
	private deliveries(type: ExtensionEventType): Delivery[] {
		const deliveries: Delivery[] = [];
		for (const extension of this.extensions) {
			for (const handler of extension.handlers.get(type) ?? []) deliveries.push({ extension, handler });
		}
		return deliveries;
	}

	/** Calls one handler; a failure is reported with the extension's path and stack, and yields undefined. */
	private async call<K extends ExtensionEventType>(
		extension: Extension,
		type: K,
		handler: StoredHandler,
		event: ExtensionEventMap[K],
		ctx?: ExtensionContext,
	): Promise<ExtensionEventResultMap[K] | undefined> {
		try {
			return (await this.withTimeout(handler(event, ctx))) as ExtensionEventResultMap[K] | undefined;
		} catch (error) {
			this.emitError({ extensionPath: extension.resolvedPath, event: type, ...errorFields(error) });
			return undefined;
		}
	}

	/** A handler's result, or a rejection once `handlerTimeoutMs` passed. */
	private withTimeout(result: unknown): Promise<unknown> {
		const ms = this.options.handlerTimeoutMs;
		if (ms === undefined || !(result instanceof Promise)) return Promise.resolve(result);
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(handlerTimedOutText(ms))), ms);
		});
		return Promise.race([result, timeout]).finally(() => clearTimeout(timer));
	}

	/** `session_before_fork/compact/tree`: the first `cancel` stops; otherwise the last non-empty result. */
	private async emitCancellable<K extends "session_before_fork" | "session_before_compact" | "session_before_tree">(
		type: K,
		event: ExtensionEventMap[K],
	): Promise<ExtensionEventResultMap[K] | undefined> {
		let last: ExtensionEventResultMap[K] | undefined;
		const ctx = this.createContext();
		for (const { extension, handler } of this.deliveries(type)) {
			const result = await this.call(extension, type, handler, event, ctx);
			if (!isNonEmptyResult(result)) continue;
			if (result?.cancel) return result;
			last = result;
		}
		return last;
	}

	private commandHandle(command: RegisteredCommand): ExtensionCommand {
		let handle = this.commandHandles.get(command);
		if (!handle) {
			handle = {
				name: command.name,
				...(command.description !== undefined ? { description: command.description } : {}),
				extensionPath: command.extensionPath,
				run: async (args) => {
					await command.handler(args, this.createCommandContext());
				},
			};
			this.commandHandles.set(command, handle);
		}
		return handle;
	}

	/**
	 * Records name conflicts not seen before. Before a session binds they are load errors; afterwards (a tool or
	 * command registered at run time) they are reported like handler errors.
	 */
	private collectConflicts(): void {
		const found: Conflict[] = [];
		resolveTools(this.extensions, found);
		resolveFlags(this.extensions, found);
		resolveCommands(this.extensions, this.options.builtInCommandNames ?? [], found);
		for (const conflict of found) {
			if (this.reportedConflicts.has(conflict.message)) continue;
			this.reportedConflicts.add(conflict.message);
			this.conflicts.push(conflict);
			if (this.session) this.emitError({ extensionPath: conflict.path, event: "register", error: conflict.message });
		}
	}
}
