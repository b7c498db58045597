// MCP servers for the tests: the reference servers from npm (everything, filesystem) and our fixture server
// over stdio, the everything server hosted in-process over streamable HTTP or legacy SSE, and ways to wait for
// a server's state without sleeping.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { fileURLToPath } from "node:url";
import type { Server as McpSdkServer } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { McpRemoteServerConfig, McpStdioServerConfig } from "../../src/core/mcp/config.js";
import type { McpManager } from "../../src/core/mcp/manager.js";
import type { McpServerState, McpServerStatus } from "../../src/core/mcp/status.js";

const nodeModules = (path: string) => fileURLToPath(new URL(`../../node_modules/${path}`, import.meta.url));

export const FIXTURE_SERVER_PATH = fileURLToPath(new URL("../fixtures/mcp/fixture-server.mjs", import.meta.url));
export const EVERYTHING_SERVER_PATH = nodeModules("@modelcontextprotocol/server-everything/dist/index.js");
export const FILESYSTEM_SERVER_PATH = nodeModules("@modelcontextprotocol/server-filesystem/dist/index.js");

export function stdioServer(
	name: string,
	script: string,
	args: string[] = [],
	env: Record<string, string> = {},
): McpStdioServerConfig {
	return {
		name,
		source: "sdk",
		enabled: true,
		transport: "stdio",
		command: process.execPath,
		args: [script, ...args],
		env,
	};
}

export function remoteServer(name: string, url: string, transport: "http" | "sse" = "http"): McpRemoteServerConfig {
	return { name, source: "sdk", enabled: true, transport, url, headers: {}, sseFallback: false, oauth: {} };
}

/** The raw JSON of a stdio server in an mcp.json file. */
export function stdioServerJson(script: string, args: string[] = [], env: Record<string, string> = {}) {
	return { command: process.execPath, args: [script, ...args], env };
}

/** Resolves with the server's status once `accept` holds (checked at once and on every change). */
export function waitForServer(
	manager: McpManager,
	name: string,
	accept: (status: McpServerStatus) => boolean,
): Promise<McpServerStatus> {
	return new Promise((resolve) => {
		const check = () => {
			const status = manager.getServers().find((server) => server.name === name);
			if (status && accept(status)) {
				unsubscribe();
				resolve(status);
				return true;
			}
			return false;
		};
		const unsubscribe = manager.onChange(() => void check());
		check();
	});
}

export function waitForState(manager: McpManager, name: string, state: McpServerState): Promise<McpServerStatus> {
	return waitForServer(manager, name, (status) => status.state === state);
}

export interface HostedMcpServer {
	url: string;
	close(): Promise<void>;
	/** Requests seen, by method and path (`POST /mcp`). */
	requests: string[];
}

type ServerFactory = () => { server: McpServer | McpSdkServer };

export interface HostOptions {
	/** Answers before the MCP transport does (authorization checks); return true when it answered. */
	intercept?: (request: IncomingMessage, response: ServerResponse) => boolean | Promise<boolean>;
}

function mcpServerOf(created: { server: McpServer | McpSdkServer }) {
	return created.server;
}

async function listen(server: Server, sockets: Set<Socket>): Promise<string> {
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
	return () =>
		new Promise<void>((resolve) => {
			for (const socket of sockets) socket.destroy();
			server.close(() => resolve());
		});
}

/** An MCP server over streamable HTTP at `<url>` (path `/mcp`), one server instance per session. */
export async function hostStreamableHttp(factory: ServerFactory, options: HostOptions = {}): Promise<HostedMcpServer> {
	const transports = new Map<string, StreamableHTTPServerTransport>();
	const requests: string[] = [];
	const sockets = new Set<Socket>();
	const http = createHttpServer((request, response) => {
		void (async () => {
			requests.push(`${request.method} ${request.url}`);
			if (options.intercept && (await options.intercept(request, response))) return;
			const sessionId = request.headers["mcp-session-id"];
			let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
			if (!transport) {
				if (request.method !== "POST" || sessionId !== undefined) {
					response.writeHead(sessionId !== undefined ? 404 : 405).end();
					return;
				}
				const created = new StreamableHTTPServerTransport({
					sessionIdGenerator: () => crypto.randomUUID(),
					onsessioninitialized: (id) => {
						transports.set(id, created);
					},
				});
				transport = created;
				await mcpServerOf(factory()).connect(created);
			}
			await transport.handleRequest(request, response);
		})().catch((error: unknown) => {
			if (!response.headersSent) response.writeHead(500).end(String(error));
		});
	});
	const base = await listen(http, sockets);
	return { url: `${base}/mcp`, requests, close: closer(http, sockets) };
}

/** An MCP server over the legacy SSE transport: `GET <url>` opens the stream, messages go to `/message`. */
export async function hostSse(factory: ServerFactory): Promise<HostedMcpServer> {
	const transports = new Map<string, SSEServerTransport>();
	const requests: string[] = [];
	const sockets = new Set<Socket>();
	const http = createHttpServer((request, response) => {
		void (async () => {
			requests.push(`${request.method} ${request.url}`);
			const url = new URL(request.url ?? "/", "http://127.0.0.1");
			if (request.method === "GET" && url.pathname === "/sse") {
				const transport = new SSEServerTransport("/message", response);
				transports.set(transport.sessionId, transport);
				await mcpServerOf(factory()).connect(transport);
				return;
			}
			if (request.method === "POST" && url.pathname === "/message") {
				const transport = transports.get(url.searchParams.get("sessionId") ?? "");
				if (!transport) {
					response.writeHead(404).end();
					return;
				}
				await transport.handlePostMessage(request, response);
				return;
			}
			// The streamable HTTP attempt of a client without `type` lands here and is refused.
			response.writeHead(405).end();
		})().catch((error: unknown) => {
			if (!response.headersSent) response.writeHead(500).end(String(error));
		});
	});
	const base = await listen(http, sockets);
	return { url: `${base}/sse`, requests, close: closer(http, sockets) };
}

/** The everything server's factory (its own code, in this process). */
export async function everythingServerFactory(): Promise<ServerFactory> {
	const module = (await import(nodeModules("@modelcontextprotocol/server-everything/dist/server/index.js"))) as {
		createServer: ServerFactory;
	};
	return module.createServer;
}
