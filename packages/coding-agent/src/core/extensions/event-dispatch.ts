// Delivering events to handlers (docs/extensions.md "Events", "Errors"): in extension load order and, within an extension, in
// registration order; each event's combination rule (chained transforms, first block or cancel wins, collected
// results); every handler isolated — a failure is reported with the extension's path and stack and the next
// handler runs (except `tool_call`, whose errors block the call). The runner (./runner.ts) adds registrations,
// lookups and the mode's bindings on top.
import type { AgentMessage } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import type { ResourceExtensionPaths } from "../resources/resource-loader.js";
import type { ExtensionEventMap, ExtensionEventResultMap } from "./events.js";
import type {
	BeforeAgentStartEvent,
	BeforeAgentStartResult,
	CustomMessageInput,
	ExtensionError,
	ExtensionEventType,
	ExtensionNotification,
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
import type { Extension, ExtensionContext, StoredHandler } from "./types.js";

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

export function errorFields(error: unknown): { error: string; stack?: string } {
	if (error instanceof Error) return { error: error.message, ...(error.stack ? { stack: error.stack } : {}) };
	return { error: String(error) };
}

function isNonEmptyResult(value: unknown): boolean {
	return typeof value === "object" && value !== null && Object.values(value).some((field) => field !== undefined);
}

export abstract class EventDispatcher {
	/** The loaded extensions, in load order. */
	protected abstract get loadedExtensions(): readonly Extension[];
	/** See `ExtensionRunnerOptions.handlerTimeoutMs`. */
	protected abstract get handlerTimeoutMs(): number | undefined;
	abstract createContext(): ExtensionContext;
	abstract emitError(error: ExtensionError): void;

	hasHandlers(type: ExtensionEventType): boolean {
		return this.loadedExtensions.some((extension) => (extension.handlers.get(type)?.length ?? 0) > 0);
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

	// -- delivery --------------------------------------------------------------------------------------------

	/** Handlers of one event: extensions in load order, each extension's in registration order (a snapshot). */
	protected deliveries(type: ExtensionEventType): Delivery[] {
		const deliveries: Delivery[] = [];
		for (const extension of this.loadedExtensions) {
			for (const handler of extension.handlers.get(type) ?? []) deliveries.push({ extension, handler });
		}
		return deliveries;
	}

	/** Calls one handler; a failure is reported with the extension's path and stack, and yields undefined. */
	protected async call<K extends ExtensionEventType>(
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
	protected withTimeout(result: unknown): Promise<unknown> {
		const ms = this.handlerTimeoutMs;
		if (ms === undefined || !(result instanceof Promise)) return Promise.resolve(result);
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(handlerTimedOutText(ms))), ms);
		});
		return Promise.race([result, timeout]).finally(() => clearTimeout(timer));
	}

	/** `session_before_fork/compact/tree`: the first `cancel` stops; otherwise the last non-empty result. */
	protected async emitCancellable<K extends "session_before_fork" | "session_before_compact" | "session_before_tree">(
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
}
