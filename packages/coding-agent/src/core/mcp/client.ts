// The MCP SDK side of a connection (loaded on first use, only when a server is configured): a `Client` over
// our stdio transport, streamable HTTP, or legacy SSE (a server without `type` gets streamable HTTP first and
// SSE when that is refused), with the OAuth provider for remote servers.
import { httpFetch } from "@agent/ai";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
	type CallToolResult,
	type GetPromptResult,
	type Prompt,
	PromptListChangedNotificationSchema,
	type Tool,
	ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { APP_NAME, VERSION } from "../../config.js";
import {
	McpAuthorizationRequired,
	type McpCallOptions,
	type McpClientHandle,
	type McpConnectFunction,
	type McpConnectHooks,
} from "./client-handle.js";
import type { McpRemoteServerConfig, McpStdioServerConfig, McpTransportKind } from "./config.js";
import { McpOAuthProvider } from "./oauth.js";
import { McpStdioTransport, stdioServerEnvironment } from "./stdio-transport.js";

/** setTimeout's largest delay: "no timeout" for the SDK, whose default would be 60 s. */
const NO_TIMEOUT_MS = 2_147_483_647;
/** Pages of tools or prompts read from one server at most. */
const MAX_LIST_PAGES = 50;

function requestOptions(options: McpCallOptions) {
	return {
		timeout: options.timeoutMs > 0 ? options.timeoutMs : NO_TIMEOUT_MS,
		...(options.signal ? { signal: options.signal } : {}),
		// A server that reports progress is working: each report restarts the timeout.
		...(options.onProgress ? { onprogress: options.onProgress, resetTimeoutOnProgress: true } : {}),
	};
}

function createClient(hooks: McpConnectHooks): Client {
	const client = new Client({ name: APP_NAME, version: VERSION }, { capabilities: {} });
	client.setNotificationHandler(ToolListChangedNotificationSchema, async () => hooks.onListChanged("tools"));
	client.setNotificationHandler(PromptListChangedNotificationSchema, async () => hooks.onListChanged("prompts"));
	return client;
}

class ConnectedClient implements McpClientHandle {
	private closing = false;

	constructor(
		private readonly client: Client,
		private readonly connection: Transport,
		readonly transport: McpTransportKind,
		hooks: McpConnectHooks,
		describeClose: () => string,
	) {
		client.onclose = () => {
			if (!this.closing) hooks.onClosed(describeClose());
		};
	}

	get pid(): number | undefined {
		return this.connection instanceof McpStdioTransport ? this.connection.pid : undefined;
	}

	async listTools(): Promise<Tool[]> {
		if (!this.client.getServerCapabilities()?.tools) return [];
		const tools: Tool[] = [];
		let cursor: string | undefined;
		for (let page = 0; page < MAX_LIST_PAGES; page++) {
			const result = await this.client.listTools(cursor ? { cursor } : undefined);
			tools.push(...result.tools);
			cursor = result.nextCursor;
			if (!cursor) break;
		}
		return tools;
	}

	async listPrompts(): Promise<Prompt[]> {
		if (!this.client.getServerCapabilities()?.prompts) return [];
		const prompts: Prompt[] = [];
		let cursor: string | undefined;
		for (let page = 0; page < MAX_LIST_PAGES; page++) {
			const result = await this.client.listPrompts(cursor ? { cursor } : undefined);
			prompts.push(...result.prompts);
			cursor = result.nextCursor;
			if (!cursor) break;
		}
		return prompts;
	}

	async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult> {
		const result = await this.client.callTool({ name, arguments: args }, undefined, requestOptions(options));
		// Servers of protocol versions before 2024-11-05 answer `toolResult`; show it as text.
		if (!Array.isArray(result.content)) {
			return { content: [{ type: "text", text: JSON.stringify(result.toolResult ?? result) }] };
		}
		return result as CallToolResult;
	}

	getPrompt(name: string, args: Record<string, string>, options: McpCallOptions): Promise<GetPromptResult> {
		return this.client.getPrompt({ name, arguments: args }, requestOptions(options));
	}

	async close(): Promise<void> {
		this.closing = true;
		await this.client.close();
	}
}

async function connectStdio(config: McpStdioServerConfig, hooks: McpConnectHooks): Promise<McpClientHandle> {
	const transport = new McpStdioTransport({
		command: config.command,
		args: config.args,
		env: stdioServerEnvironment(config.env),
		...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
		onStderr: hooks.onStderr,
	});
	const client = createClient(hooks);
	try {
		await client.connect(transport, { timeout: hooks.connectTimeoutMs || NO_TIMEOUT_MS });
	} catch (error) {
		await transport.close();
		const exit = transport.exit;
		throw exit ? new Error(`${(error as Error).message} (the server ${exit})`) : error;
	}
	return new ConnectedClient(client, transport, "stdio", hooks, () =>
		transport.exit ? `the server ${transport.exit}` : "the connection closed",
	);
}

async function connectRemote(config: McpRemoteServerConfig, hooks: McpConnectHooks): Promise<McpClientHandle> {
	const url = new URL(config.url);
	const authProvider =
		config.oauth === false
			? undefined
			: new McpOAuthProvider({ serverUrl: config.url, config: config.oauth, storage: hooks.authStorage });
	await authProvider?.prepare();
	// The agent's HTTP client, as for providers: HTTP(S)_PROXY and NO_PROXY apply to remote servers too.
	const options = {
		requestInit: { headers: config.headers },
		fetch: httpFetch,
		...(authProvider ? { authProvider } : {}),
	};

	const attempt = async (kind: "http" | "sse") => {
		const transport =
			kind === "http" ? new StreamableHTTPClientTransport(url, options) : new SSEClientTransport(url, options);
		const client = createClient(hooks);
		try {
			await client.connect(transport, { timeout: hooks.connectTimeoutMs || NO_TIMEOUT_MS });
			return new ConnectedClient(client, transport, kind, hooks, () => "the connection closed");
		} catch (error) {
			if (error instanceof UnauthorizedError && authProvider?.authorizationUrl) {
				const authorizationUrl = authProvider.authorizationUrl.href;
				throw new McpAuthorizationRequired(
					authorizationUrl,
					async () => {
						const code = await authProvider.waitForCode();
						await transport.finishAuth(code);
					},
					() => authProvider.stopListening(),
				);
			}
			await client.close().catch(() => {});
			throw error;
		}
	};

	if (config.transport === "sse") return attempt("sse");
	try {
		return await attempt("http");
	} catch (error) {
		if (!config.sseFallback || error instanceof McpAuthorizationRequired) throw error;
		try {
			return await attempt("sse");
		} catch {
			throw error;
		}
	}
}

export const connectMcpServer: McpConnectFunction = (config, hooks) =>
	config.transport === "stdio" ? connectStdio(config, hooks) : connectRemote(config, hooks);
