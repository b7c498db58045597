// `createAgentSession`: an AgentSession with every part defaulted, so embedding the agent takes this call
// and `session.prompt(…)`.
import { resolve } from "node:path";
import type { AgentTool, StreamFn, ThinkingLevel } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import { AgentSession } from "./agent-session.js";
import { AuthStorage } from "./config/auth-storage.js";
import { ModelRegistry } from "./config/model-registry.js";
import { findInitialModel, type ScopedModel } from "./config/model-resolver.js";
import { getAgentDir, getAuthPath, getModelsPath } from "./config/paths.js";
import { SettingsManager } from "./config/settings-manager.js";
import type { ExtensionHooks, ExtensionTool } from "./extensions/hooks.js";
import type { LoadExtensionsResult } from "./extensions/loader.js";
import { ExtensionRuntime } from "./extensions/runtime.js";
import type { SetupExtensionsResult } from "./extensions/setup.js";
import { type ProjectTrustDecision, resolveProjectTrust } from "./extensions/trust.js";
import type { ExtensionFactory } from "./extensions/types.js";
import type { McpConnectFunction } from "./mcp/client-handle.js";
import { type LoadedMcpConfig, loadMcpConfig, type McpServerConfig } from "./mcp/config.js";
import { McpManager } from "./mcp/manager.js";
import type { CommandLinePermissions } from "./permissions/session-permissions.js";
import {
	adaptReferenceResourceLoader,
	isReferenceResourceLoader,
	type ReferenceResourceLoader,
} from "./resources/reference-resource-loader.js";
import { DefaultResourceLoader, type ResourceLoader } from "./resources/resource-loader.js";
import { SessionManager } from "./session/session-manager.js";
import { getDefaultSessionDir } from "./session/session-paths.js";

export interface CreateAgentSessionOptions {
	/** Working directory for tools, resources and the session folder. Default `process.cwd()`. */
	cwd?: string;
	/** Global config directory (settings, auth, models, sessions, resources). Default `~/.agent` or `$AGENT_DIR`. */
	agentDir?: string;
	/** Default: a new session file in the cwd's folder under `<agentDir>/sessions`. */
	sessionManager?: SessionManager;
	/**
	 * Default: `<agentDir>/settings.json` merged with `<cwd>/.agent/settings.json` (whose settings that run code
	 * apply only in a trusted project; see `trustProject`).
	 */
	settingsManager?: SettingsManager;
	/** Default: `<agentDir>/auth.json`. Ignored when `modelRegistry` is given (its storage is used). */
	authStorage?: AuthStorage;
	/** Default: built-in models plus `<agentDir>/models.json`. */
	modelRegistry?: ModelRegistry;
	/**
	 * Default: the session's recorded model when it has credentials, else `defaultProvider`/`defaultModel`
	 * from settings, else the first provider with credentials.
	 */
	model?: Model;
	/** Clamped to the model. Default: the session's recorded level, else `defaultThinkingLevel`, else medium. */
	thinkingLevel?: ThinkingLevel;
	/** Models to cycle through (`--models`). */
	scopedModels?: ScopedModel[];
	/** Initially active built-in tools. Default: read, bash, edit, write for `cwd`. */
	tools?: AgentTool[];
	/** More tools, active from the start; `promptSnippet`/`promptGuidelines` feed the system prompt. */
	customTools?: ExtensionTool[];
	/**
	 * Default: `DefaultResourceLoader` for `cwd` and `agentDir`, loaded. A loader written against the reference's
	 * interface (`getExtensions`, `getAgentsFiles`, …) works too: its loaded extensions are the session's.
	 */
	resourceLoader?: ResourceLoader | ReferenceResourceLoader;
	/** The provider call. Default `streamSimple`; tests pass a `FauxProvider`'s `stream`. */
	streamFn?: StreamFn;
	/**
	 * The extension runner. Default: the extensions the resource loader discovered (`-e`, packages, settings,
	 * `<agentDir>/extensions/`; the project's own only in a trusted project) plus `extensionFactories`.
	 */
	hooks?: ExtensionHooks;
	/** Extensions given as code, loaded after the discovered ones as `<inline:1>`, `<inline:2>`, … */
	extensionFactories?: ExtensionFactory[];
	/**
	 * Trust the project (and remember it): its `.agent/` extensions load and its settings that run code or decide
	 * what runs (`PROJECT_SETTINGS_NEEDING_TRUST`: `shellPath`, `shellCommandPrefix`, `packages`, …) apply.
	 * Default: only if the user trusted it before; otherwise they are ignored and `projectTrust.notice` says so.
	 */
	trustProject?: boolean;
	/** A model call whose stream is silent this long is aborted and retried. Default 120 000 ms; 0 disables. */
	streamStallTimeoutMs?: number;
	/**
	 * Permission rules and mode of the command line (`--allow`, `--deny`, `--permission-mode`); the settings' rules
	 * apply too. A call that would ask is refused until the mode binds a way to ask (`session.permissions.setPrompt`).
	 */
	permissions?: CommandLinePermissions;
	/**
	 * MCP servers (docs/mcp.md). Default: those of `<agentDir>/mcp.json`, and of the project's `.mcp.json` and
	 * `.agent/mcp.json` when the project is trusted. `false`: no MCP at all.
	 */
	mcp?: false | CreateAgentSessionMcpOptions;
}

export interface CreateAgentSessionMcpOptions {
	/** More servers (they win over configured servers of the same name). */
	servers?: McpServerConfig[];
	/** Read the configuration files. Default true. */
	configFiles?: boolean;
	/** How to connect (tests). Default: the MCP SDK client, loaded when the first server starts. */
	connect?: McpConnectFunction;
	/** Delay before the next attempt after `failedAttempts` failures. Default 1 s, 2 s, 4 s, … */
	reconnectDelayMs?: (failedAttempts: number) => number;
	/** Failed attempts in a row before a server is left failed. Default 5. */
	maxAttempts?: number;
}

export interface CreateAgentSessionResult {
	session: AgentSession;
	/** What the extensions loaded to (the reference's name; empty when there were none or `hooks` was given). */
	extensionsResult: LoadExtensionsResult;
	/** The extensions loaded for the session (when `hooks` was not given and there were any). */
	extensions?: SetupExtensionsResult;
	/** Why the session's recorded model could not be restored, when it could not. */
	modelFallbackMessage?: string;
	/** Problems of the MCP configuration files (an untrusted project's servers are named in `projectTrust`). */
	mcpWarnings: string[];
	/** Whether the project is trusted, and what of it stays off when not (with a notice to show). */
	projectTrust: ProjectTrustDecision;
}

function createMcpManager(
	options: CreateAgentSessionOptions,
	context: { cwd: string; agentDir: string; settingsManager: SettingsManager; authStorage: AuthStorage },
): { manager?: McpManager; warnings: string[] } {
	if (options.mcp === false) return { warnings: [] };
	const mcp = options.mcp ?? {};
	const readFiles = mcp.configFiles !== false;
	// Asked at every (re)load: trust decided at start-up, or later, applies.
	const load = (): LoadedMcpConfig =>
		readFiles
			? loadMcpConfig({
					cwd: context.cwd,
					agentDir: context.agentDir,
					projectTrusted: context.settingsManager.isProjectTrusted(),
				})
			: { servers: [], errors: [] };
	const loaded = load();
	const manager = new McpManager({
		cwd: context.cwd,
		fileServers: loaded.servers,
		...(mcp.servers ? { extraServers: mcp.servers } : {}),
		loadConfig: load,
		settings: () => context.settingsManager.getMcpSettings(),
		authStorage: context.authStorage,
		...(mcp.connect ? { connect: mcp.connect } : {}),
		...(mcp.reconnectDelayMs ? { reconnectDelayMs: mcp.reconnectDelayMs } : {}),
		...(mcp.maxAttempts !== undefined ? { maxAttempts: mcp.maxAttempts } : {}),
	});
	return {
		manager,
		warnings: loaded.errors,
	};
}

/** Builds an AgentSession from defaults and whatever the caller supplies. */
export async function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<CreateAgentSessionResult> {
	const cwd = resolve(options.cwd ?? process.cwd());
	const agentDir = options.agentDir ?? getAgentDir();
	const settingsManager = options.settingsManager ?? SettingsManager.create(cwd, agentDir);
	const modelRegistry =
		options.modelRegistry ??
		new ModelRegistry(options.authStorage ?? AuthStorage.create(getAuthPath(agentDir)), getModelsPath(agentDir));
	const sessionManager = options.sessionManager ?? SessionManager.create(cwd, getDefaultSessionDir(cwd, agentDir));
	let resourceLoader: ResourceLoader;
	let preloaded: LoadExtensionsResult | undefined;
	if (!options.resourceLoader) {
		resourceLoader = new DefaultResourceLoader({ cwd, agentDir, settingsManager });
		await resourceLoader.reload();
	} else if (isReferenceResourceLoader(options.resourceLoader)) {
		const adapted = adaptReferenceResourceLoader(options.resourceLoader);
		preloaded = adapted.getExtensions();
		resourceLoader = adapted;
	} else {
		resourceLoader = options.resourceLoader;
	}
	// A DefaultResourceLoader's SDK options (inline factories, event bus, override, what was loaded).
	const loaderExtras = resourceLoader as Partial<DefaultResourceLoader>;
	const factories = [...(loaderExtras.getExtensionFactories?.() ?? []), ...(options.extensionFactories ?? [])];
	// Before anything of the project runs (the caller may have decided already: then this only reports it).
	const projectTrust = await resolveProjectTrust({
		cwd,
		agentDir,
		settingsManager,
		resourceLoader,
		...(options.trustProject ? { trustProjectFlag: true } : {}),
	});

	// Before the model is chosen: providers registered by extensions may supply it.
	let extensions: SetupExtensionsResult | undefined;
	const hasExtensions = resourceLoader.getExtensionPaths().extensions.length > 0 || factories.length > 0;
	if (!options.hooks && preloaded && preloaded.extensions.length > 0) {
		const { ExtensionRunner } = await import("./extensions/runner.js");
		const runner = new ExtensionRunner(preloaded, { cwd, modelRegistry });
		extensions = { runner, errors: runner.getLoadErrors(), skippedProjectExtensions: [] };
	} else if (!options.hooks && hasExtensions) {
		const { setupExtensions } = await import("./extensions/setup.js");
		const eventBus = loaderExtras.getEventBus?.();
		const override = loaderExtras.getExtensionsOverride?.();
		extensions = await setupExtensions({
			cwd,
			agentDir,
			resourceLoader,
			modelRegistry,
			...(factories.length > 0 ? { factories } : {}),
			...(eventBus ? { eventBus } : {}),
			...(override ? { override } : {}),
			...(loaderExtras.setLoadedExtensions
				? { onLoaded: (result: LoadExtensionsResult) => loaderExtras.setLoadedExtensions?.(result) }
				: {}),
			isProjectTrusted: () => settingsManager.isProjectTrusted(),
		});
	}
	const hooks = options.hooks ?? extensions?.runner;

	let model = options.model;
	let thinkingLevel = options.thinkingLevel;
	let modelFallbackMessage: string | undefined;
	if (!model) {
		const recorded = sessionManager.getEntries().length > 0 ? sessionManager.buildSessionContext().model : null;
		const selection = findInitialModel(modelRegistry, {
			scopedModels: options.scopedModels,
			isContinuing: recorded !== null,
			sessionModel: recorded,
			defaultProvider: settingsManager.getDefaultProvider(),
			defaultModelId: settingsManager.getDefaultModel(),
		});
		model = selection.model;
		thinkingLevel ??= selection.thinkingLevel;
		if (selection.warnings.length > 0) modelFallbackMessage = selection.warnings.join("\n");
	}

	const mcp = createMcpManager(options, { cwd, agentDir, settingsManager, authStorage: modelRegistry.authStorage });
	const session = new AgentSession({
		cwd,
		sessionManager,
		settingsManager,
		modelRegistry,
		resourceLoader,
		...(hooks ? { hooks } : {}),
		...(model ? { model } : {}),
		...(thinkingLevel ? { thinkingLevel } : {}),
		...(options.scopedModels ? { scopedModels: options.scopedModels } : {}),
		...(options.tools ? { tools: options.tools } : {}),
		...(options.customTools ? { customTools: options.customTools } : {}),
		...(options.streamFn ? { streamFn: options.streamFn } : {}),
		...(options.streamStallTimeoutMs !== undefined ? { streamStallTimeoutMs: options.streamStallTimeoutMs } : {}),
		...(mcp.manager ? { mcp: mcp.manager } : {}),
		...(options.permissions ? { permissions: options.permissions } : {}),
	});
	const runtime = extensions?.runner.runtime;
	return {
		session,
		extensionsResult: {
			extensions: [...(extensions?.runner.getExtensions() ?? [])],
			errors: extensions?.errors ?? [],
			runtime: runtime ?? new ExtensionRuntime({ cwd }),
		},
		projectTrust,
		...(extensions ? { extensions } : {}),
		...(modelFallbackMessage ? { modelFallbackMessage } : {}),
		mcpWarnings: mcp.warnings,
	};
}
