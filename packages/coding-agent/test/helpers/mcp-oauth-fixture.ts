// A remote MCP server that wants OAuth, on 127.0.0.1: protected resource metadata, an authorization server
// (metadata, dynamic client registration, an authorization endpoint that approves at once and redirects,
// PKCE-checked tokens, refresh) and the everything server behind a bearer-token check. `revokeAccessTokens()`
// makes the issued access tokens invalid, as if they had expired.
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { everythingServerFactory, type HostedMcpServer, hostStreamableHttp } from "./mcp-fixtures.js";

export interface OAuthMcpServer extends HostedMcpServer {
	revokeAccessTokens(): void;
	/** Grants issued, by grant type. */
	grants: { authorization_code: number; refresh_token: number };
}

function readBody(request: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		let body = "";
		request.setEncoding("utf8");
		request.on("data", (chunk: string) => {
			body += chunk;
		});
		request.on("end", () => resolve(body));
		request.on("error", reject);
	});
}

function json(response: ServerResponse, status: number, value: unknown): true {
	response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
	return true;
}

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
	const codes = new Map<string, { challenge: string; redirectUri: string }>();
	const accessTokens = new Set<string>();
	const refreshTokens = new Set<string>();
	const grants = { authorization_code: 0, refresh_token: 0 };
	let base = "";
	const issue = () => {
		const access = randomBytes(12).toString("hex");
		const refresh = randomBytes(12).toString("hex");
		accessTokens.add(access);
		refreshTokens.add(refresh);
		return { access_token: access, token_type: "Bearer", expires_in: 3600, refresh_token: refresh };
	};

	const intercept = async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
		const url = new URL(request.url ?? "/", base);
		if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
			return json(response, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
		}
		if (url.pathname === "/.well-known/oauth-authorization-server") {
			return json(response, 200, {
				issuer: base,
				authorization_endpoint: `${base}/authorize`,
				token_endpoint: `${base}/token`,
				registration_endpoint: `${base}/register`,
				response_types_supported: ["code"],
				grant_types_supported: ["authorization_code", "refresh_token"],
				code_challenge_methods_supported: ["S256"],
				token_endpoint_auth_methods_supported: ["none"],
			});
		}
		if (url.pathname === "/register" && request.method === "POST") {
			const metadata = JSON.parse(await readBody(request)) as Record<string, unknown>;
			return json(response, 201, { ...metadata, client_id: `client-${randomBytes(4).toString("hex")}` });
		}
		if (url.pathname === "/authorize") {
			const code = randomBytes(8).toString("hex");
			const redirectUri = url.searchParams.get("redirect_uri") ?? "";
			codes.set(code, { challenge: url.searchParams.get("code_challenge") ?? "", redirectUri });
			const target = new URL(redirectUri);
			target.searchParams.set("code", code);
			target.searchParams.set("state", url.searchParams.get("state") ?? "");
			response.writeHead(302, { location: target.href }).end();
			return true;
		}
		if (url.pathname === "/token" && request.method === "POST") {
			const form = new URLSearchParams(await readBody(request));
			if (form.get("grant_type") === "authorization_code") {
				const pending = codes.get(form.get("code") ?? "");
				const verifier = form.get("code_verifier") ?? "";
				const challenge = createHash("sha256").update(verifier).digest("base64url");
				if (!pending || pending.challenge !== challenge) return json(response, 400, { error: "invalid_grant" });
				codes.delete(form.get("code") ?? "");
				grants.authorization_code++;
				return json(response, 200, issue());
			}
			if (form.get("grant_type") === "refresh_token") {
				const token = form.get("refresh_token") ?? "";
				if (!refreshTokens.delete(token)) return json(response, 400, { error: "invalid_grant" });
				grants.refresh_token++;
				return json(response, 200, issue());
			}
			return json(response, 400, { error: "unsupported_grant_type" });
		}
		if (url.pathname === "/mcp") {
			const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
			if (!token || !accessTokens.has(token)) {
				response
					.writeHead(401, {
						"www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
					})
					.end();
				return true;
			}
		}
		return false;
	};

	const hosted = await hostStreamableHttp(await everythingServerFactory(), { intercept });
	base = new URL(hosted.url).origin;
	return { ...hosted, grants, revokeAccessTokens: () => accessTokens.clear() };
}

/** What the user's browser does with the authorization page: follow it to the agent's local redirect. */
export async function approveInBrowser(authorizationUrl: string): Promise<string> {
	const authorize = await fetch(authorizationUrl, { redirect: "manual" });
	const callback = authorize.headers.get("location");
	if (!callback) throw new Error(`no redirect from ${authorizationUrl} (${authorize.status})`);
	const page = await fetch(callback);
	return page.text();
}
