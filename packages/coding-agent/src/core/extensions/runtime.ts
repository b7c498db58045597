// The action backend every extension's API shares. While extensions load
// there is no session: action methods throw. `bindSession` (called by AgentSession through the runner) makes
// them act on the session; registration methods never need it.
import type { ThinkingLevel } from "@agent/agent-core";
import type { ImageContent, Model, TextContent } from "@agent/ai";
import type { ModelRegistry } from "../config/model-registry.js";
import type { PermissionRuleSet } from "../permissions/policy.js";
import { createEventBus } from "./event-bus.js";
import { execCommand } from "./exec.js";
import type { CustomMessageInput, ExtensionError, ExtensionSessionBinding, SlashCommandInfo } from "./hooks.js";
import { ProviderRegistrations } from "./provider-registration.js";
import type {
	EventBus,
	ExecOptions,
	ExecResult,
	ExtensionPermissions,
	ExtensionProviderConfig,
	SendMessageOptions,
} from "./types.js";

export const RUNTIME_NOT_INITIALIZED_TEXT =
	"Extension runtime not initialized. Action methods cannot be called during extension loading.";

export const SET_MODEL_NOT_INITIALIZED_TEXT = "Extension runtime not initialized";

/** `extensionPath` of failures that belong to no single extension (sendMessage, sendUserMessage). */
export const RUNTIME_ERROR_PATH = "<runtime>";

function describeError(error: unknown): { error: string; stack?: string } {
	if (error instanceof Error) return { error: error.message, ...(error.stack ? { stack: error.stack } : {}) };
	return { error: String(error) };
}

export class ExtensionRuntime {
	readonly events: EventBus;
	readonly providers = new ProviderRegistrations();
	/** Values of extension flags: defaults from `registerFlag`, then what the command line set. */
	readonly flagValues = new Map<string, boolean | string>();
	private session: ExtensionSessionBinding | undefined;
	/** Rules extensions added while loading: applied when the session binds (`remove` set from then on). */
	private readonly pendingRules: {
		rules: PermissionRuleSet;
		source: string;
		remove?: () => void;
		removed: boolean;
	}[] = [];
	private errorSink: (error: ExtensionError) => void = () => {};
	private readonly cwd: string;

	constructor(options: { cwd?: string; log?: (message: string) => void; eventBus?: EventBus } = {}) {
		this.cwd = options.cwd ?? process.cwd();
		this.events = options.eventBus ?? createEventBus(options.log);
	}

	get isBound(): boolean {
		return this.session !== undefined;
	}

	/** The bound session; throws the loading-time error before `bindSession`. */
	get binding(): ExtensionSessionBinding {
		if (!this.session) throw new Error(RUNTIME_NOT_INITIALIZED_TEXT);
		return this.session;
	}

	bindSession(session: ExtensionSessionBinding): void {
		this.session = session;
		if (!this.providers.isAttached) this.providers.attach(session.modelRegistry);
		for (const pending of this.pendingRules.splice(0)) {
			if (!pending.removed) pending.remove = session.permissions.addRules(pending.rules, pending.source);
		}
	}

	/** `pi.permissions` of one extension: its rules are listed under `extension <path>`. */
	permissionsFor(extensionPath: string): ExtensionPermissions {
		const source = `extension ${extensionPath}`;
		return {
			getMode: () => this.binding.permissions.mode,
			setMode: (mode) => this.binding.permissions.setMode(mode),
			addRules: (rules) => {
				if (this.session) return this.session.permissions.addRules(rules, source);
				const pending: (typeof this.pendingRules)[number] = { rules, source, removed: false };
				this.pendingRules.push(pending);
				return () => {
					pending.removed = true;
					pending.remove?.();
				};
			},
			getRules: () => this.binding.permissions.listRules(),
			check: (toolName, input) => this.binding.permissions.evaluate(toolName, input),
		};
	}

	attachModelRegistry(registry: ModelRegistry): void {
		if (!this.providers.isAttached) this.providers.attach(registry);
	}

	setErrorSink(sink: (error: ExtensionError) => void): void {
		this.errorSink = sink;
	}

	reportError(error: ExtensionError): void {
		this.errorSink(error);
	}

	/** A runtime-registered tool becomes active and part of the system prompt at once. */
	notifyToolsChanged(): void {
		this.session?.refreshTools();
	}

	// -- actions ---------------------------------------------------------------------------------------------

	sendMessage(message: CustomMessageInput, options: SendMessageOptions = {}): void {
		const session = this.binding;
		this.runDetached("send_message", () => session.sendCustomMessage(message, options));
	}

	sendUserMessage(
		content: string | (TextContent | ImageContent)[],
		options: { deliverAs?: "steer" | "followUp" } = {},
	): void {
		const session = this.binding;
		this.runDetached("send_user_message", () => session.sendUserMessage(content, options));
	}

	appendEntry(customType: string, data: unknown): void {
		this.binding.sessionManager.appendCustomEntry(customType, data);
	}

	setSessionName(name: string): void {
		this.binding.setSessionName(name);
	}

	getSessionName(): string | undefined {
		return this.binding.sessionManager.getSessionName();
	}

	setLabel(entryId: string, label: string | undefined): void {
		this.binding.setLabel(entryId, label);
	}

	exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult> {
		return execCommand(command, args, this.session?.cwd ?? this.cwd, options);
	}

	getActiveTools(): string[] {
		return this.binding.getActiveToolNames();
	}

	getAllTools(): { name: string; description: string; parameters: unknown }[] {
		return this.binding.getAllTools();
	}

	setActiveTools(names: string[]): void {
		this.binding.setActiveToolsByName(names);
	}

	getCommands(): SlashCommandInfo[] {
		return this.binding.getCommands();
	}

	async setModel(model: Model): Promise<boolean> {
		if (!this.session) throw new Error(SET_MODEL_NOT_INITIALIZED_TEXT);
		return this.session.trySetModel(model);
	}

	getThinkingLevel(): ThinkingLevel {
		return this.binding.thinkingLevel;
	}

	setThinkingLevel(level: ThinkingLevel): void {
		this.binding.setThinkingLevel(level);
	}

	registerProvider(name: string, config: ExtensionProviderConfig): void {
		this.providers.register(name, config);
	}

	unregisterProvider(name: string): void {
		this.providers.unregister(name);
	}

	/** Runs an action whose failure nobody awaits: it is reported as `<runtime>` with the given event name. */
	private runDetached(event: string, action: () => Promise<void>): void {
		let running: Promise<void>;
		try {
			running = action();
		} catch (error) {
			this.reportError({ extensionPath: RUNTIME_ERROR_PATH, event, ...describeError(error) });
			return;
		}
		running.catch((error: unknown) => {
			this.reportError({ extensionPath: RUNTIME_ERROR_PATH, event, ...describeError(error) });
		});
	}
}
