// Two agents whose ChatGPT token expired at the same moment: the refresh runs once, under the auth.json lock,
// and both end with the one new token. The token server rotates refresh tokens and refuses a used one, as
// OpenAI's does, so a second refresh would have failed and lost the sign-in.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSourcesInChild } from "../helpers/session-child-process.js";
import { useTempDirs } from "../helpers/session-fixtures.js";

const AUTH_STORAGE_SOURCE = join(import.meta.dirname, "..", "..", "src", "core", "config", "auth-storage.ts");
const CODEX_OAUTH_SOURCE = join(import.meta.dirname, "..", "..", "..", "ai", "src", "oauth", "openai-codex.ts");

function jwt(accountId: string, serial: number): string {
	const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
	return `${part({ alg: "none" })}.${part({ "https://api.openai.com/auth": { chatgpt_account_id: accountId }, serial })}.sig`;
}

/** A token endpoint that rotates refresh tokens; the first refresh is held until `release()`. */
class RotatingTokenServer {
	readonly requests: Record<string, string>[] = [];
	private valid = new Set(["refresh-0"]);
	private serial = 0;
	private releaseHeld: () => void = () => undefined;
	private readonly released = new Promise<void>((resolve) => {
		this.releaseHeld = resolve;
	});
	private firstArrived: () => void = () => undefined;
	readonly firstRequest = new Promise<void>((resolve) => {
		this.firstArrived = resolve;
	});
	private readonly server = createServer((request, response) => void this.handle(request, response));
	url = "";

	async listen(): Promise<void> {
		await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	release(): void {
		this.releaseHeld();
	}

	close(): void {
		this.server.closeAllConnections();
		this.server.close();
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		let body = "";
		for await (const chunk of request) body += chunk;
		const form = Object.fromEntries(new URLSearchParams(body));
		this.requests.push(form);
		if (this.requests.length === 1) {
			this.firstArrived();
			await this.released;
		}
		const token = form.refresh_token ?? "";
		if (!this.valid.delete(token)) {
			response.writeHead(400, { "Content-Type": "application/json" }).end('{"error":"invalid_grant"}');
			return;
		}
		this.serial++;
		const next = `refresh-${this.serial}`;
		this.valid.add(next);
		response
			.writeHead(200, { "Content-Type": "application/json" })
			.end(JSON.stringify({ access_token: jwt("acct_1", this.serial), refresh_token: next, expires_in: 3600 }));
	}
}

const tokenServer = new RotatingTokenServer();
beforeAll(() => tokenServer.listen());
afterAll(() => tokenServer.close());
const tempDir = useTempDirs("agent-login-");

describe("two processes refreshing the same expired sign-in", () => {
	it("refresh once under the lock and both use the one new token; no credential is lost", async () => {
		const path = join(tempDir(), "auth.json");
		writeFileSync(
			path,
			JSON.stringify({
				"openai-codex": {
					type: "oauth",
					access: jwt("acct_1", 0),
					refresh: "refresh-0",
					expires: 1,
					accountId: "acct_1",
				},
				openai: { type: "api_key", key: "sk-kept" },
			}),
			{ mode: 0o600 },
		);
		const agent = () =>
			startSourcesInChild(`
				const { AuthStorage } = await load(${JSON.stringify(AUTH_STORAGE_SOURCE)});
				const { createOpenAICodexOAuthProvider } = await load(${JSON.stringify(CODEX_OAUTH_SOURCE)});
				const storage = AuthStorage.create(${JSON.stringify(path)}, {});
				storage.registerOAuthProvider(createOpenAICodexOAuthProvider({
					authorizeUrl: ${JSON.stringify(`${tokenServer.url}/authorize`)},
					tokenUrl: ${JSON.stringify(`${tokenServer.url}/token`)},
					clientId: "test-client",
					callbackPort: 0,
				}));
				process.stdout.write("READY\\n");
				await new Promise((resolve) => process.stdin.once("data", resolve));
				process.stdout.write("ASKING\\n");
				const key = await storage.getApiKey("openai-codex");
				process.stdout.write("KEY " + key + "\\n");
				process.exit(0);
			`);
		const children = [agent(), agent()];
		await Promise.all(children.map((child) => child.waitForLine("READY")));
		for (const child of children) child.process.stdin.write("go\n");
		// One refresh is at the token server; the other agent has asked for its key by now too.
		await tokenServer.firstRequest;
		await Promise.all(children.map((child) => child.waitForLine("ASKING")));
		tokenServer.release();
		const keys = await Promise.all(children.map((child) => child.waitForLine("KEY ")));
		const codes = await Promise.all(children.map((child) => child.exited));
		expect(codes, children.map((child) => child.stderr()).join("\n")).toEqual([0, 0]);

		expect(tokenServer.requests).toHaveLength(1);
		expect(keys[0]).toBe(jwt("acct_1", 1));
		expect(keys[1]).toBe(keys[0]);
		const stored = JSON.parse(readFileSync(path, "utf8"));
		expect(stored["openai-codex"]).toMatchObject({ type: "oauth", refresh: "refresh-1", access: keys[0] });
		expect(stored["openai-codex"].expires).toBeGreaterThan(Date.now());
		expect(stored.openai).toEqual({ type: "api_key", key: "sk-kept" });
		expect(statSync(path).mode & 0o777).toBe(0o600);
	}, 120_000);
});
