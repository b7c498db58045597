// The extension runner: the session's `ExtensionHooks`, implemented over the loaded extensions. Event delivery
// is its base class (./event-dispatch.ts); here are the registrations as the session and modes see them (tools,
// commands, flags, shortcuts, renderers, with conflicts resolved), the mode's bindings (UI, shutdown, command
// actions), the contexts, and `/reload`.
import type { KeyId } from "@agent/tui";
import type { ModelRegistry } from "../config/model-registry.js";
import {
	type CommandActions,
	type ContextSources,
	createCommandContext,
	createExtensionContext,
	type ModeBindings,
} from "./context.js";
import { EventDispatcher, errorFields } from "./event-dispatch.js";
import type {
	ExtensionCommand,
	ExtensionError,
	ExtensionHooks,
	ExtensionSessionBinding,
	ExtensionTool,
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

/** `Extension error (<event>) in <path>: <message>` plus the stack, for logs. */
export function formatExtensionError(error: ExtensionError): string {
	const head = `Extension error (${error.event}) in ${error.extensionPath}: ${error.error}`;
	return error.stack ? `${head}\n${error.stack}` : head;
}

export class ExtensionRunner extends EventDispatcher implements ExtensionHooks {
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
	private builtInCommandNames: readonly string[];
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
		super();
		this.builtInCommandNames = options.builtInCommandNames ?? [];
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

	protected get loadedExtensions(): readonly Extension[] {
		return this.extensions;
	}

	protected get handlerTimeoutMs(): number | undefined {
		return this.options.handlerTimeoutMs;
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
		return [...resolveCommands(this.extensions, this.builtInCommandNames, []).values()];
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

	/**
	 * The mode's own slash commands (the interactive mode: `BUILTIN_SLASH_COMMAND_NAMES`). Extension commands
	 * with these names are skipped from now on, each reported once.
	 */
	setBuiltInCommandNames(names: readonly string[]): void {
		this.builtInCommandNames = [...names];
		this.collectConflicts();
	}

	/** What `ctx.shutdown()` does besides recording the request (`isShutdownRequested`). */
	setShutdownHandler(handler: () => void): void {
		this.mode = {
			...this.mode,
			shutdown: () => {
				this.shutdownRequested = true;
				handler();
			},
		};
	}

	isShutdownRequested(): boolean {
		return this.shutdownRequested;
	}

	/** A mode's versions of the session-changing command methods (the session's own are the default). */
	setCommandActions(actions: Partial<CommandActions>): void {
		this.mode = { ...this.mode, commandActions: { ...this.mode.commandActions, ...actions } };
	}

	override createContext(): ExtensionContext {
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

	override emitError(error: ExtensionError): void {
		for (const listener of [...this.errorListeners]) listener(error);
	}

	getCommand(name: string): ExtensionCommand | undefined {
		const command = resolveCommands(this.extensions, this.builtInCommandNames, []).get(name);
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

	// -- internals ---------------------------------------------------------------------------------------------

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
		resolveCommands(this.extensions, this.builtInCommandNames, found);
		for (const conflict of found) {
			if (this.reportedConflicts.has(conflict.message)) continue;
			this.reportedConflicts.add(conflict.message);
			this.conflicts.push(conflict);
			if (this.session) this.emitError({ extensionPath: conflict.path, event: "register", error: conflict.message });
		}
	}
}
