import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAICodexOAuthProvider, type OpenAICodexOAuthEndpoints } from "../../src/index.js";
import { STATE_MISMATCH_MESSAGE } from "../../src/oauth/callback-server.js";
import { FakeServer } from "../helpers/fake-server.js";
import { codexAccessToken, deferred, followRedirect, formOf, s256 } from "../helpers/oauth-fixtures.js";

const server = new FakeServer();
beforeAll(() => server.listen());
afterAll(() => server.close());

function endpoints(callbackPort = 0): OpenAICodexOAuthEndpoints {
	return {
		authorizeUrl: `${server.url}/oauth/authorize`,
		tokenUrl: `${server.url}/oauth/token`,
		clientId: "test-client",
		callbackPort,
	};
}

const never = () => new Promise<string>(() => undefined);

function tokenReply(access: string, refresh = "refresh-1") {
	return {
		kind: "json" as const,
		status: 200,
		body: { access_token: access, refresh_token: refresh, expires_in: 3600 },
	};
}

describe("ChatGPT (Codex) sign-in", () => {
	it("takes the code from the browser's redirect to the local callback server and exchanges it with PKCE", async () => {
		const access = codexAccessToken("acct_1");
		server.enqueue(tokenReply(access));
		let authUrl = "";
		let page: Promise<Response> | undefined;
		const before = Date.now();
		const credentials = await createOpenAICodexOAuthProvider(endpoints()).login({
			onAuth: ({ url }) => {
				authUrl = url;
				page = followRedirect(url, "code-1");
			},
			onPrompt: never,
			onManualCodeInput: never,
		});
		expect(credentials).toMatchObject({ access, refresh: "refresh-1", accountId: "acct_1" });
		expect(credentials.expires).toBeGreaterThanOrEqual(before + 3600_000);
		expect((await page)?.status).toBe(200);

		const auth = new URL(authUrl);
		expect(auth.origin + auth.pathname).toBe(`${server.url}/oauth/authorize`);
		expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
		expect(auth.searchParams.get("client_id")).toBe("test-client");
		expect(auth.searchParams.get("scope")).toBe("openid profile email offline_access");
		const request = server.requests.at(-1);
		expect(request?.url).toBe("/oauth/token");
		const form = formOf(request?.rawBody ?? "");
		expect(form).toMatchObject({
			grant_type: "authorization_code",
			client_id: "test-client",
			code: "code-1",
			redirect_uri: auth.searchParams.get("redirect_uri"),
		});
		expect(s256(form.code_verifier as string)).toBe(auth.searchParams.get("code_challenge"));
	});

	it("takes the redirect URL the user pastes when the browser is on another machine", async () => {
		server.enqueue(tokenReply(codexAccessToken("acct_2")));
		const pasted = deferred<string>();
		const credentials = await createOpenAICodexOAuthProvider(endpoints()).login({
			onAuth: ({ url }) => {
				const state = new URL(url).searchParams.get("state");
				pasted.resolve(`http://localhost:1455/auth/callback?code=pasted-code&state=${state}`);
			},
			onPrompt: never,
			onManualCodeInput: () => pasted.promise,
		});
		expect(credentials.accountId).toBe("acct_2");
		expect(formOf(server.requests.at(-1)?.rawBody ?? "").code).toBe("pasted-code");
	});

	it("refuses a pasted URL whose state is not this login's", async () => {
		const requestsBefore = server.requests.length;
		await expect(
			createOpenAICodexOAuthProvider(endpoints()).login({
				onAuth: () => undefined,
				onPrompt: never,
				onManualCodeInput: async () => "http://localhost:1455/auth/callback?code=c&state=forged",
			}),
		).rejects.toThrow(STATE_MISMATCH_MESSAGE);
		expect(server.requests.length).toBe(requestsBefore);
	});

	it("asks for the pasted URL when the callback port is taken", async () => {
		const blocker = createServer();
		await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
		const port = (blocker.address() as { port: number }).port;
		try {
			server.enqueue(tokenReply(codexAccessToken("acct_3")));
			let state = "";
			const prompts: string[] = [];
			const credentials = await createOpenAICodexOAuthProvider(endpoints(port)).login({
				onAuth: ({ url, instructions }) => {
					state = new URL(url).searchParams.get("state") ?? "";
					expect(new URL(url).searchParams.get("redirect_uri")).toBe(`http://localhost:${port}/auth/callback`);
					expect(instructions).toContain("in use");
				},
				onPrompt: async ({ message }) => {
					prompts.push(message);
					return `code-3#${state}`;
				},
			});
			expect(credentials.accountId).toBe("acct_3");
			expect(prompts).toHaveLength(1);
		} finally {
			blocker.close();
		}
	});

	it("refreshes with the refresh token and keeps the account id", async () => {
		server.enqueue(tokenReply(codexAccessToken("acct_1"), "refresh-2"));
		const provider = createOpenAICodexOAuthProvider(endpoints());
		const next = await provider.refreshToken({ access: "old", refresh: "refresh-1", expires: 0 });
		expect(next).toMatchObject({ refresh: "refresh-2", accountId: "acct_1" });
		expect(formOf(server.requests.at(-1)?.rawBody ?? "")).toEqual({
			client_id: "test-client",
			grant_type: "refresh_token",
			refresh_token: "refresh-1",
		});
	});

	it("says the refresh failed, with the server's reason, when the refresh token is refused", async () => {
		server.enqueue({ kind: "json", status: 400, body: { error: "invalid_grant" } });
		await expect(
			createOpenAICodexOAuthProvider(endpoints()).refreshToken({ access: "a", refresh: "gone", expires: 0 }),
		).rejects.toThrow(/Failed to refresh OpenAI Codex token: 400 .*invalid_grant/);
	});
});
