// The extension author's side (docs/extensions.md "`ExtensionAPI`", "Contexts"): the `ExtensionAPI` a factory receives, tool
// definitions, the contexts handlers and commands get, and provider registrations. Only types, plus the
// record the loader builds per extension.
import type { AgentToolResult, AgentToolUpdateCallback, ThinkingLevel } from "@agent/agent-core";
import type {
	Api,
	AssistantMessageEventStream,
	Context,
	ImageContent,
	Model,
	ModelCost,
	OAuthLoginCallbacks,
	OpenAICompletionsCompat,
	SimpleStreamOptions,
	Static,
	TextContent,
	TSchema,
} from "@agent/ai";
import type { AutocompleteItem, Component, KeyId } from "@agent/tui";
import type { CompactionResult } from "../compaction/compaction.js";
import type { OAuthCredential } from "../config/auth-storage.js";
import type { ModelRegistry } from "../config/model-registry.js";
import type { CustomMessage } from "../messages.js";
import type { PermissionMode } from "../permissions/modes.js";
import type { PermissionRuleSet } from "../permissions/policy.js";
import type { ListedRule, PermissionEvaluation } from "../permissions/session-permissions.js";
import type { SessionManager } from "../session/session-manager.js";
import type {
	ExtensionEventMap,
	ExtensionEventName,
	ExtensionEventResultMap,
	SessionDirectoryEvent,
} from "./events.js";
import type {
	ContextUsage,
	CustomMessageInput,
	NavigateTreeOptions,
	NewSessionRequest,
	SlashCommandInfo,
} from "./hooks.js";
import type { ExtensionUIContext, Theme } from "./ui-context.js";

// ---------------------------------------------------------------------------------------------------------
// Contexts
// ---------------------------------------------------------------------------------------------------------

/** The session file as handlers may read it; writing goes through the API (appendEntry, setLabel, …). */
export type ReadonlySessionManager = Pick<
	SessionManager,
	| "getCwd"
	| "getSessionDir"
	| "getSessionId"
	| "getSessionFile"
	| "getHeader"
	| "getEntries"
	| "getEntry"
	| "getLeafId"
	| "getLeafEntry"
	| "getBranch"
	| "getChildren"
	| "getTree"
	| "getLabel"
	| "getSessionName"
	| "buildSessionContext"
	| "isPersisted"
>;

export interface CompactOptions {
	customInstructions?: string;
	onComplete?(result: CompactionResult): void;
	onError?(error: Error): void;
}

/** Ours: the session's permission rules and mode (docs/permissions.md), as `pi.permissions` and `ctx.permissions`. */
export interface ExtensionPermissions {
	getMode(): PermissionMode;
	/** For this session (not saved); the terminal UI's footer and editors follow. */
	setMode(mode: PermissionMode): void;
	/**
	 * Rules for this session, listed under the extension's name (`pi.permissions`) or `extension` (`ctx`); deny
	 * still wins over ask and allow, whoever added them. Returns the function that removes them. Through `pi`
	 * this works while the extension loads too (the rules apply once the session starts).
	 */
	addRules(rules: PermissionRuleSet): () => void;
	/** Every rule in effect, deny first, with its source. */
	getRules(): ListedRule[];
	/** What the rules and the mode decide for a call, without asking anyone or recording anything. */
	check(toolName: string, input: Record<string, unknown>): Promise<PermissionEvaluation>;
}

/** What handlers, tools and shortcuts get. Created per call; every value is read when accessed. */
export interface ExtensionContext {
	readonly ui: ExtensionUIContext;
	/** False in print and JSON modes, where `ui` is the no-op context. */
	readonly hasUI: boolean;
	readonly cwd: string;
	readonly sessionManager: ReadonlySessionManager;
	readonly modelRegistry: ModelRegistry;
	readonly model: Model | undefined;
	isIdle(): boolean;
	/** Stops the current run (fire-and-forget). */
	abort(): void;
	hasPendingMessages(): boolean;
	/** Asks the mode to end the session (RPC: after the next command; interactive: right away). */
	shutdown(): void;
	getContextUsage(): ContextUsage | undefined;
	/** Fire-and-forget; the outcome goes to `onComplete` / `onError`. */
	compact(options?: CompactOptions): void;
	/** The current effective system prompt. */
	getSystemPrompt(): string;
	/** Ours: permission rules and mode. */
	readonly permissions: ExtensionPermissions;
}

/** What command handlers get: the context plus the session-changing methods (unsafe inside event handlers). */
export interface ExtensionCommandContext extends ExtensionContext {
	waitForIdle(): Promise<void>;
	newSession(options?: NewSessionRequest): Promise<{ cancelled: boolean }>;
	fork(entryId: string): Promise<{ cancelled: boolean }>;
	navigateTree(targetId: string, options?: NavigateTreeOptions): Promise<{ cancelled: boolean }>;
	switchSession(sessionPath: string): Promise<{ cancelled: boolean }>;
	reload(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------------------

// `void` so that `async (event) => { … }` handlers without a result type-check.
// biome-ignore lint/suspicious/noConfusingVoidType: handler return types
type HandlerReturn<TResult> = TResult | undefined | void | Promise<TResult | undefined | void>;

/** `session_directory` handlers run before any session exists and get no context. */
export type ExtensionHandler<K extends ExtensionEventName> = K extends "session_directory"
	? (event: SessionDirectoryEvent & { type: "session_directory" }) => HandlerReturn<ExtensionEventResultMap[K]>
	: (event: ExtensionEventMap[K], ctx: ExtensionContext) => HandlerReturn<ExtensionEventResultMap[K]>;

// ---------------------------------------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------------------------------------

export interface ToolRenderResultOptions {
	/** The user expanded tool output (Ctrl+O). */
	expanded: boolean;
	/** An `onUpdate` snapshot of a running tool. */
	isPartial: boolean;
}

/** A tool the model can call. Signal failure by throwing: a returned value never sets `isError`. */
export interface ToolDefinition<TParams extends TSchema = TSchema, TDetails = unknown> {
	name: string;
	/** Shown in UIs. */
	label: string;
	description: string;
	/** One line for the system prompt's "Available tools"; falls back to the description. */
	promptSnippet?: string;
	/** Bullets added to the system prompt's "Guidelines" while this tool is active. */
	promptGuidelines?: string[];
	parameters: TParams;
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
		ctx: ExtensionContext,
	): Promise<AgentToolResult<TDetails>>;
	renderCall?(args: Static<TParams>, theme: Theme): Component | undefined;
	renderResult?(
		result: AgentToolResult<TDetails>,
		options: ToolRenderResultOptions,
		theme: Theme,
	): Component | undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Commands, shortcuts, flags, renderers
// ---------------------------------------------------------------------------------------------------------

export interface RegisteredCommandOptions {
	description?: string;
	/** Completions for the text after `/name `; null for none. */
	getArgumentCompletions?: (argumentPrefix: string) => AutocompleteItem[] | null;
	handler: (args: string, ctx: ExtensionCommandContext) => Promise<void> | void;
}

export interface ShortcutOptions {
	description?: string;
	handler: (ctx: ExtensionContext) => Promise<void> | void;
}

export type FlagType = "boolean" | "string";

export interface FlagOptions {
	description?: string;
	type: FlagType;
	default?: boolean | string;
}

/** Renders a `custom` message of one `customType`; undefined falls back to the default rendering. */
export type MessageRenderer<TDetails = unknown> = (
	message: CustomMessage<TDetails>,
	options: { expanded: boolean },
	theme: Theme,
) => Component | undefined;

// ---------------------------------------------------------------------------------------------------------
// Providers (docs/custom-provider.md)
// ---------------------------------------------------------------------------------------------------------

export interface ProviderModelConfig {
	id: string;
	name: string;
	api?: Api;
	reasoning: boolean;
	input: ("text" | "image")[];
	cost: ModelCost;
	contextWindow: number;
	maxTokens: number;
	headers?: Record<string, string>;
	compat?: OpenAICompletionsCompat;
}

export interface ExtensionOAuthConfig {
	/** Shown in `/login`. */
	name: string;
	login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredential>;
	refreshToken(credentials: OAuthCredential): Promise<OAuthCredential>;
	getApiKey(credentials: OAuthCredential): string;
	modifyModels?(models: Model[], credentials: OAuthCredential): Model[];
}

/**
 * `registerProvider(name, config)`: the fields of a models.json provider, plus a stream implementation and
 * OAuth. (The reference calls this `ProviderConfig`; that name is models.json's here.)
 */
export interface ExtensionProviderConfig {
	baseUrl?: string;
	/** Environment variable name, literal, or `!shell command`. */
	apiKey?: string;
	api?: Api;
	streamSimple?: (model: Model, context: Context, options?: SimpleStreamOptions) => AssistantMessageEventStream;
	headers?: Record<string, string>;
	/** Adds `Authorization: Bearer <resolved key>`. */
	authHeader?: boolean;
	compat?: OpenAICompletionsCompat;
	/** Non-empty: replace all models of the provider. */
	models?: ProviderModelConfig[];
	oauth?: ExtensionOAuthConfig;
}

// ---------------------------------------------------------------------------------------------------------
// The API
// ---------------------------------------------------------------------------------------------------------

export interface ExecOptions {
	signal?: AbortSignal;
	/** Milliseconds; then SIGTERM, and SIGKILL 5 s later. */
	timeout?: number;
	/** Default: the session's cwd. */
	cwd?: string;
}

export interface ExecResult {
	stdout: string;
	stderr: string;
	code: number;
	killed: boolean;
}

/** Channels shared by all extensions. */
export interface EventBus {
	emit(channel: string, data?: unknown): void;
	/** Returns the unsubscribe function. A throwing handler is logged and skipped. */
	on(channel: string, handler: (data: unknown) => void | Promise<void>): () => void;
}

export interface SendMessageOptions {
	/** Idle: start a run with this message as the prompt. */
	triggerTurn?: boolean;
	/** Streaming: steer (default) or follow up; `nextTurn`: hold until the next user prompt. */
	deliverAs?: "steer" | "followUp" | "nextTurn";
}

export interface ExtensionAPI {
	on<K extends ExtensionEventName>(event: K, handler: ExtensionHandler<K>): void;
	registerTool<TParams extends TSchema = TSchema, TDetails = unknown>(tool: ToolDefinition<TParams, TDetails>): void;
	registerCommand(name: string, options: RegisteredCommandOptions): void;
	registerShortcut(shortcut: KeyId, options: ShortcutOptions): void;
	registerFlag(name: string, options: FlagOptions): void;
	/** Only flags this extension registered; undefined otherwise. */
	getFlag(name: string): boolean | string | undefined;
	registerMessageRenderer<TDetails = unknown>(customType: string, renderer: MessageRenderer<TDetails>): void;

	sendMessage<TDetails = unknown>(message: CustomMessageInput<TDetails>, options?: SendMessageOptions): void;
	sendUserMessage(
		content: string | (TextContent | ImageContent)[],
		options?: { deliverAs?: "steer" | "followUp" },
	): void;
	/** A `custom` session entry: extension state that never reaches the model. */
	appendEntry<TData = unknown>(customType: string, data?: TData): void;
	setSessionName(name: string): void;
	getSessionName(): string | undefined;
	setLabel(entryId: string, label: string | undefined): void;
	exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult>;
	getActiveTools(): string[];
	getAllTools(): { name: string; description: string; parameters: unknown }[];
	setActiveTools(names: string[]): void;
	getCommands(): SlashCommandInfo[];
	/** False when the model's provider has no API key. */
	setModel(model: Model): Promise<boolean>;
	getThinkingLevel(): ThinkingLevel;
	/** Clamped to what the model supports. */
	setThinkingLevel(level: ThinkingLevel): void;
	registerProvider(name: string, config: ExtensionProviderConfig): void;
	unregisterProvider(name: string): void;
	readonly events: EventBus;
	/** Ours: permission rules and mode (docs/permissions.md). */
	readonly permissions: ExtensionPermissions;
}

/** An extension module's default export. */
export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;

// ---------------------------------------------------------------------------------------------------------
// What loading produces
// ---------------------------------------------------------------------------------------------------------

/** A handler as the runner stores it (typed per event at `on`). */
export type StoredHandler = (event: unknown, ctx: ExtensionContext | undefined) => unknown;

export interface RegisteredCommand extends RegisteredCommandOptions {
	name: string;
	extensionPath: string;
}

export interface RegisteredShortcut extends ShortcutOptions {
	shortcut: KeyId;
	extensionPath: string;
}

export interface RegisteredFlag extends FlagOptions {
	name: string;
	extensionPath: string;
}

export interface RegisteredTool {
	definition: ToolDefinition;
	extensionPath: string;
}

/** Everything one extension registered. The loader fills it while the factory runs. */
export interface Extension {
	/** As given (a file path, or `<inline:N>` for SDK factories). */
	path: string;
	/** Absolute path of the module; equal to `path` for inline factories. */
	resolvedPath: string;
	handlers: Map<ExtensionEventName, StoredHandler[]>;
	tools: Map<string, RegisteredTool>;
	commands: Map<string, RegisteredCommand>;
	shortcuts: Map<KeyId, RegisteredShortcut>;
	flags: Map<string, RegisteredFlag>;
	messageRenderers: Map<string, MessageRenderer>;
}

export interface ExtensionLoadError {
	path: string;
	error: string;
}
