export type { McpClientHandle, McpConnectFunction, McpConnectHooks } from "./client-handle.js";
export {
	type LoadedMcpConfig,
	loadMcpConfig,
	MCP_CONFIG_FILE_NAME,
	type McpConfigSource,
	type McpOAuthConfig,
	type McpRemoteServerConfig,
	type McpServerConfig,
	type McpStdioServerConfig,
	type McpToolMode,
	type McpTransportKind,
	PROJECT_ROOT_MCP_FILE_NAME,
} from "./config.js";
export { McpManager, type McpManagerOptions } from "./manager.js";
export { MCP_TOOL_NAME } from "./search-tool.js";
export {
	MCP_SERVER_STATES,
	type McpNotice,
	type McpPromptStatus,
	type McpServerState,
	type McpServerStatus,
	type McpToolStatus,
} from "./status.js";
export type { McpToolDetails } from "./tool-results.js";
export { mcpQualifiedName } from "./tools.js";
