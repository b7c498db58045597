// One configured MCP server over the session's lifetime: connecting in the background, its tools and prompts,
// failures reported once per incident and retried with exponential backoff (bounded attempts), OAuth
// authorization waiting for the user, and calls with a timeout and abort. The SDK is loaded by `loadConnector`
// on the first connection, never at start-up.
import { messageWithCauses } from "@agent/ai";
import type { AuthStorage } from "../config/auth-storage.js";
import { OPERATION_ABORTED } from "../tools/abort.js";
import {
	type CallToolResult,
	type GetPromptResult,
	McpAuthorizationRequired,
	type McpCallOptions,
	type McpClientHandle,
	type McpConnectFunction,
	type McpPromptDefinition,
	type McpToolDefinition,
} from "./client-handle.js";
import type { McpServerConfig } from "./config.js";
import type { McpNotice, McpServerState } from "./status.js";

/** What `/mcp` keeps of a stdio server's stderr: its last characters. */
export const STDERR_TAIL_CHARS = 16 * 1024;
export const DEFAULT_MAX_CONNECT_ATTEMPTS = 5;

/** 1 s, 2 s, 4 s, … capped at 30 s. */
export function defaultReconnectDelayMs(failedAttempts: number): number {
	return Math.min(30_000, 1000 * 2 ** Math.max(0, failedAttempts - 1));
}

export function notConnectedText(server: string, state: McpServerState, error: string | undefined): string {
	const why = state === "needs-auth" ? "it needs authorization (see /mcp)" : `it is ${state}`;
	return `MCP server "${server}" is not connected: ${why}${error ? ` (${error})` : ""}.`;
}

function formatDuration(ms: number): string {
	return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function errorText(error: unknown): string {
	// With its causes: a transport's `fetch failed` alone does not say which server or proxy could not be reached.
	return error instanceof Error ? messageWithCauses(error) : String(error);
}

/** The SDK's request timeout error (McpError code -32001). */
function isRequestTimeout(error: unknown): boolean {
	return typeof error === "object" && error !== null && (error as { code?: unknown }).code === -32001;
}

export interface McpConnectionOptions {
	config: McpServerConfig;
	connectTimeoutMs: number;
	authStorage?: AuthStorage;
	/** The SDK client code, imported on the first connection. */
	loadConnector: () => Promise<McpConnectFunction>;
	reconnectDelayMs: (failedAttempts: number) => number;
	maxAttempts: number;
	/** State, tools or prompts changed. */
	onChange: () => void;
	onNotice: (notice: McpNotice) => void;
}

export class McpServerConnection {
	state: McpServerState;
	tools: McpToolDefinition[] = [];
	prompts: McpPromptDefinition[] = [];
	error: string | undefined;
	authorizationUrl: string | undefined;
	failedAttempts = 0;

	private handle: McpClientHandle | undefined;
	private stderrTail = "";
	/** Bumped by stop/restart: work of an older generation is discarded when it finishes. */
	private generation = 0;
	private retryTimer: NodeJS.Timeout | undefined;
	private pendingAuthorization: McpAuthorizationRequired | undefined;
	private incidentReported = false;
	private hasConnected = false;
	private settled!: Promise<void>;
	private settle!: () => void;

	constructor(private readonly options: McpConnectionOptions) {
		this.state = options.config.enabled ? "starting" : "disabled";
		this.resetSettled();
	}

	get config(): McpServerConfig {
		return this.options.config;
	}

	get name(): string {
		return this.options.config.name;
	}

	get pid(): number | undefined {
		return this.handle?.pid;
	}

	/** The transport in use while connected (a server without `type` may use SSE). */
	get transport(): McpServerConfig["transport"] {
		return this.handle?.transport ?? this.options.config.transport;
	}

	get stderr(): string {
		return this.stderrTail;
	}

	/** Starts connecting in the background (nothing happens for a disabled server). */
	start(): void {
		if (!this.options.config.enabled) {
			this.settle();
			return;
		}
		void this.attempt(this.generation);
	}

	/** Resolves once the current connection attempt has ended (connected, failed, or waiting for the user). */
	whenSettled(): Promise<void> {
		return this.settled;
	}

	/** Forgets failures and connects again (an enabled server only). */
	async restart(): Promise<void> {
		await this.stop();
		this.failedAttempts = 0;
		this.error = undefined;
		this.incidentReported = false;
		this.hasConnected = false;
		this.stderrTail = "";
		this.state = this.options.config.enabled ? "starting" : "disabled";
		this.resetSettled();
		this.options.onChange();
		this.start();
	}

	/** Ends the connection (the process group of a stdio server) and any wait or retry. */
	async stop(): Promise<void> {
		this.generation++;
		if (this.retryTimer) clearTimeout(this.retryTimer);
		this.retryTimer = undefined;
		this.pendingAuthorization?.cancel();
		this.pendingAuthorization = undefined;
		const handle = this.handle;
		this.handle = undefined;
		this.tools = [];
		this.prompts = [];
		this.authorizationUrl = undefined;
		this.state = "stopped";
		this.settle();
		await handle?.close().catch(() => {});
	}

	async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult> {
		const handle = await this.connectedHandle();
		try {
			return await handle.callTool(name, args, options);
		} catch (error) {
			throw this.describeCallError(error, `tool "${name}"`, options);
		}
	}

	async getPrompt(name: string, args: Record<string, string>, options: McpCallOptions): Promise<GetPromptResult> {
		const handle = await this.connectedHandle();
		try {
			return await handle.getPrompt(name, args, options);
		} catch (error) {
			throw this.describeCallError(error, `prompt "${name}"`, options);
		}
	}

	private async connectedHandle(): Promise<McpClientHandle> {
		if (this.state === "starting") await this.whenSettled();
		const handle = this.handle;
		if (!handle || this.state !== "connected") throw new Error(notConnectedText(this.name, this.state, this.error));
		return handle;
	}

	private describeCallError(error: unknown, what: string, options: McpCallOptions): Error {
		if (options.signal?.aborted) return new Error(OPERATION_ABORTED);
		if (isRequestTimeout(error)) {
			return new Error(
				`MCP ${what} of server "${this.name}" did not answer within ${formatDuration(options.timeoutMs)} and was cancelled.`,
			);
		}
		const closed = this.state !== "connected" && this.error ? ` (${this.error})` : "";
		return new Error(`MCP ${what} of server "${this.name}" failed: ${errorText(error)}${closed}`);
	}

	private resetSettled(): void {
		this.settled = new Promise((resolve) => {
			this.settle = resolve;
		});
	}

	private changeState(state: McpServerState): void {
		this.state = state;
		this.options.onChange();
	}

	private appendStderr(text: string): void {
		this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
	}

	/** The last non-empty stderr line, to say why a process ended. */
	private lastStderrLine(): string | undefined {
		const lines = this.stderrTail.split("\n").map((line) => line.trim());
		return lines.filter(Boolean).at(-1);
	}

	private async attempt(generation: number): Promise<void> {
		if (generation !== this.generation) return;
		this.retryTimer = undefined;
		if (this.state !== "starting") this.changeState("reconnecting");
		const { config } = this.options;
		let handle: McpClientHandle | undefined;
		try {
			const connect = await this.options.loadConnector();
			handle = await connect(config, {
				connectTimeoutMs: this.options.connectTimeoutMs,
				...(this.options.authStorage ? { authStorage: this.options.authStorage } : {}),
				onStderr: (text) => this.appendStderr(text),
				onClosed: (reason) => {
					if (generation === this.generation && this.handle === handle) this.lost(reason);
				},
				onListChanged: (kind) => {
					if (generation === this.generation && this.handle === handle) void this.refreshList(kind, generation);
				},
			});
			if (generation !== this.generation) {
				await handle.close();
				return;
			}
			const [tools, prompts] = await Promise.all([handle.listTools(), handle.listPrompts()]);
			if (generation !== this.generation) {
				await handle.close();
				return;
			}
			this.handle = handle;
			this.tools = tools;
			this.prompts = prompts;
			this.failedAttempts = 0;
			this.error = undefined;
			this.incidentReported = false;
			this.hasConnected = true;
			this.changeState("connected");
			this.settle();
		} catch (error) {
			if (generation !== this.generation) return;
			await handle?.close().catch(() => {});
			if (error instanceof McpAuthorizationRequired) {
				void this.waitForAuthorization(error, generation);
				return;
			}
			const stderr = config.transport === "stdio" ? this.lastStderrLine() : undefined;
			this.fail(`${errorText(error)}${stderr ? `; stderr: ${stderr}` : ""}`, generation);
		}
	}

	/** The connection ended on its own (the process exited, the network failed). */
	private lost(reason: string): void {
		this.handle = undefined;
		const stderr = this.options.config.transport === "stdio" ? this.lastStderrLine() : undefined;
		this.fail(`${reason}${stderr ? `; stderr: ${stderr}` : ""}`, this.generation);
	}

	private fail(message: string, generation: number): void {
		const wasConnected = this.state === "connected";
		this.failedAttempts++;
		this.error = message;
		const { name } = this;
		if (this.failedAttempts >= this.options.maxAttempts) {
			this.tools = [];
			this.prompts = [];
			this.options.onNotice({
				server: name,
				level: "error",
				text: `MCP server "${name}" failed ${this.failedAttempts} times and was stopped: ${message}. /mcp restart ${name} tries again.`,
			});
			this.changeState("failed");
			this.settle();
			return;
		}
		if (!this.incidentReported) {
			this.incidentReported = true;
			const what = wasConnected || this.hasConnected ? "stopped" : "failed to start";
			this.options.onNotice({
				server: name,
				level: "warning",
				text: `MCP server "${name}" ${what}: ${message}. Reconnecting in the background (/mcp shows its state).`,
			});
		}
		this.changeState("reconnecting");
		this.settle();
		const timer = setTimeout(() => void this.attempt(generation), this.options.reconnectDelayMs(this.failedAttempts));
		timer.unref();
		this.retryTimer = timer;
	}

	private async waitForAuthorization(required: McpAuthorizationRequired, generation: number): Promise<void> {
		const { name } = this;
		this.pendingAuthorization = required;
		this.authorizationUrl = required.authorizationUrl;
		this.error = "authorization required";
		this.options.onNotice({
			server: name,
			level: "warning",
			text: `MCP server "${name}" needs authorization. Open this page to sign in: ${required.authorizationUrl}`,
		});
		this.changeState("needs-auth");
		this.settle();
		try {
			await required.complete();
		} catch (error) {
			if (generation !== this.generation) return;
			this.pendingAuthorization = undefined;
			this.authorizationUrl = undefined;
			this.error = `authorization failed: ${errorText(error)}`;
			this.options.onNotice({
				server: name,
				level: "error",
				text: `MCP server "${name}": ${this.error}. /mcp restart ${name} starts it again.`,
			});
			this.changeState("failed");
			return;
		}
		if (generation !== this.generation) return;
		this.pendingAuthorization = undefined;
		this.authorizationUrl = undefined;
		this.resetSettled();
		this.changeState("starting");
		await this.attempt(generation);
	}

	private async refreshList(kind: "tools" | "prompts", generation: number): Promise<void> {
		const handle = this.handle;
		if (!handle) return;
		try {
			if (kind === "tools") {
				const tools = await handle.listTools();
				if (generation === this.generation && this.handle === handle) this.tools = tools;
			} else {
				const prompts = await handle.listPrompts();
				if (generation === this.generation && this.handle === handle) this.prompts = prompts;
			}
			this.options.onChange();
		} catch {
			// The next change or reconnect lists them again.
		}
	}
}
