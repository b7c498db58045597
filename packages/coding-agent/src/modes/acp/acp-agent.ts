// The agent side of ACP: what each method does. Sessions are made per `session/new` / `session/load` for the
// cwd the editor names, with the tools the editor's capabilities allow (its file access, its terminals).
import { isAbsolute } from "node:path";
import type { AgentTool } from "@agent/agent-core";
import {
	type AgentApp,
	type AgentContext,
	type ClientCapabilities,
	type InitializeRequest,
	type InitializeResponse,
	type McpServer,
	PROTOCOL_VERSION,
	RequestError,
} from "@agentclientprotocol/sdk";
import { APP_NAME } from "../../config.js";
import type { ModelRegistry } from "../../core/config/model-registry.js";
import type { SettingsManager } from "../../core/config/settings-manager.js";
import { createBashTool } from "../../core/tools/bash.js";
import { ShellEnvironment } from "../../core/tools/shell-env.js";
import { AcpSession } from "./acp-session.js";
import { type AuthMethodPaths, authMethods, providerOfAuthMethod } from "./auth-methods.js";
import { type ClientFileSystem, createFileTools, FileChangeRecorder } from "./file-tools.js";
import { ACP_MCP_CAPABILITIES, editorMcpServers } from "./mcp-servers.js";
import { findSessionFile, listSessionPage } from "./session-catalog.js";
import { type AcpSessionDefaults, createSessionForCwd, NoModelAvailableError } from "./session-factory.js";
import { createTerminalBashTool } from "./terminal-bash.js";

export interface AcpAgentOptions {
	defaults: AcpSessionDefaults;
	version: string;
	authPaths: AuthMethodPaths;
	/** Diagnostics; stdout belongs to the protocol. */
	log: (line: string) => void;
}

function requireAbsolute(cwd: string): void {
	if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, "cwd must be an absolute path");
}

export class AcpAgent {
	private capabilities: ClientCapabilities = {};
	private readonly sessions = new Map<string, AcpSession>();

	constructor(private readonly options: AcpAgentOptions) {}

	/** Registers every method on `app`. */
	register(app: AgentApp): AgentApp {
		return app
			.onRequest("initialize", ({ params }) => this.initialize(params))
			.onRequest("authenticate", ({ params }) => this.authenticate(params.methodId))
			.onRequest("session/new", async ({ params, client }) => {
				requireAbsolute(params.cwd);
				const session = await this.openSession(client, params.cwd, undefined);
				this.afterResponse(session, params.mcpServers);
				return { sessionId: session.id, modes: session.modeState(), configOptions: session.configOptions() };
			})
			.onRequest("session/load", async ({ params, client }) => {
				requireAbsolute(params.cwd);
				const session = await this.resumeSession(client, params.sessionId, params.cwd);
				await session.replay();
				this.afterResponse(session, params.mcpServers);
				return { modes: session.modeState(), configOptions: session.configOptions() };
			})
			.onRequest("session/resume", async ({ params, client }) => {
				requireAbsolute(params.cwd);
				const session = await this.resumeSession(client, params.sessionId, params.cwd);
				this.afterResponse(session, params.mcpServers ?? []);
				return { modes: session.modeState(), configOptions: session.configOptions() };
			})
			.onRequest("session/list", ({ params }) => {
				if (params.cwd) requireAbsolute(params.cwd);
				return listSessionPage(this.catalog(), params.cwd ?? undefined, params.cursor);
			})
			.onRequest("session/close", async ({ params }) => {
				const session = this.sessionOf(params.sessionId);
				this.sessions.delete(params.sessionId);
				await session.close();
				return {};
			})
			.onRequest("session/prompt", async ({ params }) => ({
				stopReason: await this.sessionOf(params.sessionId).prompt(params.prompt),
			}))
			.onNotification("session/cancel", async ({ params }) => {
				await this.sessions.get(params.sessionId)?.cancel();
			})
			.onRequest("session/set_mode", ({ params }) => {
				this.sessionOf(params.sessionId).setMode(params.modeId);
				return {};
			})
			.onRequest("session/set_config_option", async ({ params }) => ({
				configOptions: await this.sessionOf(params.sessionId).setConfigOption(params.configId, params.value),
			}));
	}

	/** Ends every session (end of input, or a signal). */
	async closeAll(): Promise<void> {
		const sessions = [...this.sessions.values()];
		this.sessions.clear();
		await Promise.allSettled(sessions.map((session) => session.close()));
	}

	private initialize(params: InitializeRequest): InitializeResponse {
		this.capabilities = params.clientCapabilities ?? {};
		const persist = this.options.defaults.persistSessions;
		return {
			// Only version 1 exists: a client asking for a later one gets the latest we speak and decides.
			protocolVersion: PROTOCOL_VERSION,
			agentCapabilities: {
				loadSession: persist,
				promptCapabilities: { image: true, audio: false, embeddedContext: true },
				mcpCapabilities: { ...ACP_MCP_CAPABILITIES },
				sessionCapabilities: { list: {}, close: {}, ...(persist ? { resume: {} } : {}) },
			},
			authMethods: authMethods(this.options.authPaths),
			agentInfo: { name: APP_NAME, title: APP_NAME, version: this.options.version },
		};
	}

	private authenticate(methodId: string): Record<string, never> {
		const provider = providerOfAuthMethod(methodId);
		if (provider === null) throw RequestError.invalidParams({ methodId }, `Unknown auth method: ${methodId}`);
		const registry = this.options.defaults.modelRegistry;
		registry.refresh();
		const ready = provider === undefined ? registry.getAvailable().length > 0 : registry.hasAuth(provider);
		if (!ready) {
			const method = authMethods(this.options.authPaths).find((candidate) => candidate.id === methodId);
			throw RequestError.authRequired({ methodId }, `No credentials found. ${method?.description ?? ""}`.trim());
		}
		return {};
	}

	private catalog(): { agentDir: string; sessionDir?: string } {
		const { agentDir, sessionDir } = this.options.defaults;
		return { agentDir, ...(sessionDir !== undefined ? { sessionDir } : {}) };
	}

	private sessionOf(sessionId: string): AcpSession {
		const session = this.sessions.get(sessionId);
		if (!session) throw RequestError.sessionNotFound(sessionId);
		return session;
	}

	/** The open session with this id, else the stored one opened (its updates are not replayed here). */
	private async resumeSession(client: AgentContext, sessionId: string, cwd: string): Promise<AcpSession> {
		const open = this.sessions.get(sessionId);
		if (open) return open;
		if (!this.options.defaults.persistSessions) throw RequestError.sessionNotFound(sessionId);
		const file = await findSessionFile(this.catalog(), sessionId, cwd);
		if (!file) throw RequestError.sessionNotFound(sessionId);
		return this.openSession(client, cwd, file);
	}

	private async openSession(client: AgentContext, cwd: string, sessionFile: string | undefined): Promise<AcpSession> {
		const { log } = this.options;
		const capabilities = this.capabilities;
		const recorder = new FileChangeRecorder();
		const terminals = new Map<string, string>();
		// The tools exist before the session (and its id) does; they only call the editor once it runs.
		let sessionId = "";
		let acpSession: AcpSession | undefined;
		const fs: ClientFileSystem = {
			...(capabilities.fs?.readTextFile
				? {
						readTextFile: async (path: string) =>
							(await client.request("fs/read_text_file", { sessionId, path })).content,
					}
				: {}),
			...(capabilities.fs?.writeTextFile
				? {
						writeTextFile: async (path: string, content: string) => {
							await client.request("fs/write_text_file", { sessionId, path, content });
						},
					}
				: {}),
		};
		const buildTools = (settings: SettingsManager, modelRegistry: ModelRegistry): AgentTool[] => {
			const { read, edit, write } = createFileTools({
				cwd,
				client: fs,
				recorder,
				autoResizeImages: settings.getImageAutoResize(),
			});
			const shellPath = settings.getShellPath();
			const commandPrefix = settings.getShellCommandPrefix();
			// Provider keys stay out of commands here too (the session's own bash tool is replaced by this one).
			const environment = new ShellEnvironment({
				extraKeyNames: () => modelRegistry.getCredentialEnvNames(),
				passthrough: () => settings.getShellEnvPassthrough(),
			});
			const output = { maxFileBytes: settings.getLimits().bashOutputFileBytes };
			const bash = capabilities.terminal
				? createTerminalBashTool({
						cwd,
						createTerminal: (request) => client.createTerminal({ ...request, sessionId }),
						onTerminal: (toolCallId, terminalId) => acpSession?.showTerminal(toolCallId, terminalId),
						...(shellPath !== undefined ? { shellPath } : {}),
						...(commandPrefix !== undefined ? { commandPrefix } : {}),
						environment,
						output,
					})
				: (createBashTool(cwd, {
						...(shellPath !== undefined ? { shellPath } : {}),
						...(commandPrefix !== undefined ? { commandPrefix } : {}),
						environment,
						output,
					}) as AgentTool);
			return [read, bash, edit, write];
		};

		let created: Awaited<ReturnType<typeof createSessionForCwd>>;
		try {
			created = await createSessionForCwd(this.options.defaults, {
				cwd,
				...(sessionFile !== undefined ? { sessionFile } : {}),
				buildTools,
				warn: log,
			});
		} catch (error) {
			if (error instanceof NoModelAvailableError) throw RequestError.authRequired(undefined, error.message);
			throw RequestError.internalError(undefined, error instanceof Error ? error.message : String(error));
		}
		sessionId = created.session.sessionId;
		acpSession = new AcpSession({
			session: created.session,
			...(created.extensions ? { extensions: created.extensions } : {}),
			client,
			capabilities,
			recorder,
			terminals,
			log,
		});
		this.sessions.set(sessionId, acpSession);
		await acpSession.start();
		return acpSession;
	}

	/**
	 * The editor's MCP servers start (in the background; a resumed session keeps those that did not change), and
	 * the client learns the commands the session offers once it has the response: the handler's response is
	 * written in the microtasks after it returns, so a macrotask comes after it. Then, while the editor waits for
	 * its first prompt, the model's provider loads (docs/acp.md).
	 */
	private afterResponse(session: AcpSession, servers: readonly McpServer[]): void {
		void session.session.mcp?.setEditorServers(editorMcpServers(servers));
		setImmediate(() => {
			session.sendAvailableCommands();
			void session.session.preloadProvider();
		});
	}
}
