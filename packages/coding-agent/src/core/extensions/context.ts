// The contexts handlers, tools and commands receive (docs/extensions.md "Contexts"). A context is made per call and reads
// every value when accessed, so a handler that awaits sees the session as it is then.
import type { ModelRegistry } from "../config/model-registry.js";
import type { ExtensionSessionBinding } from "./hooks.js";
import type { ExtensionCommandContext, ExtensionContext, ExtensionPermissions } from "./types.js";
import type { ExtensionUIContext } from "./ui-context.js";

/** What the mode decides: its UI, what "shut down" means, and its versions of the session-changing commands. */
export interface ModeBindings {
	ui: ExtensionUIContext;
	hasUI: boolean;
	shutdown(): void;
	commandActions: Partial<CommandActions>;
}

/** The session-changing methods of the command context; a mode may replace any (e.g. to refresh its screen). */
export interface CommandActions {
	waitForIdle: ExtensionCommandContext["waitForIdle"];
	newSession: ExtensionCommandContext["newSession"];
	fork: ExtensionCommandContext["fork"];
	navigateTree: ExtensionCommandContext["navigateTree"];
	switchSession: ExtensionCommandContext["switchSession"];
	reload: ExtensionCommandContext["reload"];
}

export interface ContextSources {
	cwd: string;
	modelRegistry: ModelRegistry | undefined;
	session: ExtensionSessionBinding | undefined;
	mode: ModeBindings;
	reportError(error: unknown, event: string): void;
}

function requireSession(sources: ContextSources): ExtensionSessionBinding {
	if (!sources.session) throw new Error("No session is bound to the extension runner yet.");
	return sources.session;
}

export function createExtensionContext(sources: ContextSources): ExtensionContext {
	return {
		get ui() {
			return sources.mode.ui;
		},
		get hasUI() {
			return sources.mode.hasUI;
		},
		get cwd() {
			return sources.session?.cwd ?? sources.cwd;
		},
		get sessionManager() {
			return requireSession(sources).sessionManager;
		},
		get modelRegistry() {
			const registry = sources.session?.modelRegistry ?? sources.modelRegistry;
			if (!registry) throw new Error("No model registry is bound to the extension runner yet.");
			return registry;
		},
		get model() {
			return sources.session?.model;
		},
		isIdle: () => !(sources.session?.isStreaming ?? false),
		abort: () => {
			void sources.session?.abort().catch((error: unknown) => sources.reportError(error, "abort"));
		},
		hasPendingMessages: () => (sources.session?.pendingMessageCount ?? 0) > 0,
		shutdown: () => sources.mode.shutdown(),
		getContextUsage: () => sources.session?.getContextUsage(),
		compact: (options = {}) => {
			const session = requireSession(sources);
			session.compact(options.customInstructions).then(
				(result) => options.onComplete?.(result),
				(error: unknown) => {
					const failure = error instanceof Error ? error : new Error(String(error));
					if (options.onError) options.onError(failure);
					else sources.reportError(failure, "compact");
				},
			);
		},
		getSystemPrompt: () => sources.session?.systemPrompt ?? "",
		get permissions(): ExtensionPermissions {
			const permissions = requireSession(sources).permissions;
			return {
				getMode: () => permissions.mode,
				setMode: (mode) => permissions.setMode(mode),
				addRules: (rules) => permissions.addRules(rules, "extension"),
				getRules: () => permissions.listRules(),
				check: (toolName, input) => permissions.evaluate(toolName, input),
			};
		},
	};
}

function defaultCommandActions(sources: ContextSources): CommandActions {
	return {
		waitForIdle: () => requireSession(sources).waitForIdle(),
		newSession: async (options) => ({ cancelled: !(await requireSession(sources).newSession(options)) }),
		fork: async (entryId) => ({ cancelled: (await requireSession(sources).fork(entryId)).cancelled }),
		navigateTree: async (targetId, options) => ({
			cancelled: (await requireSession(sources).navigateTree(targetId, options)).cancelled,
		}),
		switchSession: async (path) => ({ cancelled: !(await requireSession(sources).switchSession(path)) }),
		reload: () => requireSession(sources).reload(),
	};
}

export function createCommandContext(sources: ContextSources): ExtensionCommandContext {
	const base = createExtensionContext(sources);
	const actions: CommandActions = { ...defaultCommandActions(sources), ...sources.mode.commandActions };
	// Spread would read the getters once; define the command methods on the live context instead.
	return Object.assign(base, actions);
}
