// Google Gemini CLI's sign-in (Cloud Code Assist, standard Gemini models).
import {
	cloudCodeApiKey,
	decodeClientValue,
	discoverGeminiCliProject,
	GOOGLE_ENDPOINTS,
	type GoogleOAuthClient,
	type GoogleOAuthEndpoints,
	loginGoogleCloudCode,
	loginWithCallbacks,
	refreshGoogleCloudCodeToken,
	refreshWithToken,
} from "./google-cloud-code.js";
import type { OAuthAuthInfo, OAuthCredentials, OAuthProviderInterface } from "./types.js";

const GEMINI_CLI_CLIENT: GoogleOAuthClient = {
	clientId: decodeClientValue(
		"NjgxMjU1ODA5Mzk1LW9vOGZ0Mm9wcmRybnA5ZTNhcWY2YXYzaG1kaWIxMzVqLmFwcHMuZ29vZ2xldXNlcmNvbnRlbnQuY29t",
	),
	clientSecret: decodeClientValue("R09DU1BYLTR1SGdNUG0tMW83U2stZ2VWNkN1NWNsWEZzeGw="),
	scopes: [
		"https://www.googleapis.com/auth/cloud-platform",
		"https://www.googleapis.com/auth/userinfo.email",
		"https://www.googleapis.com/auth/userinfo.profile",
	],
	callbackPath: "/oauth2callback",
	discoverProject: discoverGeminiCliProject,
};

export const GEMINI_CLI_ENDPOINTS: GoogleOAuthEndpoints = {
	authUrl: GOOGLE_ENDPOINTS.authUrl,
	tokenUrl: GOOGLE_ENDPOINTS.tokenUrl,
	userInfoUrl: GOOGLE_ENDPOINTS.userInfoUrl,
	codeAssistUrls: [GOOGLE_ENDPOINTS.codeAssistUrl],
	callbackPort: 8085,
	provisioningPollMs: 5000,
};

export function loginGeminiCli(
	onAuth: (info: OAuthAuthInfo) => void,
	onProgress?: (message: string) => void,
	onManualCodeInput?: () => Promise<string>,
): Promise<OAuthCredentials> {
	return loginWithCallbacks(createGeminiCliOAuthProvider(), onAuth, onProgress, onManualCodeInput);
}

export function refreshGoogleCloudToken(refreshToken: string, projectId: string): Promise<OAuthCredentials> {
	return refreshWithToken(GEMINI_CLI_CLIENT, GEMINI_CLI_ENDPOINTS, refreshToken, projectId);
}

export function createGeminiCliOAuthProvider(
	endpoints: GoogleOAuthEndpoints = GEMINI_CLI_ENDPOINTS,
): OAuthProviderInterface {
	return {
		id: "google-gemini-cli",
		name: "Google Cloud Code Assist (Gemini CLI)",
		usesCallbackServer: true,
		login: (callbacks) => loginGoogleCloudCode(GEMINI_CLI_CLIENT, endpoints, callbacks),
		refreshToken: (credentials) => refreshGoogleCloudCodeToken(GEMINI_CLI_CLIENT, endpoints, credentials),
		getApiKey: cloudCodeApiKey,
	};
}
