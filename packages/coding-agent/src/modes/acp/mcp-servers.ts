// The MCP servers an editor passes in `session/new`, `session/load` and `session/resume`, as the session's
// server configuration: the editor is the user, so they start whatever the project's trust.
import type { McpServer } from "@agentclientprotocol/sdk";
import type { McpServerConfig } from "../../core/mcp/config.js";

/** The transports `initialize` advertises besides stdio (`mcpCapabilities`). */
export const ACP_MCP_CAPABILITIES = { http: true, sse: true } as const;

function pairs(list: readonly { name: string; value: string }[] | undefined): Record<string, string> {
	return Object.fromEntries((list ?? []).map((item) => [item.name, item.value]));
}

export function editorMcpServers(servers: readonly McpServer[] | null | undefined): McpServerConfig[] {
	return (servers ?? []).map((server): McpServerConfig => {
		const base = { name: server.name, source: "editor" as const, enabled: true };
		if ("type" in server && (server.type === "http" || server.type === "sse")) {
			return {
				...base,
				transport: server.type,
				url: server.url,
				headers: pairs(server.headers),
				sseFallback: false,
				oauth: {},
			};
		}
		const stdio = server as Extract<McpServer, { command: string }>;
		return {
			...base,
			transport: "stdio",
			command: stdio.command,
			args: [...(stdio.args ?? [])],
			env: pairs(stdio.env),
		};
	});
}
