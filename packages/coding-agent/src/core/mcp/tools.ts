// MCP tools as agent tools: named `mcp__<server>__<tool>`, with the server's description and input schema,
// executed through the server's connection (timeout, abort, progress) and converted to a bounded result.
import type { AgentToolResult, AgentToolUpdateCallback } from "@agent/agent-core";
import type { TSchema } from "@agent/ai";
import type { ExtensionTool } from "../extensions/hooks.js";
import type { McpToolDefinition } from "./client-handle.js";
import type { McpToolDetails } from "./tool-results.js";

export const MCP_NAME_PREFIX = "mcp__";
/** Provider APIs accept tool names of at most 64 characters from this set. */
const MAX_TOOL_NAME_LENGTH = 64;
const INVALID_NAME_CHARS = /[^A-Za-z0-9_-]/g;

function shortHash(text: string): string {
	let hash = 5381;
	for (let i = 0; i < text.length; i++) hash = ((hash << 5) + hash + text.charCodeAt(i)) >>> 0;
	return hash.toString(36).slice(0, 6);
}

/**
 * `mcp__<server>__<name>` with characters providers refuse replaced by `_`; a name past 64 characters keeps
 * its start and gets a short hash of the whole, so distinct long names stay distinct.
 */
export function mcpQualifiedName(server: string, name: string): string {
	const full = `${MCP_NAME_PREFIX}${server}__${name}`;
	const clean = full.replace(INVALID_NAME_CHARS, "_");
	if (clean.length <= MAX_TOOL_NAME_LENGTH) return clean;
	const hash = shortHash(full);
	return `${clean.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1)}_${hash}`;
}

/**
 * The input schema as the agent validates and sends it: an object schema without `$schema` (a 2020-12
 * `$schema` makes the draft-07 validator refuse the whole schema; providers ignore it).
 */
export function toolParametersOf(definition: McpToolDefinition): TSchema {
	const { $schema: _ignored, ...schema } = structuredClone(definition.inputSchema ?? {}) as Record<string, unknown>;
	if (schema.type === undefined) schema.type = "object";
	if (schema.type === "object" && schema.properties === undefined) schema.properties = {};
	return schema as unknown as TSchema;
}

export function mcpToolDescription(server: string, definition: McpToolDefinition): string {
	const description = definition.description?.trim();
	return description || `${definition.title ?? definition.name} (MCP server ${server})`;
}

/** Runs one MCP tool call: validation already happened; resolves with the converted result, throws for errors. */
export type McpToolExecutor = (
	server: string,
	tool: string,
	args: Record<string, unknown>,
	signal: AbortSignal | undefined,
	onUpdate: AgentToolUpdateCallback<McpToolDetails> | undefined,
) => Promise<AgentToolResult<McpToolDetails>>;

/** A server's tool as the model calls it directly. */
export function createMcpAgentTool(
	server: string,
	definition: McpToolDefinition,
	name: string,
	execute: McpToolExecutor,
): ExtensionTool {
	return {
		name,
		label: `${server}/${definition.title ?? definition.name}`,
		description: mcpToolDescription(server, definition),
		parameters: toolParametersOf(definition),
		execute: (_toolCallId, params, signal, onUpdate) =>
			execute(
				server,
				definition.name,
				(params ?? {}) as Record<string, unknown>,
				signal,
				onUpdate as AgentToolUpdateCallback<McpToolDetails> | undefined,
			),
	};
}
