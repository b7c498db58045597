// /mcp: the MCP servers' states, tools and last errors; `/mcp <server>` for one server's details (tools,
// prompts, the end of its stderr); `/mcp restart <server>` to start one again.
import type { AutocompleteItem } from "@agent/tui";
import { MCP_CONFIG_FILE_NAME, PROJECT_ROOT_MCP_FILE_NAME } from "../../../core/mcp/config.js";
import type { McpServerState, McpServerStatus } from "../../../core/mcp/status.js";
import type { NoticeHost, SessionHost } from "../mode-host.js";

/** Lines of a server's stderr `/mcp <server>` shows. */
const STDERR_LINES = 20;

const STATE_MARKS: Record<McpServerState, string> = {
	connected: "●",
	starting: "◌",
	reconnecting: "◌",
	"needs-auth": "!",
	failed: "✗",
	disabled: "○",
	stopped: "○",
};

export function noMcpServersText(agentDir: string): string {
	return `No MCP servers configured. Add them to ${agentDir}/${MCP_CONFIG_FILE_NAME}, .agent/${MCP_CONFIG_FILE_NAME} or ${PROJECT_ROOT_MCP_FILE_NAME} (see docs/mcp.md).`;
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function summary(server: McpServerStatus): string {
	const head = `${STATE_MARKS[server.state]} ${server.name} (${server.transport}, ${server.source}): ${server.state}`;
	switch (server.state) {
		case "connected":
			return `${head}, ${server.toolMode ?? "direct"}, ${plural(server.tools.length, "tool")}, ${plural(server.prompts.length, "prompt")}`;
		case "needs-auth":
			return `${head}: open ${server.authorizationUrl ?? "(no URL)"}`;
		case "reconnecting":
		case "failed":
			return `${head} after ${plural(server.failedAttempts, "failed attempt")}${server.error ? `: ${server.error}` : ""}`;
		default:
			return server.error ? `${head}: ${server.error}` : head;
	}
}

export function mcpServersText(servers: readonly McpServerStatus[]): string {
	return [
		"MCP servers:",
		...servers.map((server) => `  ${summary(server)}`),
		"/mcp <server> shows a server's tools and stderr; /mcp restart <server> starts it again.",
	].join("\n");
}

export function mcpServerDetailsText(server: McpServerStatus): string {
	const lines = [summary(server)];
	if (server.configPath) lines.push(`  configured in ${server.configPath}`);
	if (server.pid !== undefined) lines.push(`  process ${server.pid}`);
	if (server.error && server.state === "connected") lines.push(`  last error: ${server.error}`);
	if (server.tools.length > 0) {
		lines.push("Tools:");
		for (const tool of server.tools) {
			const description = tool.description?.trim().split("\n")[0];
			lines.push(`  ${tool.name}${description ? ` — ${description}` : ""}`);
		}
	}
	if (server.prompts.length > 0) {
		lines.push("Prompts:");
		for (const prompt of server.prompts) {
			const args = prompt.arguments.map((argument) => (argument.required ? argument.name : `[${argument.name}]`));
			lines.push(`  /${[prompt.command, ...args].join(" ")}${prompt.description ? ` — ${prompt.description}` : ""}`);
		}
	}
	const stderr = server.stderr?.trimEnd().split("\n").slice(-STDERR_LINES);
	if (stderr && stderr.length > 0 && stderr[0] !== "")
		lines.push("Stderr (last lines):", ...stderr.map((line) => `  ${line}`));
	return lines.join("\n");
}

export async function runMcp(host: NoticeHost & SessionHost, args: string): Promise<void> {
	const { session } = host;
	const servers = session.getMcpServers();
	const [verb, name] = args.trim().split(/\s+/);
	if (servers.length === 0) {
		host.notify("info", noMcpServersText(host.agentDir));
		return;
	}
	if (!verb) {
		host.notify("info", mcpServersText(servers));
		return;
	}
	if (verb === "restart") {
		if (!name) {
			host.notify("warning", "Usage: /mcp restart <server>");
			return;
		}
		try {
			await session.restartMcpServer(name);
			host.notify("status", `Restarting MCP server "${name}"`);
		} catch (error) {
			host.notify("error", error instanceof Error ? error.message : String(error));
		}
		return;
	}
	const server = servers.find((candidate) => candidate.name === verb);
	if (!server) {
		host.notify("warning", `Unknown MCP server "${verb}". Servers: ${servers.map((s) => s.name).join(", ")}`);
		return;
	}
	host.notify("info", mcpServerDetailsText(server));
}

export function completeMcpArgs(host: SessionHost, prefix: string): AutocompleteItem[] | null {
	const names = host.session.getMcpServers().map((server) => server.name);
	const words = prefix.split(/\s+/);
	if (words.length <= 1) {
		return ["restart", ...names]
			.filter((word) => word.startsWith(words[0] ?? ""))
			.map((word) => ({ value: word, label: word }));
	}
	if (words[0] !== "restart" || words.length > 2) return null;
	return names
		.filter((name) => name.startsWith(words[1] ?? ""))
		.map((name) => ({ value: `restart ${name}`, label: name }));
}
