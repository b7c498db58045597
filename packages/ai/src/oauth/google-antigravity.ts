// Antigravity's sign-in (Cloud Code Assist with Gemini 3, Claude and GPT-OSS models); another Google client.
import {
	cloudCodeApiKey,
	decodeClientValue,
	discoverAntigravityProject,
	GOOGLE_ENDPOINTS,
	type GoogleOAuthClient,
	type GoogleOAuthEndpoints,
	loginGoogleCloudCode,
	loginWithCallbacks,
	refreshGoogleCloudCodeToken,
	refreshWithToken,
} from "./google-cloud-code.js";
import type { OAuthAuthInfo, OAuthCredentials, OAuthProviderInterface } from "./types.js";

const ANTIGRAVITY_CLIENT: GoogleOAuthClient = {
	clientId: decodeClientValue(
		"MTA3MTAwNjA2MDU5MS10bWhzc2luMmgyMWxjcmUyMzV2dG9sb2poNGc0MDNlcC5hcHBzLmdvb2dsZXVzZXJjb250ZW50LmNvbQ==",
	),
	clientSecret: decodeClientValue("R09DU1BYLUs1OEZXUjQ4NkxkTEoxbUxCOHNYQzR6NnFEQWY="),
	scopes: [
		"https://www.googleapis.com/auth/cloud-platform",
		"https://www.googleapis.com/auth/userinfo.email",
		"https://www.googleapis.com/auth/userinfo.profile",
		"https://www.googleapis.com/auth/cclog",
		"https://www.googleapis.com/auth/experimentsandconfigs",
	],
	callbackPath: "/oauth-callback",
	discoverProject: discoverAntigravityProject,
};

export const ANTIGRAVITY_ENDPOINTS: GoogleOAuthEndpoints = {
	authUrl: GOOGLE_ENDPOINTS.authUrl,
	tokenUrl: GOOGLE_ENDPOINTS.tokenUrl,
	userInfoUrl: GOOGLE_ENDPOINTS.userInfoUrl,
	codeAssistUrls: [GOOGLE_ENDPOINTS.codeAssistUrl, GOOGLE_ENDPOINTS.antigravitySandboxUrl],
	callbackPort: 51121,
	provisioningPollMs: 5000,
};

export function loginAntigravity(
	onAuth: (info: OAuthAuthInfo) => void,
	onProgress?: (message: string) => void,
	onManualCodeInput?: () => Promise<string>,
): Promise<OAuthCredentials> {
	return loginWithCallbacks(createAntigravityOAuthProvider(), onAuth, onProgress, onManualCodeInput);
}

export function refreshAntigravityToken(refreshToken: string, projectId: string): Promise<OAuthCredentials> {
	return refreshWithToken(ANTIGRAVITY_CLIENT, ANTIGRAVITY_ENDPOINTS, refreshToken, projectId);
}

export function createAntigravityOAuthProvider(
	endpoints: GoogleOAuthEndpoints = ANTIGRAVITY_ENDPOINTS,
): OAuthProviderInterface {
	return {
		id: "google-antigravity",
		name: "Antigravity (Gemini 3, Claude, GPT-OSS)",
		usesCallbackServer: true,
		login: (callbacks) => loginGoogleCloudCode(ANTIGRAVITY_CLIENT, endpoints, callbacks),
		refreshToken: (credentials) => refreshGoogleCloudCodeToken(ANTIGRAVITY_CLIENT, endpoints, credentials),
		getApiKey: cloudCodeApiKey,
	};
}
