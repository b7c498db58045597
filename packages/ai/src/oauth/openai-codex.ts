// ChatGPT Plus/Pro (Codex): authorization code with PKCE against auth.openai.com, the browser redirected to a
// callback server on localhost:1455 (the redirect registered for the Codex client), or the redirect URL pasted.
import { APP_NAME_FOR_PROVIDERS } from "./app-name.js";
import { obtainAuthorizationCode, startCallbackServer } from "./callback-server.js";
import { chatgptAccountId } from "./jwt.js";
import { fetchOAuthJson, requireNumber, requireString } from "./oauth-http.js";
import { createState, generatePKCE } from "./pkce.js";
import type { OAuthCredentials, OAuthLoginCallbacks, OAuthProviderInterface } from "./types.js";

export interface OpenAICodexOAuthEndpoints {
	authorizeUrl: string;
	tokenUrl: string;
	clientId: string;
	/** The registered callback port; 0 (tests) takes any free one. */
	callbackPort: number;
}

export const OPENAI_CODEX_ENDPOINTS: OpenAICodexOAuthEndpoints = {
	authorizeUrl: "https://auth.openai.com/oauth/authorize",
	tokenUrl: "https://auth.openai.com/oauth/token",
	clientId: "app_EMoamEEZ73f0CkXaXp7hrann",
	callbackPort: 1455,
};

const CALLBACK_PATH = "/auth/callback";
const SCOPE = "openid profile email offline_access";
export const CODEX_REFRESH_FAILED_MESSAGE = "Failed to refresh OpenAI Codex token";
export const CODEX_NO_ACCOUNT_MESSAGE = "Failed to extract accountId from token";

async function requestTokens(
	endpoints: OpenAICodexOAuthEndpoints,
	form: Record<string, string>,
	signal?: AbortSignal,
): Promise<OAuthCredentials> {
	const data = await fetchOAuthJson(endpoints.tokenUrl, { form: { client_id: endpoints.clientId, ...form }, signal });
	const access = requireString(data, "access_token", "OpenAI token exchange");
	const accountId = chatgptAccountId(access);
	if (!accountId) throw new Error(CODEX_NO_ACCOUNT_MESSAGE);
	return {
		access,
		refresh: requireString(data, "refresh_token", "OpenAI token exchange"),
		expires: Date.now() + requireNumber(data, "expires_in", "OpenAI token exchange") * 1000,
		accountId,
	};
}

export async function loginOpenAICodex(
	callbacks: OAuthLoginCallbacks & { originator?: string },
	endpoints: OpenAICodexOAuthEndpoints = OPENAI_CODEX_ENDPOINTS,
): Promise<OAuthCredentials> {
	const { verifier, challenge } = await generatePKCE();
	const state = createState();
	const server = await startCallbackServer({ port: endpoints.callbackPort, path: CALLBACK_PATH, state });
	// Without the server (port taken) the redirect still names the registered port; the user pastes the URL.
	const redirectUri = server?.redirectUri ?? `http://localhost:${endpoints.callbackPort}${CALLBACK_PATH}`;
	try {
		const url = new URL(endpoints.authorizeUrl);
		for (const [key, value] of Object.entries({
			response_type: "code",
			client_id: endpoints.clientId,
			redirect_uri: redirectUri,
			scope: SCOPE,
			code_challenge: challenge,
			code_challenge_method: "S256",
			state,
			id_token_add_organizations: "true",
			codex_cli_simplified_flow: "true",
			originator: callbacks.originator ?? APP_NAME_FOR_PROVIDERS,
		})) {
			url.searchParams.set(key, value);
		}
		callbacks.onAuth({
			url: url.toString(),
			instructions: server
				? "Sign in with your ChatGPT account in the browser. On another machine, paste the URL the browser ends up on."
				: `Port ${endpoints.callbackPort} is in use: after signing in, paste the URL the browser ends up on.`,
		});
		const code = await obtainAuthorizationCode(server, state, callbacks);
		callbacks.onProgress?.("Exchanging the authorization code for tokens...");
		return await requestTokens(
			endpoints,
			{ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: redirectUri },
			callbacks.signal,
		);
	} finally {
		server?.close();
	}
}

export async function refreshOpenAICodexToken(
	refreshToken: string,
	endpoints: OpenAICodexOAuthEndpoints = OPENAI_CODEX_ENDPOINTS,
): Promise<OAuthCredentials> {
	try {
		return await requestTokens(endpoints, { grant_type: "refresh_token", refresh_token: refreshToken });
	} catch (error) {
		throw new Error(`${CODEX_REFRESH_FAILED_MESSAGE}: ${error instanceof Error ? error.message : String(error)}`);
	}
}

export function createOpenAICodexOAuthProvider(
	endpoints: OpenAICodexOAuthEndpoints = OPENAI_CODEX_ENDPOINTS,
): OAuthProviderInterface {
	return {
		id: "openai-codex",
		name: "ChatGPT Plus/Pro (Codex Subscription)",
		usesCallbackServer: true,
		login: (callbacks) => loginOpenAICodex(callbacks, endpoints),
		refreshToken: (credentials) => refreshOpenAICodexToken(credentials.refresh, endpoints),
		getApiKey: (credentials) => credentials.access,
	};
}
