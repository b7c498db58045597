// What an AgentSession is built from. `createAgentSession` (sdk.ts) fills in the defaults.
import type { AgentTool, StreamFn, ThinkingLevel } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import type { ModelRegistry } from "./config/model-registry.js";
import type { ScopedModel } from "./config/model-resolver.js";
import type { SettingsManager } from "./config/settings-manager.js";
import type { ExtensionHooks, ExtensionTool } from "./extensions/hooks.js";
import type { McpManager } from "./mcp/manager.js";
import type { CommandLinePermissions } from "./permissions/session-permissions.js";
import type { ResourceLoader } from "./resources/resource-loader.js";
import type { SessionManager } from "./session/session-manager.js";

/** Everything an AgentSession is built from; `createAgentSession` fills in the defaults. */
export interface AgentSessionConfig {
	cwd: string;
	sessionManager: SessionManager;
	settingsManager: SettingsManager;
	modelRegistry: ModelRegistry;
	resourceLoader: ResourceLoader;
	/** Default: no extensions. */
	hooks?: ExtensionHooks;
	/** The model to start with; undefined when none could be chosen (prompts then fail with a clear error). */
	model?: Model;
	/** Requested level (clamped to the model); default: the session's recorded level, else the settings default. */
	thinkingLevel?: ThinkingLevel;
	/** Models for cycling (`--models`, `enabledModels`). */
	scopedModels?: ScopedModel[];
	/** Initially active built-in tools. Default: read, bash, edit, write for `cwd`. */
	tools?: AgentTool[];
	/** Additional tools (with optional prompt snippet and guidelines), active from the start. */
	customTools?: ExtensionTool[];
	/** The session's MCP servers (their tools, prompts and state); the session stops them when it ends. */
	mcp?: McpManager;
	/** Ours: `--allow`, `--deny`, `--permission-mode`; the settings' rules and mode apply too (docs/permissions.md). */
	permissions?: CommandLinePermissions;
	/** The provider call. Default `streamSimple`; tests pass a FauxProvider's `stream`. */
	streamFn?: StreamFn;
	/**
	 * A model call whose stream is silent this long fails as retryable. Default: settings
	 * `retry.streamStallTimeoutMs`, else 120 s; 0 disables.
	 */
	streamStallTimeoutMs?: number;
}
