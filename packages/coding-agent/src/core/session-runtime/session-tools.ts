// The tools the model can call and the system prompt that describes them. Changing the active set rebuilds
// the prompt.
import type { Agent, AgentTool } from "@agent/agent-core";
import type { SettingsManager } from "../config/settings-manager.js";
import type { ExtensionHooks, ExtensionTool } from "../extensions/hooks.js";
import type { ResourceLoader } from "../resources/resource-loader.js";
import { BUILTIN_TOOL_SNIPPETS, buildSystemPrompt } from "../resources/system-prompt.js";
import { type CustomToolPromptInfo, collectCustomToolPromptInputs } from "../resources/tool-prompt-inputs.js";
import type { BashSpawnHook } from "../tools/bash.js";
import type { BashOutputFiles } from "../tools/bash-output-files.js";
import type { ShellEnvironment } from "../tools/shell-env.js";
import { createAllTools } from "../tools/tool-sets.js";

export const DEFAULT_ACTIVE_TOOL_NAMES: readonly string[] = ["read", "bash", "edit", "write"];

export interface SessionToolsOptions {
	cwd: string;
	/** Receives the active tools and the base system prompt whenever they change. */
	agent: Agent;
	settingsManager: SettingsManager;
	resourceLoader: ResourceLoader;
	hooks: ExtensionHooks;
	/** The initially active built-in tools (default: read, bash, edit, write for `cwd`). */
	tools?: AgentTool[];
	/** SDK tools with optional prompt snippets and guidelines; active from the start. */
	customTools?: ExtensionTool[];
	/** The session's command environment and full-output files, for the built-in bash tool. */
	shellEnvironment?: ShellEnvironment;
	bashOutputFiles?: BashOutputFiles;
	/** Ours: rewrites what the built-in bash tool spawns (the permissions' OS sandbox). */
	bashSpawnHook?: BashSpawnHook;
	/**
	 * MCP tools, asked for again on every refresh. Only those with a prompt snippet (the `mcp` tool) are named
	 * in the system prompt: the others come and go with their servers and reach the model as tool definitions,
	 * so the prompt stays the same while servers connect.
	 */
	mcpTools?: () => readonly ExtensionTool[];
	/** Ours: applied to every tool of the registry (file checkpoints record edit, write and bash calls). */
	wrapTool?: (tool: ExtensionTool) => ExtensionTool;
}

/**
 * Every tool the session knows, by name: the seven built-ins for the session's cwd, the tools given to the
 * SDK, custom tools, and extension tools (a later source replaces an earlier tool of the same name), plus
 * which of them are active.
 */
export class SessionTools {
	private registry = new Map<string, ExtensionTool>();
	private readonly custom = new Set<string>();
	/** MCP tools left out of the system prompt's tool list. */
	private readonly unlisted = new Set<string>();
	private active: string[] = [];

	private basePrompt = "";

	constructor(private readonly options: SessionToolsOptions) {
		this.rebuildRegistry();
		const initial = options.tools?.map((tool) => tool.name) ?? [...DEFAULT_ACTIVE_TOOL_NAMES];
		const extra = [...this.custom];
		this.active = [...new Set([...initial, ...extra])].filter((name) => this.registry.has(name));
		this.apply();
	}

	/** The system prompt of the active tools and resources, before `before_agent_start` handlers change it. */
	get baseSystemPrompt(): string {
		return this.basePrompt;
	}

	/** Gives the agent the active tools and a freshly built system prompt. */
	apply(): void {
		this.options.agent.setTools(this.getActiveTools());
		this.basePrompt = this.buildSystemPrompt();
		this.options.agent.setSystemPrompt(this.basePrompt);
	}

	/** `resources_discover`: skills, templates and themes extensions point to join the resources. */
	async discoverExtensionResources(reason: "startup" | "reload"): Promise<void> {
		const { hooks, resourceLoader, cwd } = this.options;
		if (!hooks.hasHandlers("resources_discover")) return;
		const paths = await hooks.emitResourcesDiscover({ cwd, reason });
		const found =
			(paths.skillPaths?.length ?? 0) + (paths.promptPaths?.length ?? 0) + (paths.themePaths?.length ?? 0);
		if (found === 0) return;
		resourceLoader.extendResources(paths, "extension");
		this.apply();
	}

	/** Active tools, in activation order. */
	getActiveTools(): AgentTool[] {
		return this.active.map((name) => this.registry.get(name) as AgentTool);
	}

	getActiveToolNames(): string[] {
		return [...this.active];
	}

	getAllTools(): { name: string; description: string; parameters: unknown }[] {
		return [...this.registry.values()].map(({ name, description, parameters }) => ({
			name,
			description,
			parameters,
		}));
	}

	/** Unknown names are ignored; the system prompt is rebuilt. */
	setActiveToolsByName(names: readonly string[]): void {
		this.active = [...new Set(names)].filter((name) => this.registry.has(name));
		this.apply();
	}

	/** Picks up tools extensions registered since the last call; new ones become active. */
	refresh(): void {
		const before = new Set(this.registry.keys());
		this.rebuildRegistry();
		for (const name of this.registry.keys()) {
			if (!before.has(name) && !this.active.includes(name)) this.active.push(name);
		}
		this.active = this.active.filter((name) => this.registry.has(name));
		this.apply();
	}

	/** The base system prompt for the active tools (before `before_agent_start` handlers change it). */
	buildSystemPrompt(): string {
		const loader = this.options.resourceLoader;
		const customInfo: CustomToolPromptInfo[] = [];
		for (const name of this.active) {
			if (!this.custom.has(name) || this.unlisted.has(name)) continue;
			const tool = this.registry.get(name) as ExtensionTool;
			// A replacement of a built-in keeps the built-in's one-liner unless it brings its own.
			const keepsBuiltinSnippet = BUILTIN_TOOL_SNIPPETS[name] !== undefined && tool.promptSnippet === undefined;
			customInfo.push({
				name,
				description: keepsBuiltinSnippet ? "" : tool.description,
				...(tool.promptSnippet !== undefined ? { promptSnippet: tool.promptSnippet } : {}),
				...(tool.promptGuidelines ? { promptGuidelines: tool.promptGuidelines } : {}),
			});
		}
		const { toolSnippets, promptGuidelines } = collectCustomToolPromptInputs(customInfo);
		const append = loader.getAppendSystemPrompt().join("\n\n");
		return buildSystemPrompt({
			customPrompt: loader.getSystemPrompt(),
			selectedTools: this.active.filter((name) => !this.unlisted.has(name)),
			toolSnippets,
			promptGuidelines,
			...(append ? { appendSystemPrompt: append } : {}),
			cwd: this.options.cwd,
			contextFiles: loader.getContextFiles().contextFiles,
			skills: loader.getSkills().skills,
		});
	}

	private rebuildRegistry(): void {
		const { cwd, settingsManager, tools, customTools, hooks, shellEnvironment, bashOutputFiles, mcpTools } =
			this.options;
		const spawnHook = this.options.bashSpawnHook;
		const registry = new Map<string, ExtensionTool>();
		const builtIns = createAllTools(cwd, {
			bash: {
				commandPrefix: settingsManager.getShellCommandPrefix(),
				shellPath: settingsManager.getShellPath(),
				...(shellEnvironment ? { environment: shellEnvironment } : {}),
				...(spawnHook ? { spawnHook } : {}),
				output: {
					maxFileBytes: settingsManager.getLimits().bashOutputFileBytes,
					...(bashOutputFiles ? { files: bashOutputFiles } : {}),
				},
			},
		});
		for (const tool of Object.values(builtIns)) registry.set(tool.name, tool);
		for (const tool of tools ?? []) registry.set(tool.name, tool);
		this.custom.clear();
		this.unlisted.clear();
		for (const tool of mcpTools?.() ?? []) {
			registry.set(tool.name, tool);
			this.custom.add(tool.name);
			if (tool.promptSnippet === undefined) this.unlisted.add(tool.name);
		}
		// An SDK or extension tool of the same name replaces an MCP tool.
		for (const tool of [...(customTools ?? []), ...hooks.getTools()]) {
			registry.set(tool.name, tool);
			this.custom.add(tool.name);
			this.unlisted.delete(tool.name);
		}
		const { wrapTool } = this.options;
		if (wrapTool) for (const [name, tool] of registry) registry.set(name, wrapTool(tool));
		this.registry = registry;
	}
}
