// The MCP servers of one session: started in the background, their tools offered to the model (directly, or
// through the `mcp` tool for on-demand servers), their prompts as slash commands, their state for `/mcp`,
// RPC and the SDK, and their notices for the mode to show. Importing this module does not load the SDK.
import type { AgentToolResult, AgentToolUpdateCallback } from "@agent/agent-core";
import { validateToolArguments } from "@agent/ai";
import type { AuthStorage } from "../config/auth-storage.js";
import type { McpSettings } from "../config/settings-schema.js";
import type { ExtensionTool } from "../extensions/hooks.js";
import { parseSlashCommand } from "../session-runtime/prompt-input.js";
import type { McpConnectFunction } from "./client-handle.js";
import type { LoadedMcpConfig, McpServerConfig, McpToolMode } from "./config.js";
import {
	DEFAULT_MAX_CONNECT_ATTEMPTS,
	defaultReconnectDelayMs,
	McpServerConnection,
	notConnectedText,
} from "./connection.js";
import { type ExpandedMcpPrompt, promptArguments, promptResultToInput } from "./prompts.js";
import { createMcpTool, type McpCatalogEntry, type McpToolCatalog } from "./search-tool.js";
import type { McpNotice, McpServerStatus } from "./status.js";
import { convertMcpToolResult, type McpToolDetails } from "./tool-results.js";
import { createMcpAgentTool, MCP_NAME_PREFIX, mcpQualifiedName } from "./tools.js";

/** Notices kept for a mode that has not subscribed yet. */
const NOTICE_BACKLOG = 50;

export interface McpManagerOptions {
	/** The session's working directory: where a local server without `cwd` runs. Default: the process's. */
	cwd?: string;
	/** Servers of the configuration files (`loadMcpConfig`). */
	fileServers: readonly McpServerConfig[];
	/** Servers the SDK caller passes; they win over file servers of the same name. */
	extraServers?: readonly McpServerConfig[];
	/** Reads the configuration files again (`/reload`). */
	loadConfig?: () => LoadedMcpConfig;
	settings: () => Required<McpSettings>;
	/** OAuth tokens of remote servers (auth.json). */
	authStorage?: AuthStorage;
	/** How to connect; default: the MCP SDK client, imported on the first connection. */
	connect?: McpConnectFunction;
	/** Delay before the next attempt after `failedAttempts` failures. Default 1 s, 2 s, 4 s, … (max 30 s). */
	reconnectDelayMs?: (failedAttempts: number) => number;
	/** Failed attempts in a row after which a server is left `failed`. Default 5. */
	maxAttempts?: number;
}

function progressText(progress: { progress: number; total?: number; message?: string }): string {
	const amount = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
	return progress.message ? `${progress.message} (${amount})` : `Progress: ${amount}`;
}

export class McpManager implements McpToolCatalog {
	private readonly connections = new Map<string, McpServerConnection>();
	/** Tool modes decided so far; servers without a configured mode are decided when their tools are listed. */
	private readonly modes = new Map<string, { mode: McpToolMode; autoDirectTools: number }>();
	private fileServers: McpServerConfig[];
	private editorServers: McpServerConfig[] = [];
	private tools: ExtensionTool[] | undefined;
	private toolsSignature = "";
	private readonly toolListeners = new Set<() => void>();
	private readonly changeListeners = new Set<() => void>();
	private readonly noticeListeners = new Set<(notice: McpNotice) => void>();
	private noticeBacklog: McpNotice[] = [];
	private started = false;
	private disposed = false;
	private connector: Promise<McpConnectFunction> | undefined;

	constructor(private readonly options: McpManagerOptions) {
		this.fileServers = [...options.fileServers];
		for (const config of this.effectiveConfigs()) this.connections.set(config.name, this.createConnection(config));
	}

	/** Starts every enabled server in the background; returns at once. */
	start(): void {
		if (this.started || this.disposed) return;
		this.started = true;
		for (const connection of this.connections.values()) connection.start();
	}

	get hasServers(): boolean {
		return this.connections.size > 0;
	}

	/** Resolves once every server's first connection attempt has ended. */
	async whenStarted(): Promise<void> {
		await Promise.all([...this.connections.values()].map((connection) => connection.whenSettled()));
	}

	getServers(): McpServerStatus[] {
		return [...this.connections.values()].map((connection) => this.statusOf(connection));
	}

	/** The tools for the model: the direct servers' tools, and the `mcp` tool when any server is enabled. */
	getTools(): ExtensionTool[] {
		this.tools ??= this.buildTools();
		return this.tools;
	}

	/** Called when `getTools()` would return other tools. */
	onToolsChanged(listener: () => void): () => void {
		this.toolListeners.add(listener);
		return () => this.toolListeners.delete(listener);
	}

	/** Called on any change of a server's state, tools or prompts. */
	onChange(listener: () => void): () => void {
		this.changeListeners.add(listener);
		return () => this.changeListeners.delete(listener);
	}

	/** Failures and authorization requests; notices from before the first listener are delivered to it. */
	onNotice(listener: (notice: McpNotice) => void): () => void {
		this.noticeListeners.add(listener);
		const backlog = this.noticeBacklog;
		this.noticeBacklog = [];
		for (const notice of backlog) listener(notice);
		return () => this.noticeListeners.delete(listener);
	}

	/** Stops and starts a server again, with its failure count reset. */
	async restart(name: string): Promise<void> {
		const connection = this.connections.get(name);
		if (!connection) throw new Error(`Unknown MCP server "${name}"`);
		this.modes.delete(name);
		await connection.restart();
	}

	/**
	 * `/reload`: the configuration files are read again; changed or new servers (re)start, removed ones stop,
	 * the others keep running. Problems in the files are notices.
	 */
	async reload(): Promise<void> {
		if (!this.options.loadConfig || this.disposed) return;
		const loaded = this.options.loadConfig();
		for (const text of loaded.errors) this.emitNotice({ level: "warning", text });
		this.fileServers = loaded.servers;
		await this.reconcile();
	}

	/** The servers an editor passes for the session (ACP); they win over configured servers of the same name. */
	async setEditorServers(servers: readonly McpServerConfig[]): Promise<void> {
		this.editorServers = [...servers];
		await this.reconcile();
	}

	/** Stops every server (and its process group). */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		this.disposed = true;
		await Promise.all([...this.connections.values()].map((connection) => connection.stop()));
		this.toolListeners.clear();
		this.changeListeners.clear();
	}

	// ── prompts ──────────────────────────────────────────────────────────────────────────────────────────

	/** The prompts of connected servers as slash commands (`mcp__<server>__<prompt>`). */
	getPromptCommands(): { name: string; description?: string; server: string }[] {
		const commands: { name: string; description?: string; server: string }[] = [];
		for (const connection of this.connections.values()) {
			if (connection.state !== "connected") continue;
			for (const prompt of connection.prompts) {
				const description = prompt.description ?? prompt.title;
				commands.push({
					name: mcpQualifiedName(connection.name, prompt.name),
					...(description ? { description } : {}),
					server: connection.name,
				});
			}
		}
		return commands;
	}

	/**
	 * `/mcp__<server>__<prompt> args` → the prompt's text and images; undefined for any other text. Throws
	 * when the server is not connected, an argument is missing, or the server fails.
	 */
	async expandPromptCommand(text: string): Promise<ExpandedMcpPrompt | undefined> {
		const command = parseSlashCommand(text);
		if (!command?.name.startsWith(MCP_NAME_PREFIX)) return undefined;
		const server = [...this.connections.values()].find((connection) =>
			command.name.startsWith(mcpQualifiedName(connection.name, "")),
		);
		if (!server) return undefined;
		await server.whenSettled();
		const prompt = server.prompts.find((candidate) => mcpQualifiedName(server.name, candidate.name) === command.name);
		if (!prompt) {
			if (server.state !== "connected") throw new Error(notConnectedText(server.name, server.state, server.error));
			return undefined;
		}
		const args = promptArguments(command.name, prompt, command.args);
		const timeoutMs = server.config.timeoutMs ?? this.options.settings().toolTimeoutMs;
		return promptResultToInput(await server.getPrompt(prompt.name, args, { timeoutMs }));
	}

	// ── the catalog the `mcp` tool searches ──────────────────────────────────────────────────────────────

	async waitForStartingServers(): Promise<void> {
		const starting = [...this.connections.values()].filter((connection) => connection.state === "starting");
		await Promise.all(starting.map((connection) => connection.whenSettled()));
	}

	entries(): McpCatalogEntry[] {
		const entries: McpCatalogEntry[] = [];
		for (const connection of this.connections.values()) {
			if (connection.state !== "connected") continue;
			const mode = this.modes.get(connection.name)?.mode;
			for (const definition of connection.tools) {
				entries.push({
					server: connection.name,
					name: mcpQualifiedName(connection.name, definition.name),
					definition,
					mode,
				});
			}
		}
		return entries;
	}

	unavailable(): { server: string; state: McpServerStatus["state"]; error?: string }[] {
		return [...this.connections.values()]
			.filter((connection) => connection.state !== "connected" && connection.state !== "disabled")
			.map((connection) => ({
				server: connection.name,
				state: connection.state,
				...(connection.error ? { error: connection.error } : {}),
			}));
	}

	async call(
		entry: McpCatalogEntry,
		args: Record<string, unknown>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<McpToolDetails> | undefined,
	): Promise<AgentToolResult<McpToolDetails>> {
		const tool = createMcpAgentTool(entry.server, entry.definition, entry.name, this.executeTool);
		const validated = validateToolArguments(tool, {
			type: "toolCall",
			id: "mcp",
			name: entry.name,
			arguments: args,
		});
		return this.executeTool(entry.server, entry.definition.name, validated, signal, onUpdate);
	}

	// ── internals ────────────────────────────────────────────────────────────────────────────────────────

	private readonly executeTool = async (
		server: string,
		tool: string,
		args: Record<string, unknown>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<McpToolDetails> | undefined,
	): Promise<AgentToolResult<McpToolDetails>> => {
		const connection = this.connections.get(server);
		if (!connection) throw new Error(`Unknown MCP server "${server}"`);
		const timeoutMs = connection.config.timeoutMs ?? this.options.settings().toolTimeoutMs;
		const result = await connection.callTool(tool, args, {
			timeoutMs,
			...(signal ? { signal } : {}),
			...(onUpdate
				? {
						onProgress: (progress) =>
							onUpdate({ content: [{ type: "text", text: progressText(progress) }], details: { server, tool } }),
					}
				: {}),
		});
		const converted = convertMcpToolResult(result, { server, tool });
		if (converted.isError) throw new Error(converted.text || `MCP tool "${tool}" of server "${server}" failed.`);
		return converted.result;
	};

	private effectiveConfigs(): McpServerConfig[] {
		const byName = new Map<string, McpServerConfig>();
		const cwd = this.options.cwd;
		for (const config of [...this.fileServers, ...(this.options.extraServers ?? []), ...this.editorServers]) {
			byName.delete(config.name);
			byName.set(config.name, config.transport === "stdio" && !config.cwd && cwd ? { ...config, cwd } : config);
		}
		return [...byName.values()];
	}

	private createConnection(config: McpServerConfig): McpServerConnection {
		const settings = this.options.settings();
		return new McpServerConnection({
			config,
			connectTimeoutMs: settings.connectTimeoutMs,
			...(this.options.authStorage ? { authStorage: this.options.authStorage } : {}),
			loadConnector: () => this.loadConnector(),
			reconnectDelayMs: this.options.reconnectDelayMs ?? defaultReconnectDelayMs,
			maxAttempts: this.options.maxAttempts ?? DEFAULT_MAX_CONNECT_ATTEMPTS,
			onChange: () => this.handleChange(),
			onNotice: (notice) => this.emitNotice(notice),
		});
	}

	private loadConnector(): Promise<McpConnectFunction> {
		if (this.options.connect) return Promise.resolve(this.options.connect);
		this.connector ??= import("./client.js").then((module) => module.connectMcpServer);
		return this.connector;
	}

	private async reconcile(): Promise<void> {
		if (this.disposed) return;
		const wanted = this.effectiveConfigs();
		const stopping: Promise<void>[] = [];
		const next = new Map<string, McpServerConnection>();
		const fresh: McpServerConnection[] = [];
		for (const config of wanted) {
			const existing = this.connections.get(config.name);
			if (existing && JSON.stringify(existing.config) === JSON.stringify(config)) {
				next.set(config.name, existing);
				continue;
			}
			if (existing) stopping.push(existing.stop());
			this.modes.delete(config.name);
			const connection = this.createConnection(config);
			next.set(config.name, connection);
			fresh.push(connection);
		}
		for (const [name, connection] of this.connections) {
			if (!next.has(name)) {
				stopping.push(connection.stop());
				this.modes.delete(name);
			}
		}
		this.connections.clear();
		for (const [name, connection] of next) this.connections.set(name, connection);
		await Promise.all(stopping);
		if (this.started) for (const connection of fresh) connection.start();
		this.handleChange();
	}

	/** Direct unless configured otherwise or the direct-tool budget would be exceeded (decided once per start). */
	private decideModes(): void {
		const limit = this.options.settings().directToolLimit;
		for (const connection of this.connections.values()) {
			if (connection.state !== "connected" || this.modes.has(connection.name)) continue;
			const configured = connection.config.toolMode;
			if (configured) {
				this.modes.set(connection.name, { mode: configured, autoDirectTools: 0 });
				continue;
			}
			let used = 0;
			for (const decided of this.modes.values()) used += decided.autoDirectTools;
			const count = connection.tools.length;
			const mode: McpToolMode = used + count <= limit ? "direct" : "on-demand";
			this.modes.set(connection.name, { mode, autoDirectTools: mode === "direct" ? count : 0 });
		}
	}

	private handleChange(): void {
		if (this.disposed) return;
		this.decideModes();
		const tools = this.buildTools();
		const signature = tools.map((tool) => `${tool.name}\u0000${tool.description}`).join("\u0001");
		this.tools = tools;
		if (signature !== this.toolsSignature) {
			this.toolsSignature = signature;
			for (const listener of this.toolListeners) listener();
		}
		for (const listener of this.changeListeners) listener();
	}

	private buildTools(): ExtensionTool[] {
		const enabled = [...this.connections.values()].filter((connection) => connection.config.enabled);
		if (enabled.length === 0) return [];
		const tools: ExtensionTool[] = [
			createMcpTool(
				enabled.map((connection) => connection.name),
				this,
			),
		];
		const taken = new Set(tools.map((tool) => tool.name));
		for (const connection of this.connections.values()) {
			// A server that is reconnecting keeps its tools listed: calls say it is not connected meanwhile.
			if (connection.state !== "connected" && connection.state !== "reconnecting") continue;
			if (this.modes.get(connection.name)?.mode !== "direct") continue;
			for (const definition of connection.tools) {
				let name = mcpQualifiedName(connection.name, definition.name);
				for (let suffix = 2; taken.has(name); suffix++) name = `${name.slice(0, 60)}_${suffix}`;
				taken.add(name);
				tools.push(createMcpAgentTool(connection.name, definition, name, this.executeTool));
			}
		}
		return tools;
	}

	private emitNotice(notice: McpNotice): void {
		if (this.noticeListeners.size === 0) {
			this.noticeBacklog = [...this.noticeBacklog, notice].slice(-NOTICE_BACKLOG);
			return;
		}
		for (const listener of this.noticeListeners) listener(notice);
	}

	private statusOf(connection: McpServerConnection): McpServerStatus {
		const { config } = connection;
		const mode = this.modes.get(connection.name)?.mode ?? config.toolMode;
		const stderr = connection.stderr;
		return {
			name: config.name,
			source: config.source,
			...(config.configPath !== undefined ? { configPath: config.configPath } : {}),
			transport: connection.transport,
			state: connection.state,
			...(mode ? { toolMode: mode } : {}),
			tools: connection.tools.map((tool) => ({
				name: mcpQualifiedName(config.name, tool.name),
				mcpName: tool.name,
				...(tool.description ? { description: tool.description } : {}),
			})),
			prompts: connection.prompts.map((prompt) => ({
				command: mcpQualifiedName(config.name, prompt.name),
				mcpName: prompt.name,
				...(prompt.description ? { description: prompt.description } : {}),
				arguments: (prompt.arguments ?? []).map((argument) => ({
					name: argument.name,
					...(argument.description ? { description: argument.description } : {}),
					required: argument.required === true,
				})),
			})),
			...(connection.error ? { error: connection.error } : {}),
			...(connection.authorizationUrl ? { authorizationUrl: connection.authorizationUrl } : {}),
			failedAttempts: connection.failedAttempts,
			...(connection.pid !== undefined ? { pid: connection.pid } : {}),
			...(stderr ? { stderr } : {}),
		};
	}
}
