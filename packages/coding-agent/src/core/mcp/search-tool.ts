// The `mcp` tool: one small tool through which the model finds and calls the tools of every MCP server,
// so that servers with many tools (on-demand) cost the prompt nothing until they are needed, and tools of a
// server that is still starting can be reached as soon as it is up.
import type { AgentToolResult, AgentToolUpdateCallback } from "@agent/agent-core";
import { LeanType } from "@agent/ai";
import type { ExtensionTool } from "../extensions/hooks.js";
import type { McpToolDefinition } from "./client-handle.js";
import type { McpToolMode } from "./config.js";
import type { McpServerState } from "./status.js";
import { boundToolText, type McpToolDetails } from "./tool-results.js";
import { toolParametersOf } from "./tools.js";

export const MCP_TOOL_NAME = "mcp";
/** Tools a search lists with their input schemas. */
export const MAX_SEARCH_RESULTS = 8;

export function mcpToolDescriptionText(servers: readonly string[]): string {
	return (
		`Find and call tools of the connected MCP servers (${servers.join(", ")}). ` +
		'To find tools, pass "query" (words describing the task; an empty query lists every tool): the result ' +
		'names each tool with its description and input schema. To call a tool, pass "tool" (its full name, ' +
		'mcp__<server>__<tool>) and "arguments" (an object matching its input schema).'
	);
}

export const MCP_TOOL_PROMPT_SNIPPET = "Find and call tools of the connected MCP servers";

const mcpToolSchema = LeanType.Object({
	query: LeanType.Optional(
		LeanType.String({ description: "Words to search the MCP tools' names and descriptions for" }),
	),
	tool: LeanType.Optional(
		LeanType.String({ description: "The full name of the MCP tool to call (mcp__<server>__<tool>)" }),
	),
	arguments: LeanType.Optional(
		LeanType.Record(LeanType.String(), LeanType.Unknown(), { description: "The arguments of the tool to call" }),
	),
});

export interface McpCatalogEntry {
	server: string;
	/** The name the model uses: `mcp__<server>__<tool>`. */
	name: string;
	definition: McpToolDefinition;
	mode: McpToolMode | undefined;
}

/** What the `mcp` tool needs of the servers. */
export interface McpToolCatalog {
	/** Resolves once no server is in its first connection attempt. */
	waitForStartingServers(): Promise<void>;
	entries(): McpCatalogEntry[];
	/** Servers whose tools cannot be reached now, and why. */
	unavailable(): { server: string; state: McpServerState; error?: string }[];
	/** Validates the arguments against the tool's schema and calls it. */
	call(
		entry: McpCatalogEntry,
		args: Record<string, unknown>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<McpToolDetails> | undefined,
	): Promise<AgentToolResult<McpToolDetails>>;
}

function words(text: string): string[] {
	return text
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter((word) => word.length > 0);
}

/** Entries matching the query, best first: a word in the tool's name counts more than one in its description. */
export function searchCatalog(entries: readonly McpCatalogEntry[], query: string): McpCatalogEntry[] {
	const wanted = words(query);
	if (wanted.length === 0) return [...entries];
	const scored = entries
		.map((entry, index) => {
			const name = `${entry.server} ${entry.definition.name} ${entry.definition.title ?? ""}`.toLowerCase();
			const description = (entry.definition.description ?? "").toLowerCase();
			let score = 0;
			for (const word of wanted) {
				if (name.includes(word)) score += 3;
				if (description.includes(word)) score += 1;
			}
			return { entry, score, index };
		})
		.filter((item) => item.score > 0);
	scored.sort((a, b) => b.score - a.score || a.index - b.index);
	return scored.map((item) => item.entry);
}

function firstLine(text: string | undefined): string {
	return (text ?? "").trim().split("\n")[0] ?? "";
}

function describeUnavailable(catalog: McpToolCatalog): string {
	const unavailable = catalog.unavailable();
	if (unavailable.length === 0) return "";
	const lines = unavailable.map(
		(server) => `- ${server.server}: ${server.state}${server.error ? ` (${server.error})` : ""}`,
	);
	return `\n\nServers not available now:\n${lines.join("\n")}`;
}

function searchText(catalog: McpToolCatalog, query: string): string {
	const entries = catalog.entries();
	const matches = searchCatalog(entries, query);
	const unavailable = describeUnavailable(catalog);
	if (query.trim() === "") {
		if (entries.length === 0) return `No MCP tools are available.${unavailable}`;
		const lines = entries.map((entry) => `- ${entry.name}: ${firstLine(entry.definition.description)}`);
		return `${entries.length} MCP tools (search with a query to see input schemas):\n${lines.join("\n")}${unavailable}`;
	}
	if (matches.length === 0) return `No MCP tool matches "${query}".${unavailable}`;
	const shown = matches.slice(0, MAX_SEARCH_RESULTS).map((entry) => {
		const schema = JSON.stringify(toolParametersOf(entry.definition));
		return `## ${entry.name}\n${entry.definition.description?.trim() || "(no description)"}\nInput schema: ${schema}`;
	});
	const more =
		matches.length > MAX_SEARCH_RESULTS
			? `\n\n${matches.length - MAX_SEARCH_RESULTS} more match; refine the query.`
			: "";
	return `${shown.join("\n\n")}${more}${unavailable}`;
}

export function unknownMcpToolText(name: string): string {
	return `Unknown MCP tool "${name}". Search with {"query": "…"} to find the available tools and their full names.`;
}

export function createMcpTool(servers: readonly string[], catalog: McpToolCatalog): ExtensionTool {
	return {
		name: MCP_TOOL_NAME,
		label: "MCP",
		description: mcpToolDescriptionText(servers),
		promptSnippet: MCP_TOOL_PROMPT_SNIPPET,
		parameters: mcpToolSchema,
		async execute(_toolCallId, params, signal, onUpdate) {
			const { query, tool, arguments: args } = params as { query?: string; tool?: string; arguments?: unknown };
			await catalog.waitForStartingServers();
			if (tool === undefined) {
				return {
					content: [{ type: "text", text: boundToolText(searchText(catalog, query ?? "")).text }],
					details: undefined,
				};
			}
			const entry = catalog.entries().find((candidate) => candidate.name === tool);
			if (!entry) throw new Error(`${unknownMcpToolText(tool)}${describeUnavailable(catalog)}`);
			return catalog.call(
				entry,
				(args ?? {}) as Record<string, unknown>,
				signal,
				onUpdate as AgentToolUpdateCallback<McpToolDetails> | undefined,
			);
		},
	};
}
