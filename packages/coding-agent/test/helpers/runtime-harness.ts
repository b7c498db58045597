// An AgentSession on a scripted FauxProvider, in real temp directories, with every event recorded.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AgentTool } from "@agent/agent-core";
import { FauxProvider, type Model } from "@agent/ai";
import type { AgentSession } from "../../src/core/agent-session.js";
import { AuthStorage } from "../../src/core/config/auth-storage.js";
import { ModelRegistry } from "../../src/core/config/model-registry.js";
import { SettingsManager } from "../../src/core/config/settings-manager.js";
import type { Settings } from "../../src/core/config/settings-schema.js";
import type { ExtensionHooks, ExtensionTool } from "../../src/core/extensions/hooks.js";
import type { CommandLinePermissions } from "../../src/core/permissions/session-permissions.js";
import { DefaultResourceLoader } from "../../src/core/resources/resource-loader.js";
import { type CreateAgentSessionMcpOptions, createAgentSession } from "../../src/core/sdk.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import type { AgentSessionEvent } from "../../src/core/session-runtime/events.js";

export const FAUX_API_KEY = "faux-test-key";

/** A model the registry knows for a faux provider (same fields `faux.model()` gives, plus overrides). */
export interface FauxModelSpec {
	id?: string;
	reasoning?: boolean;
	contextWindow?: number;
	maxTokens?: number;
	cost?: Model["cost"];
}

export interface RuntimeHarnessOptions {
	settings?: Settings;
	/** Default true: the session is written to a file in the temp directory. */
	persist?: boolean;
	hooks?: ExtensionHooks;
	/** The faux provider's models in the registry; the first is the session's model. */
	models?: FauxModelSpec[];
	/** More providers (distinct api/provider ids) whose models the registry knows, with keys. */
	otherProviders?: { faux: FauxProvider; models: FauxModelSpec[] }[];
	tools?: AgentTool[];
	customTools?: ExtensionTool[];
	streamStallTimeoutMs?: number;
	/** Files to create in the working directory. */
	files?: Record<string, string>;
	/** Written to `<agentDir>/models.json`, which the registry then reads; without it there is no models.json. */
	modelsJson?: string;
	/** Reuse an existing session manager (reload tests). */
	sessionManager?: SessionManager;
	/** Reuse a root directory (reload tests); created otherwise. */
	root?: string;
	faux?: FauxProvider;
	/** MCP servers (default: the files of the temp directories, which have none). */
	mcp?: false | CreateAgentSessionMcpOptions;
	/** Permission rules and mode as the command line gives them. */
	permissions?: CommandLinePermissions;
}

export interface RuntimeHarness {
	root: string;
	cwd: string;
	agentDir: string;
	sessionDir: string;
	faux: FauxProvider;
	session: AgentSession;
	sessionManager: SessionManager;
	settingsManager: SettingsManager;
	modelRegistry: ModelRegistry;
	events: AgentSessionEvent[];
	/** Types of the recorded events, in order. */
	eventTypes(): string[];
	/** Recorded events of one type. */
	eventsOf<T extends AgentSessionEvent["type"]>(type: T): Extract<AgentSessionEvent, { type: T }>[];
	/** Resolves with the next event of `type` (or one already recorded after `fromIndex`). */
	nextEvent<T extends AgentSessionEvent["type"]>(
		type: T,
		fromIndex?: number,
	): Promise<Extract<AgentSessionEvent, { type: T }>>;
	dispose(): void;
}

function registerFauxModels(registry: ModelRegistry, faux: FauxProvider, models: FauxModelSpec[]): void {
	registry.registerProvider(faux.provider, {
		baseUrl: "http://faux.invalid",
		apiKey: FAUX_API_KEY,
		api: faux.api,
		models: models.map((spec, index) => ({
			id: spec.id ?? `faux-${index + 1}`,
			name: spec.id ?? `Faux ${index + 1}`,
			api: faux.api,
			reasoning: spec.reasoning ?? true,
			input: ["text", "image"],
			cost: spec.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: spec.contextWindow ?? 200_000,
			maxTokens: spec.maxTokens ?? 32_000,
		})),
	});
}

export async function createRuntimeHarness(options: RuntimeHarnessOptions = {}): Promise<RuntimeHarness> {
	const root = options.root ?? realpathSync(mkdtempSync(join(tmpdir(), "agent-runtime-")));
	const cwd = join(root, "project");
	const agentDir = join(root, "agent-home");
	const sessionDir = join(root, "sessions");
	mkdirSync(cwd, { recursive: true });
	mkdirSync(agentDir, { recursive: true });
	for (const [path, content] of Object.entries(options.files ?? {})) {
		const target = join(cwd, path);
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(target, content);
	}

	const faux = options.faux ?? new FauxProvider();
	const env: NodeJS.ProcessEnv = {};
	const credentials = { [faux.provider]: { type: "api_key" as const, key: FAUX_API_KEY } };
	for (const other of options.otherProviders ?? []) {
		credentials[other.faux.provider] = { type: "api_key", key: FAUX_API_KEY };
	}
	const authStorage = AuthStorage.inMemory(credentials, env);
	let modelsJsonPath: string | undefined;
	if (options.modelsJson !== undefined) {
		modelsJsonPath = join(agentDir, "models.json");
		writeFileSync(modelsJsonPath, options.modelsJson);
	}
	const modelRegistry = new ModelRegistry(authStorage, modelsJsonPath, env);
	registerFauxModels(modelRegistry, faux, options.models ?? [{}]);
	for (const other of options.otherProviders ?? []) registerFauxModels(modelRegistry, other.faux, other.models);
	const model = modelRegistry.find(faux.provider, options.models?.[0]?.id ?? "faux-1");

	const settingsManager = SettingsManager.inMemory(options.settings ?? {});
	const sessionManager =
		options.sessionManager ??
		(options.persist === false ? SessionManager.inMemory(cwd) : SessionManager.create(cwd, sessionDir));
	const resourceLoader = new DefaultResourceLoader({ cwd, agentDir, homeDir: root, settingsManager });
	await resourceLoader.reload();

	// Every provider is reached through one stream function, dispatching on the model's api.
	const providers = [faux, ...(options.otherProviders ?? []).map((other) => other.faux)];
	const { session } = await createAgentSession({
		cwd,
		agentDir,
		sessionManager,
		settingsManager,
		modelRegistry,
		resourceLoader,
		...(model ? { model } : {}),
		streamFn: (requestModel, context, streamOptions) => {
			const provider = providers.find((candidate) => candidate.api === requestModel.api) ?? faux;
			return provider.stream(requestModel, context, streamOptions);
		},
		...(options.hooks ? { hooks: options.hooks } : {}),
		...(options.tools ? { tools: options.tools } : {}),
		...(options.customTools ? { customTools: options.customTools } : {}),
		...(options.streamStallTimeoutMs !== undefined ? { streamStallTimeoutMs: options.streamStallTimeoutMs } : {}),
		...(options.mcp !== undefined ? { mcp: options.mcp } : {}),
		...(options.permissions ? { permissions: options.permissions } : {}),
	});

	const events: AgentSessionEvent[] = [];
	const waiters: { type: string; resolve: (event: AgentSessionEvent) => void }[] = [];
	session.subscribe((event) => {
		events.push(event);
		for (let i = waiters.length - 1; i >= 0; i--) {
			const waiter = waiters[i];
			if (waiter && waiter.type === event.type) {
				waiters.splice(i, 1);
				waiter.resolve(event);
			}
		}
	});

	return {
		root,
		cwd,
		agentDir,
		sessionDir,
		faux,
		session,
		sessionManager,
		settingsManager,
		modelRegistry,
		events,
		eventTypes: () => events.map((event) => event.type),
		eventsOf: <T extends AgentSessionEvent["type"]>(type: T) =>
			events.filter((event): event is Extract<AgentSessionEvent, { type: T }> => event.type === type),
		nextEvent: <T extends AgentSessionEvent["type"]>(type: T, fromIndex = events.length) => {
			const already = events.slice(fromIndex).find((event) => event.type === type);
			if (already) return Promise.resolve(already as Extract<AgentSessionEvent, { type: T }>);
			return new Promise<Extract<AgentSessionEvent, { type: T }>>((resolve) => {
				waiters.push({ type, resolve: resolve as (event: AgentSessionEvent) => void });
			});
		},
		dispose: () => {
			session.dispose();
			sessionManager.close();
			if (!options.root) rmSync(root, { recursive: true, force: true });
		},
	};
}
