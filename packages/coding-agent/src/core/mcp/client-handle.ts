// The seam between a server's lifecycle (connection.ts, no SDK) and the MCP SDK (client.ts, loaded on first
// use): what a connected client can do, and what the connection tells the client code.
import type { CallToolResult, GetPromptResult, Prompt, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { AuthStorage } from "../config/auth-storage.js";
import type { McpServerConfig, McpTransportKind } from "./config.js";

export type { CallToolResult, GetPromptResult, Prompt as McpPromptDefinition, Tool as McpToolDefinition };

export interface McpCallOptions {
	signal?: AbortSignal;
	/** 0: no timeout. */
	timeoutMs: number;
	onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** One live client of one server. */
export interface McpClientHandle {
	/** stdio: the server's process id. */
	readonly pid?: number;
	/** The transport in use (a server without `type` may have fallen back to SSE). */
	readonly transport?: McpTransportKind;
	listTools(): Promise<Tool[]>;
	listPrompts(): Promise<Prompt[]>;
	callTool(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult>;
	getPrompt(name: string, args: Record<string, string>, options: McpCallOptions): Promise<GetPromptResult>;
	/** Ends the connection; a stdio server's process group is terminated. */
	close(): Promise<void>;
}

export interface McpConnectHooks {
	connectTimeoutMs: number;
	/** Where OAuth tokens of remote servers are kept (auth.json). */
	authStorage?: AuthStorage;
	/** Text the server wrote to stderr (stdio). */
	onStderr(text: string): void;
	/** The connection ended on its own (process exit, network); `reason` says how. */
	onClosed(reason: string): void;
	/** The server announced that its tools or prompts changed. */
	onListChanged(kind: "tools" | "prompts"): void;
}

export type McpConnectFunction = (config: McpServerConfig, hooks: McpConnectHooks) => Promise<McpClientHandle>;

/**
 * A remote server answered 401 and the authorization flow needs the user: they open `authorizationUrl`;
 * `complete()` resolves once the browser came back to the local redirect and the tokens are saved (then the
 * connection is tried again), and rejects when the flow fails or times out. `cancel()` stops waiting.
 */
export class McpAuthorizationRequired extends Error {
	constructor(
		readonly authorizationUrl: string,
		readonly complete: () => Promise<void>,
		readonly cancel: () => void,
	) {
		super("Authorization required");
		this.name = "McpAuthorizationRequired";
	}
}
