// A scriptable ExtensionHooks for session tests: set the handlers a test needs, read what was emitted.
import type { AgentMessage } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import {
	type ExtensionCommand,
	type ExtensionError,
	type ExtensionEventType,
	type ExtensionHooks,
	type ExtensionNotification,
	type ExtensionSessionBinding,
	type ExtensionTool,
	noopExtensionHooks,
} from "../../src/core/extensions/hooks.js";

type Overrides = Partial<Omit<ExtensionHooks, "bindSession" | "hasHandlers" | "emit" | "onError">>;

const RESULT_EVENTS: Partial<Record<ExtensionEventType, keyof Overrides>> = {
	input: "emitInput",
	before_agent_start: "emitBeforeAgentStart",
	context: "emitContext",
	before_provider_request: "emitBeforeProviderRequest",
	tool_call: "emitToolCall",
	tool_result: "emitToolResult",
	user_bash: "emitUserBash",
	session_before_switch: "emitSessionBeforeSwitch",
	session_before_fork: "emitSessionBeforeFork",
	session_before_compact: "emitSessionBeforeCompact",
	session_before_tree: "emitSessionBeforeTree",
	resources_discover: "emitResourcesDiscover",
};

export class TestHooks implements ExtensionHooks {
	readonly notifications: ExtensionNotification[] = [];
	/** Event names, in the order the session called into the hooks (notifications and results alike). */
	readonly calls: string[] = [];
	session: ExtensionSessionBinding | undefined;
	commands: ExtensionCommand[] = [];
	tools: ExtensionTool[] = [];
	private readonly errorListeners = new Set<(error: ExtensionError) => void>();

	constructor(private readonly overrides: Overrides = {}) {}

	bindSession(session: ExtensionSessionBinding): void {
		this.session = session;
	}

	/** Notifications are always recorded; an event with results has handlers when the test gave an override. */
	hasHandlers(type: ExtensionEventType): boolean {
		const method = RESULT_EVENTS[type];
		return method === undefined ? true : method in this.overrides;
	}

	async emit(event: ExtensionNotification): Promise<void> {
		this.calls.push(event.type);
		this.notifications.push(event);
	}

	/** Reports a handler failure the way a runner would. */
	reportError(error: ExtensionError): void {
		for (const listener of this.errorListeners) listener(error);
	}

	onError(listener: (error: ExtensionError) => void): () => void {
		this.errorListeners.add(listener);
		return () => this.errorListeners.delete(listener);
	}

	emitInput: ExtensionHooks["emitInput"] = (event) => this.call("input", "emitInput", event);
	emitBeforeAgentStart: ExtensionHooks["emitBeforeAgentStart"] = (event) =>
		this.call("before_agent_start", "emitBeforeAgentStart", event);
	emitContext = (messages: AgentMessage[]) => this.call("context", "emitContext", messages);
	emitBeforeProviderRequest = (payload: unknown, model: Model) =>
		this.call("before_provider_request", "emitBeforeProviderRequest", payload, model);
	emitToolCall: ExtensionHooks["emitToolCall"] = (event) => this.call("tool_call", "emitToolCall", event);
	emitToolResult: ExtensionHooks["emitToolResult"] = (event) => this.call("tool_result", "emitToolResult", event);
	emitUserBash: ExtensionHooks["emitUserBash"] = (event) => this.call("user_bash", "emitUserBash", event);
	emitSessionBeforeSwitch: ExtensionHooks["emitSessionBeforeSwitch"] = (event) =>
		this.call("session_before_switch", "emitSessionBeforeSwitch", event);
	emitSessionBeforeFork: ExtensionHooks["emitSessionBeforeFork"] = (event) =>
		this.call("session_before_fork", "emitSessionBeforeFork", event);
	emitSessionBeforeCompact: ExtensionHooks["emitSessionBeforeCompact"] = (event) =>
		this.call("session_before_compact", "emitSessionBeforeCompact", event);
	emitSessionBeforeTree: ExtensionHooks["emitSessionBeforeTree"] = (event) =>
		this.call("session_before_tree", "emitSessionBeforeTree", event);
	emitResourcesDiscover: ExtensionHooks["emitResourcesDiscover"] = (event) =>
		this.call("resources_discover", "emitResourcesDiscover", event);
	getCommand = (name: string) => this.commands.find((command) => command.name === name);
	getCommands = () => this.commands;
	getTools = () => this.tools;
	reload = async () => {};

	private call(type: string, method: keyof Overrides, ...args: any[]): Promise<any> {
		this.calls.push(type);
		const override = this.overrides[method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
		const fallback = noopExtensionHooks[method] as (...a: unknown[]) => Promise<unknown>;
		return (override ?? fallback)(...args);
	}
}
