// OAuth for remote MCP servers: the SDK runs the authorization flow (discovery, dynamic client registration,
// PKCE, token exchange, refresh on 401); this provider keeps its client registration and tokens in auth.json
// (`mcp-oauth:<server url>`, 0600) and receives the browser's redirect on 127.0.0.1.
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeHttp } from "@agent/ai";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
	OAuthClientInformationMixed,
	OAuthClientMetadata,
	OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { APP_NAME } from "../../config.js";
import type { AuthStorage } from "../config/auth-storage.js";
import type { McpOAuthConfig } from "./config.js";

/** How long the local redirect waits for the browser. */
const AUTHORIZATION_WAIT_MS = 10 * 60 * 1000;
const CALLBACK_PATH = "/callback";

const AUTHORIZED_PAGE = `<!doctype html><meta charset="utf-8"><title>${APP_NAME}</title><p>Authorization complete. You can close this tab and return to ${APP_NAME}.</p>`;
const FAILED_PAGE = (reason: string) =>
	`<!doctype html><meta charset="utf-8"><title>${APP_NAME}</title><p>Authorization failed: ${reason.replace(/[<&>]/g, "")}</p>`;

interface StoredMcpOAuth {
	type: "mcp-oauth";
	serverUrl: string;
	/** The redirect the client was registered with (its port must stay the same). */
	redirectUri?: string;
	clientInformation?: OAuthClientInformationMixed;
	tokens?: OAuthTokens;
}

export function mcpOAuthStorageKey(serverUrl: string): string {
	return `mcp-oauth:${serverUrl}`;
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = nodeHttp().createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address() as AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

export interface McpOAuthProviderOptions {
	serverUrl: string;
	config: McpOAuthConfig;
	/** Undefined: tokens live in memory for this process only. */
	storage: AuthStorage | undefined;
}

export class McpOAuthProvider implements OAuthClientProvider {
	private port: number | undefined;
	private verifier: string | undefined;
	private discovery: OAuthDiscoveryState | undefined;
	private memory: StoredMcpOAuth;
	private readonly stateToken = randomBytes(16).toString("hex");
	private callbackServer: Server | undefined;
	private code: Promise<string> | undefined;
	/** Set when the flow needs the user: the page to open. */
	authorizationUrl: URL | undefined;

	constructor(private readonly options: McpOAuthProviderOptions) {
		this.memory = { type: "mcp-oauth", serverUrl: options.serverUrl };
	}

	private get key(): string {
		return mcpOAuthStorageKey(this.options.serverUrl);
	}

	private read(): StoredMcpOAuth {
		const stored = this.options.storage?.getEntry(this.key);
		if (typeof stored === "object" && stored !== null && (stored as StoredMcpOAuth).type === "mcp-oauth") {
			this.memory = stored as StoredMcpOAuth;
		}
		return this.memory;
	}

	private write(change: (entry: StoredMcpOAuth) => void): void {
		const entry = { ...this.read() };
		change(entry);
		this.memory = entry;
		this.options.storage?.setEntry(this.key, { ...entry });
	}

	/** Chooses the redirect port: the configured one, the one the stored registration uses, or a free one. */
	async prepare(): Promise<void> {
		if (this.port !== undefined) return;
		const configured = this.options.config.callbackPort;
		const registered = this.options.config.clientId === undefined ? this.read().redirectUri : undefined;
		const registeredPort = registered ? Number(new URL(registered).port) : undefined;
		this.port = configured ?? (registeredPort || undefined) ?? (await freePort());
	}

	get redirectUrl(): string {
		if (this.port === undefined) throw new Error("McpOAuthProvider.prepare() was not called");
		return `http://127.0.0.1:${this.port}${CALLBACK_PATH}`;
	}

	get clientMetadata(): OAuthClientMetadata {
		const { clientSecret, scope } = this.options.config;
		return {
			client_name: APP_NAME,
			redirect_uris: [this.redirectUrl],
			grant_types: ["authorization_code", "refresh_token"],
			response_types: ["code"],
			token_endpoint_auth_method: clientSecret ? "client_secret_post" : "none",
			...(scope !== undefined ? { scope } : {}),
		};
	}

	state(): string {
		return this.stateToken;
	}

	clientInformation(): OAuthClientInformationMixed | undefined {
		const { clientId, clientSecret } = this.options.config;
		if (clientId !== undefined)
			return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
		const entry = this.read();
		// A registration for another redirect port cannot be used with this one: register again.
		if (entry.redirectUri !== undefined && entry.redirectUri !== this.redirectUrl) return undefined;
		return entry.clientInformation;
	}

	saveClientInformation(clientInformation: OAuthClientInformationMixed): void {
		this.write((entry) => {
			entry.clientInformation = clientInformation;
			entry.redirectUri = this.redirectUrl;
		});
	}

	tokens(): OAuthTokens | undefined {
		return this.read().tokens;
	}

	saveTokens(tokens: OAuthTokens): void {
		this.write((entry) => {
			entry.tokens = tokens;
		});
	}

	async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
		this.authorizationUrl = authorizationUrl;
		await this.listenForRedirect();
	}

	saveCodeVerifier(codeVerifier: string): void {
		this.verifier = codeVerifier;
	}

	codeVerifier(): string {
		if (this.verifier === undefined) throw new Error("No PKCE code verifier saved: start the authorization again");
		return this.verifier;
	}

	saveDiscoveryState(state: OAuthDiscoveryState): void {
		this.discovery = state;
	}

	discoveryState(): OAuthDiscoveryState | undefined {
		return this.discovery;
	}

	invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
		if (scope === "verifier" || scope === "all") this.verifier = undefined;
		if (scope === "discovery" || scope === "all") this.discovery = undefined;
		if (scope === "tokens" || scope === "client" || scope === "all") {
			this.write((entry) => {
				if (scope !== "client") delete entry.tokens;
				if (scope !== "tokens") {
					delete entry.clientInformation;
					delete entry.redirectUri;
				}
			});
		}
	}

	/** The authorization code the browser brings back to the redirect (after `redirectToAuthorization`). */
	waitForCode(): Promise<string> {
		if (!this.code) return Promise.reject(new Error("The authorization flow has not started"));
		return this.code;
	}

	/** Stops listening for the redirect. */
	stopListening(): void {
		this.callbackServer?.close();
		this.callbackServer?.closeAllConnections();
		this.callbackServer = undefined;
	}

	private async listenForRedirect(): Promise<void> {
		this.stopListening();
		let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
		this.code = new Promise<string>((resolve, reject) => {
			settle = { resolve, reject };
		});
		// Nobody may be waiting yet; an unobserved rejection must not end the process.
		this.code.catch(() => {});
		const server = nodeHttp().createServer((request, response) => {
			const url = new URL(request.url ?? "/", this.redirectUrl);
			if (url.pathname !== CALLBACK_PATH) {
				response.writeHead(404).end();
				return;
			}
			const error = url.searchParams.get("error");
			const code = url.searchParams.get("code");
			if (url.searchParams.get("state") !== this.stateToken) {
				response.writeHead(400, { "content-type": "text/html" }).end(FAILED_PAGE("the state does not match"));
				return;
			}
			if (error || !code) {
				const reason = url.searchParams.get("error_description") ?? error ?? "no code";
				response.writeHead(400, { "content-type": "text/html" }).end(FAILED_PAGE(reason));
				settle.reject(new Error(`authorization was refused: ${reason}`));
			} else {
				response.writeHead(200, { "content-type": "text/html" }).end(AUTHORIZED_PAGE);
				settle.resolve(code);
			}
			response.once("finish", () => this.stopListening());
		});
		this.callbackServer = server;
		const timer = setTimeout(() => {
			settle.reject(new Error("authorization timed out: the browser did not come back"));
			this.stopListening();
		}, AUTHORIZATION_WAIT_MS);
		timer.unref();
		void this.code.finally(() => clearTimeout(timer)).catch(() => {});
		await new Promise<void>((resolve, reject) => {
			server.once("error", (error) =>
				reject(
					new Error(`could not listen for the authorization redirect on ${this.redirectUrl}: ${error.message}`),
				),
			);
			server.listen(this.port, "127.0.0.1", () => resolve());
		});
		server.unref();
	}
}
