import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AuthStorage } from "../../src/core/config/auth-storage.js";
import type { McpServerConfig } from "../../src/core/mcp/config.js";
import { McpManager } from "../../src/core/mcp/manager.js";
import { mcpOAuthStorageKey } from "../../src/core/mcp/oauth.js";
import type { McpNotice } from "../../src/core/mcp/status.js";
import {
	everythingServerFactory,
	type HostedMcpServer,
	hostSse,
	hostStreamableHttp,
	remoteServer,
	waitForState,
} from "../helpers/mcp-fixtures.js";
import { approveInBrowser, startOAuthMcpServer } from "../helpers/mcp-oauth-fixture.js";

const managers: McpManager[] = [];
const hosts: HostedMcpServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
	await Promise.all(managers.splice(0).map((manager) => manager.dispose()));
	await Promise.all(hosts.splice(0).map((host) => host.close()));
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function startManager(servers: McpServerConfig[], authStorage?: AuthStorage) {
	const manager = new McpManager({
		fileServers: servers,
		settings: () => ({ toolTimeoutMs: 60_000, connectTimeoutMs: 30_000, directToolLimit: 40 }),
		...(authStorage ? { authStorage } : {}),
		reconnectDelayMs: () => 0,
		maxAttempts: 2,
	});
	managers.push(manager);
	const notices: McpNotice[] = [];
	manager.onNotice((notice) => notices.push(notice));
	manager.start();
	return { manager, notices };
}

async function echo(manager: McpManager, server: string, message: string): Promise<string> {
	const tool = manager.getTools().find((candidate) => candidate.name === `mcp__${server}__echo`);
	if (!tool) throw new Error(`no echo tool of ${server}`);
	const result = await tool.execute("call", { message });
	return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

describe("remote transports", () => {
	it("talks streamable HTTP to the everything server", async () => {
		const host = await hostStreamableHttp(await everythingServerFactory());
		hosts.push(host);
		const { manager } = startManager([remoteServer("remote", host.url, "http")]);
		await waitForState(manager, "remote", "connected");
		expect(await echo(manager, "remote", "over http")).toBe("Echo: over http");
		expect(host.requests.every((request) => request.endsWith("/mcp"))).toBe(true);
	});

	it("reaches a remote server through HTTP_PROXY, and straight when NO_PROXY lists it", async () => {
		const host = await hostStreamableHttp(await everythingServerFactory());
		hosts.push(host);
		const names = ["HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"] as const;
		const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
		try {
			// Nothing listens on port 9 (discard): a connection that uses the proxy fails naming it.
			process.env.HTTP_PROXY = process.env.http_proxy = "http://127.0.0.1:9";
			delete process.env.NO_PROXY;
			delete process.env.no_proxy;
			const { manager: viaProxy, notices } = startManager([remoteServer("proxied", host.url, "http")]);
			await waitForState(viaProxy, "proxied", "failed");
			expect(JSON.stringify(notices)).toContain("Could not reach the proxy http://127.0.0.1:9");
			expect(host.requests).toEqual([]);

			process.env.NO_PROXY = process.env.no_proxy = "127.0.0.1";
			const { manager } = startManager([remoteServer("direct", host.url, "http")]);
			await waitForState(manager, "direct", "connected");
			expect(await echo(manager, "direct", "no proxy")).toBe("Echo: no proxy");
		} finally {
			for (const name of names) {
				if (saved[name] === undefined) delete process.env[name];
				else process.env[name] = saved[name];
			}
		}
	});

	it("talks legacy SSE to the everything server", async () => {
		const host = await hostSse(await everythingServerFactory());
		hosts.push(host);
		const { manager } = startManager([remoteServer("legacy", host.url, "sse")]);
		await waitForState(manager, "legacy", "connected");
		expect(await echo(manager, "legacy", "over sse")).toBe("Echo: over sse");
	});

	it("falls back to SSE when a server without a type refuses streamable HTTP", async () => {
		const host = await hostSse(await everythingServerFactory());
		hosts.push(host);
		const { manager } = startManager([{ ...remoteServer("guess", host.url), sseFallback: true }]);
		await waitForState(manager, "guess", "connected");
		expect(await echo(manager, "guess", "either")).toBe("Echo: either");
		expect(host.requests[0]).toBe("POST /sse");
	});
});

describe("OAuth", () => {
	it("asks the user to authorize, keeps the tokens in auth.json (0600), and refreshes them", async () => {
		const host = await startOAuthMcpServer();
		hosts.push(host);
		const dir = mkdtempSync(join(tmpdir(), "mcp-oauth-"));
		dirs.push(dir);
		const authPath = join(dir, "auth.json");
		const storage = AuthStorage.create(authPath);
		const { manager, notices } = startManager([remoteServer("secure", host.url)], storage);

		const waiting = await waitForState(manager, "secure", "needs-auth");
		expect(waiting.authorizationUrl).toMatch(/\/authorize\?/);
		expect(notices).toEqual([
			{
				server: "secure",
				level: "warning",
				text: `MCP server "secure" needs authorization. Open this page to sign in: ${waiting.authorizationUrl}`,
			},
		]);
		expect(await approveInBrowser(waiting.authorizationUrl as string)).toContain("Authorization complete");
		await waitForState(manager, "secure", "connected");
		expect(await echo(manager, "secure", "signed in")).toBe("Echo: signed in");

		expect(statSync(authPath).mode & 0o777).toBe(0o600);
		const stored = JSON.parse(readFileSync(authPath, "utf8"))[mcpOAuthStorageKey(host.url)];
		expect(stored).toMatchObject({ type: "mcp-oauth", tokens: { token_type: "Bearer" } });
		const firstToken = stored.tokens.access_token as string;

		host.revokeAccessTokens();
		expect(await echo(manager, "secure", "after expiry")).toBe("Echo: after expiry");
		expect(host.grants).toEqual({ authorization_code: 1, refresh_token: 1 });
		const refreshed = JSON.parse(readFileSync(authPath, "utf8"))[mcpOAuthStorageKey(host.url)];
		expect(refreshed.tokens.access_token).not.toBe(firstToken);
		// auth.json still holds nothing the provider logins would take for theirs.
		expect(storage.list()).toEqual([]);

		// A later session uses the stored tokens without asking again.
		const later = startManager([remoteServer("secure", host.url)], AuthStorage.create(authPath));
		await waitForState(later.manager, "secure", "connected");
		expect(later.notices).toEqual([]);
	});
});
