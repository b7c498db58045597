// AgentSessions for ACP: one per `session/new` or `session/load`, for the cwd the editor names. The same
// steps the CLI takes for its one session (settings, resources, extensions, session file, model), with the
// command line's flags as defaults, per cwd.
import type { AgentTool, ThinkingLevel } from "@agent/agent-core";
import type { AgentSession } from "../../core/agent-session.js";
import type { ModelRegistry } from "../../core/config/model-registry.js";
import { findInitialModel, resolveModelScope, type ScopedModel } from "../../core/config/model-resolver.js";
import { SettingsManager } from "../../core/config/settings-manager.js";
import { formatSettingsWarning } from "../../core/config/settings-store.js";
import type { ExtensionRunner } from "../../core/extensions/runner.js";
import { resolveProjectTrust } from "../../core/extensions/trust.js";
import type { CommandLinePermissions } from "../../core/permissions/session-permissions.js";
import { DefaultResourceLoader, type DefaultResourceLoaderOptions } from "../../core/resources/resource-loader.js";
import { createAgentSession } from "../../core/sdk.js";
import { SessionManager } from "../../core/session/session-manager.js";
import { TOOL_NAMES_BUILT_IN } from "./session-config.js";

/** Resource flags of the command line (`-e`, `--skill`, `--no-extensions`, `--system-prompt`, …). */
export type AcpResourceOptions = Omit<DefaultResourceLoaderOptions, "cwd" | "agentDir" | "settingsManager">;

/** What the command line chose for every session of this run. */
export interface AcpSessionDefaults {
	agentDir: string;
	modelRegistry: ModelRegistry;
	resourceOptions: AcpResourceOptions;
	/** `--provider` / `--model`. */
	provider?: string;
	model?: string;
	/** `--thinking`. */
	thinkingLevel?: ThinkingLevel;
	/** `--models`; default: the `enabledModels` setting. */
	modelScope?: string[];
	/** `--tools` (`[]` for `--no-tools`): the active built-in tools. Default: read, bash, edit, write. */
	tools?: string[];
	/** `--trust-project`: trust each session's project (its extensions and settings that run code). */
	trustProject: boolean;
	/** `--session-dir`. */
	sessionDir?: string;
	/** False with `--no-session`: sessions live in memory and cannot be loaded later. */
	persistSessions: boolean;
	/** Values of extension flags given on the command line. */
	extensionFlagValues?: ReadonlyMap<string, boolean | string>;
	/** `--allow`, `--deny`, `--permission-mode`. */
	permissions?: CommandLinePermissions;
	/** Called with each session made. */
	onSession?: (session: AgentSession) => void;
}

export interface SessionRequest {
	cwd: string;
	/** Open this session file instead of starting a new session. */
	sessionFile?: string;
	/** The built-in tools to use instead of the local ones (editor file access, editor terminals). */
	buildTools: (settings: SettingsManager, modelRegistry: ModelRegistry) => AgentTool[];
	/** Warnings (settings, resources, extension load failures) go here; never to stdout. */
	warn: (line: string) => void;
}

export interface CreatedSession {
	session: AgentSession;
	/** The session's extensions; undefined when it has none. */
	extensions?: ExtensionRunner;
}

/** Thrown when no model can be used at all (no credentials): the client should authenticate. */
export class NoModelAvailableError extends Error {}

async function loadExtensions(
	defaults: AcpSessionDefaults,
	cwd: string,
	resourceLoader: DefaultResourceLoader,
	settingsManager: SettingsManager,
	warn: (line: string) => void,
): Promise<ExtensionRunner | undefined> {
	if (resourceLoader.getExtensionPaths().extensions.length === 0) return undefined;
	// The loader (and jiti) only when there is something to load.
	const { extensionLoadFailureText, setupExtensions } = await import("../../core/extensions/setup.js");
	const result = await setupExtensions({
		cwd,
		agentDir: defaults.agentDir,
		resourceLoader,
		modelRegistry: defaults.modelRegistry,
		isProjectTrusted: () => settingsManager.isProjectTrusted(),
	});
	for (const error of result.errors) warn(extensionLoadFailureText(error));
	if (defaults.extensionFlagValues) result.runner.setFlagValues(defaults.extensionFlagValues);
	result.runner.onError((error) => warn(error.stack ?? `Extension error (${error.extensionPath}): ${error.error}`));
	return result.runner;
}

function openSessionManager(
	defaults: AcpSessionDefaults,
	request: SessionRequest,
	sessionDir: string | undefined,
): SessionManager {
	if (request.sessionFile !== undefined) return SessionManager.open(request.sessionFile, sessionDir, request.cwd);
	if (!defaults.persistSessions) return SessionManager.inMemory(request.cwd);
	return SessionManager.create(request.cwd, sessionDir);
}

export async function createSessionForCwd(
	defaults: AcpSessionDefaults,
	request: SessionRequest,
): Promise<CreatedSession> {
	const { cwd, warn } = request;
	const { agentDir, modelRegistry } = defaults;
	const settingsManager = SettingsManager.create(cwd, agentDir);
	for (const error of settingsManager.drainErrors()) warn(formatSettingsWarning(error));
	const resourceLoader = new DefaultResourceLoader({ cwd, agentDir, settingsManager, ...defaults.resourceOptions });
	await resourceLoader.reload();
	// No terminal to ask on: `--trust-project` or a remembered decision, else the project's code stays off.
	const trust = await resolveProjectTrust({
		cwd,
		agentDir,
		settingsManager,
		resourceLoader,
		trustProjectFlag: defaults.trustProject,
	});
	if (trust.notice) warn(trust.notice);
	for (const diagnostic of resourceLoader.getDiagnostics()) {
		if (diagnostic.type === "error" || diagnostic.type === "warning")
			warn(`Warning: ${diagnostic.message} (${diagnostic.path})`);
	}
	const extensions = await loadExtensions(defaults, cwd, resourceLoader, settingsManager, warn);

	const sessionDir = defaults.sessionDir ?? (await extensions?.emitSessionDirectory(cwd));
	const sessionManager = openSessionManager(defaults, request, sessionDir);
	try {
		let scopedModels: ScopedModel[] = [];
		const scopePatterns = defaults.modelScope ?? settingsManager.getEnabledModels();
		if (scopePatterns && scopePatterns.length > 0) {
			const scope = resolveModelScope(scopePatterns, modelRegistry.getAvailable());
			for (const warning of scope.warnings) warn(warning);
			scopedModels = scope.scopedModels;
		}
		const hasEntries = sessionManager.getEntries().length > 0;
		const initial = findInitialModel(modelRegistry, {
			...(defaults.provider !== undefined ? { cliProvider: defaults.provider } : {}),
			...(defaults.model !== undefined ? { cliModel: defaults.model } : {}),
			scopedModels,
			isContinuing: hasEntries,
			sessionModel: hasEntries ? sessionManager.buildSessionContext().model : null,
			defaultProvider: settingsManager.getDefaultProvider(),
			defaultModelId: settingsManager.getDefaultModel(),
		});
		if (initial.error) throw new Error(initial.error);
		if (!initial.model) throw new NoModelAvailableError("No models available: no provider has credentials.");
		for (const warning of initial.warnings) warn(warning);

		const thinkingLevel = defaults.thinkingLevel ?? initial.thinkingLevel;
		const { session, mcpWarnings } = await createAgentSession({
			cwd,
			agentDir,
			sessionManager,
			settingsManager,
			modelRegistry,
			resourceLoader,
			model: initial.model,
			tools: request.buildTools(settingsManager, modelRegistry),
			...(extensions ? { hooks: extensions } : {}),
			...(thinkingLevel ? { thinkingLevel } : {}),
			...(scopedModels.length > 0 ? { scopedModels } : {}),
			...(defaults.trustProject ? { trustProject: true } : {}),
			...(defaults.permissions ? { permissions: defaults.permissions } : {}),
		});
		for (const warning of mcpWarnings) warn(warning);
		for (const notice of session.permissions.notices()) warn(notice);
		if (defaults.tools !== undefined) {
			// As on the command line: --tools chooses the built-ins; extension tools stay active.
			const others = session.getActiveToolNames().filter((name) => !TOOL_NAMES_BUILT_IN.includes(name));
			session.setActiveToolsByName([...defaults.tools, ...others]);
		}
		defaults.onSession?.(session);
		return { session, ...(extensions ? { extensions } : {}) };
	} catch (error) {
		sessionManager.close();
		throw error;
	}
}
