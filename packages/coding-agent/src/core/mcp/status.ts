// What the rest of the agent can know about an MCP server: its state, tools, prompts and last error. Shared by
// the manager, the modes (`/mcp`, RPC `get_mcp_servers`) and embedders; imports nothing of the MCP SDK.
import type { McpConfigSource, McpToolMode, McpTransportKind } from "./config.js";

export const MCP_SERVER_STATES = [
	/** `enabled: false` in its configuration. */
	"disabled",
	/** The first connection attempt is running. */
	"starting",
	"connected",
	/** It failed or exited; the next attempt waits for its backoff or is running. */
	"reconnecting",
	/** A remote server wants OAuth authorization: waiting for the user to open `authorizationUrl`. */
	"needs-auth",
	/** Gave up after the bounded attempts (or cannot work at all); `/mcp restart` tries again. */
	"failed",
	/** The session ended. */
	"stopped",
] as const;

export type McpServerState = (typeof MCP_SERVER_STATES)[number];

export interface McpToolStatus {
	/** The name the model calls: `mcp__<server>__<tool>`. */
	name: string;
	/** The tool's name on its server. */
	mcpName: string;
	description?: string;
}

export interface McpPromptStatus {
	/** The slash command: `mcp__<server>__<prompt>`. */
	command: string;
	/** The prompt's name on its server. */
	mcpName: string;
	description?: string;
	arguments: { name: string; description?: string; required: boolean }[];
}

export interface McpServerStatus {
	name: string;
	source: McpConfigSource;
	configPath?: string;
	/** The transport in use while connected, else the configured one. */
	transport: McpTransportKind;
	state: McpServerState;
	/** How its tools reach the model (decided when its tools are first listed, for `auto` servers). */
	toolMode?: McpToolMode;
	tools: McpToolStatus[];
	prompts: McpPromptStatus[];
	/** The last failure (kept after a reconnect, until the next success). */
	error?: string;
	/** `needs-auth`: the page the user opens to authorize. */
	authorizationUrl?: string;
	/** Failed attempts since the last successful connection. */
	failedAttempts: number;
	/** stdio: the process id while it runs. */
	pid?: number;
	/** stdio: the end of what the server wrote to stderr (bounded). */
	stderr?: string;
}

/** A line for the user about a server (failures, authorization); each incident is reported once. */
export interface McpNotice {
	/** Absent for configuration problems found on `/reload`. */
	server?: string;
	level: "info" | "warning" | "error";
	text: string;
}
