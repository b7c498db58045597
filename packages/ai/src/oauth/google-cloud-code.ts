// Google sign-in for Cloud Code Assist (Gemini CLI and Antigravity): authorization code with PKCE and the
// installed-app client of each product, the browser redirected to a localhost callback server (or the redirect
// URL pasted), then the Cloud Code Assist project the requests are billed to is found (or provisioned).
import { obtainAuthorizationCode, startCallbackServer } from "./callback-server.js";
import {
	fetchOAuthJson,
	OAuthHttpError,
	requireNumber,
	requireString,
	sendOAuthRequest,
	waitOrCancel,
} from "./oauth-http.js";
import { generatePKCE } from "./pkce.js";
import {
	LOGIN_CANCELLED_MESSAGE,
	type OAuthAuthInfo,
	type OAuthCredentials,
	type OAuthLoginCallbacks,
	type OAuthProviderInterface,
} from "./types.js";

export interface GoogleOAuthEndpoints {
	authUrl: string;
	tokenUrl: string;
	userInfoUrl: string;
	/** Cloud Code Assist servers, tried in order for project discovery. */
	codeAssistUrls: string[];
	/** The registered callback port; 0 (tests) takes any free one. */
	callbackPort: number;
	/** Wait between polls of a project being provisioned. */
	provisioningPollMs: number;
}

export const GOOGLE_ENDPOINTS = {
	authUrl: "https://accounts.google.com/o/oauth2/v2/auth",
	tokenUrl: "https://oauth2.googleapis.com/token",
	userInfoUrl: "https://www.googleapis.com/oauth2/v1/userinfo?alt=json",
	codeAssistUrl: "https://cloudcode-pa.googleapis.com",
	antigravitySandboxUrl: "https://daily-cloudcode-pa.sandbox.googleapis.com",
} as const;

/** One product's installed-app client (these are public by design: desktop clients cannot keep a secret). */
export interface GoogleOAuthClient {
	clientId: string;
	clientSecret: string;
	scopes: string[];
	callbackPath: string;
	/** Finds the project after sign-in. */
	discoverProject(accessToken: string, context: DiscoveryContext): Promise<string>;
}

export interface DiscoveryContext {
	endpoints: GoogleOAuthEndpoints;
	onProgress?: (message: string) => void;
	signal?: AbortSignal;
	env: NodeJS.ProcessEnv;
}

/**
 * Installed-app client ids and secrets are public, but secret scanners flag them in a repository as if they
 * were private: they are kept base64-encoded.
 */
export function decodeClientValue(encoded: string): string {
	return Buffer.from(encoded, "base64").toString("utf8");
}

/** Google access tokens are refreshed this long before they expire. */
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;

async function tokenRequest(
	client: GoogleOAuthClient,
	endpoints: GoogleOAuthEndpoints,
	form: Record<string, string>,
	signal?: AbortSignal,
): Promise<{ access: string; refresh?: string; expires: number }> {
	const data = await fetchOAuthJson(endpoints.tokenUrl, {
		form: { client_id: client.clientId, client_secret: client.clientSecret, ...form },
		signal,
	});
	const what = "Google token exchange";
	return {
		access: requireString(data, "access_token", what),
		refresh: typeof data.refresh_token === "string" && data.refresh_token ? data.refresh_token : undefined,
		expires: Date.now() + requireNumber(data, "expires_in", what) * 1000 - EXPIRY_MARGIN_MS,
	};
}

async function userEmail(endpoints: GoogleOAuthEndpoints, accessToken: string): Promise<string | undefined> {
	try {
		const data = await fetchOAuthJson(endpoints.userInfoUrl, { headers: { Authorization: `Bearer ${accessToken}` } });
		return typeof data.email === "string" ? data.email : undefined;
	} catch {
		return undefined; // The address is only shown to the user; sign-in does not need it.
	}
}

export async function loginGoogleCloudCode(
	client: GoogleOAuthClient,
	endpoints: GoogleOAuthEndpoints,
	callbacks: OAuthLoginCallbacks,
	env: NodeJS.ProcessEnv = process.env,
): Promise<OAuthCredentials> {
	const { verifier, challenge } = await generatePKCE();
	const state = verifier;
	const server = await startCallbackServer({ port: endpoints.callbackPort, path: client.callbackPath, state });
	const redirectUri = server?.redirectUri ?? `http://localhost:${endpoints.callbackPort}${client.callbackPath}`;
	try {
		const params = new URLSearchParams({
			client_id: client.clientId,
			response_type: "code",
			redirect_uri: redirectUri,
			scope: client.scopes.join(" "),
			code_challenge: challenge,
			code_challenge_method: "S256",
			state,
			access_type: "offline",
			prompt: "consent",
		});
		callbacks.onAuth({
			url: `${endpoints.authUrl}?${params.toString()}`,
			instructions: server
				? "Complete the sign-in in your browser. On another machine, paste the URL the browser ends up on."
				: `Port ${endpoints.callbackPort} is in use: after signing in, paste the URL the browser ends up on.`,
		});
		const code = await obtainAuthorizationCode(server, state, callbacks);
		callbacks.onProgress?.("Exchanging the authorization code for tokens...");
		const tokens = await tokenRequest(
			client,
			endpoints,
			{ code, grant_type: "authorization_code", redirect_uri: redirectUri, code_verifier: verifier },
			callbacks.signal,
		);
		if (!tokens.refresh) throw new Error("No refresh token received. Please try again.");
		const email = await userEmail(endpoints, tokens.access);
		const projectId = await client.discoverProject(tokens.access, {
			endpoints,
			onProgress: callbacks.onProgress,
			signal: callbacks.signal,
			env,
		});
		return {
			refresh: tokens.refresh,
			access: tokens.access,
			expires: tokens.expires,
			projectId,
			...(email ? { email } : {}),
		};
	} finally {
		server?.close();
	}
}

export async function refreshGoogleCloudCodeToken(
	client: GoogleOAuthClient,
	endpoints: GoogleOAuthEndpoints,
	credentials: OAuthCredentials,
): Promise<OAuthCredentials> {
	const tokens = await tokenRequest(client, endpoints, {
		refresh_token: credentials.refresh,
		grant_type: "refresh_token",
	});
	return {
		...credentials,
		access: tokens.access,
		refresh: tokens.refresh ?? credentials.refresh,
		expires: tokens.expires,
	};
}

// ---------------------------------------------------------------------------------------------------------
// Project discovery
// ---------------------------------------------------------------------------------------------------------

const CLIENT_METADATA = { ideType: "IDE_UNSPECIFIED", platform: "PLATFORM_UNSPECIFIED", pluginType: "GEMINI" };
const FREE_TIER = "free-tier";
const LEGACY_TIER = "legacy-tier";
const STANDARD_TIER = "standard-tier";
export const PROJECT_REQUIRED_MESSAGE =
	"This account requires setting the GOOGLE_CLOUD_PROJECT or GOOGLE_CLOUD_PROJECT_ID environment variable. See https://goo.gle/gemini-cli-auth-docs#workspace-gca";

function projectIdOf(value: unknown): string | undefined {
	if (typeof value === "string" && value) return value;
	if (typeof value === "object" && value !== null) {
		const id = (value as { id?: unknown }).id;
		if (typeof id === "string" && id) return id;
	}
	return undefined;
}

function isSecurityPolicyViolation(body: string): boolean {
	try {
		const details = (JSON.parse(body) as { error?: { details?: { reason?: string }[] } }).error?.details;
		return Array.isArray(details) && details.some((detail) => detail?.reason === "SECURITY_POLICY_VIOLATED");
	} catch {
		return false;
	}
}

/**
 * Gemini CLI: `loadCodeAssist` tells whether the account has a tier and a managed project; an account without
 * one is onboarded to its default tier (`onboardUser`, a long-running operation polled until done). Accounts
 * on paid tiers name their own project in GOOGLE_CLOUD_PROJECT.
 */
export async function discoverGeminiCliProject(accessToken: string, context: DiscoveryContext): Promise<string> {
	const { endpoints, env, signal } = context;
	const base = endpoints.codeAssistUrls[0] ?? GOOGLE_ENDPOINTS.codeAssistUrl;
	const envProject = env.GOOGLE_CLOUD_PROJECT || env.GOOGLE_CLOUD_PROJECT_ID || undefined;
	const headers = {
		Authorization: `Bearer ${accessToken}`,
		"User-Agent": "google-api-nodejs-client/9.15.1",
		"X-Goog-Api-Client": "gl-node/22.17.0",
	};
	context.onProgress?.("Checking for an existing Cloud Code Assist project...");
	let loaded: Record<string, unknown>;
	try {
		loaded = await fetchOAuthJson(`${base}/v1internal:loadCodeAssist`, {
			headers,
			json: { cloudaicompanionProject: envProject, metadata: { ...CLIENT_METADATA, duetProject: envProject } },
			signal,
		});
	} catch (error) {
		// Accounts behind VPC Service Controls cannot load their settings, but are standard-tier.
		if (!(error instanceof OAuthHttpError && isSecurityPolicyViolation(error.body))) throw error;
		loaded = { currentTier: { id: STANDARD_TIER } };
	}
	if (loaded.currentTier) {
		const project = projectIdOf(loaded.cloudaicompanionProject) ?? envProject;
		if (!project) throw new Error(PROJECT_REQUIRED_MESSAGE);
		return project;
	}
	const tiers = Array.isArray(loaded.allowedTiers)
		? (loaded.allowedTiers as { id?: string; isDefault?: boolean }[])
		: [];
	const tierId = tiers.find((tier) => tier?.isDefault)?.id ?? LEGACY_TIER;
	if (tierId !== FREE_TIER && !envProject) throw new Error(PROJECT_REQUIRED_MESSAGE);
	context.onProgress?.("Provisioning a Cloud Code Assist project (this may take a moment)...");
	// The free tier gets a project from Google; other tiers use the one the user named.
	const body =
		tierId === FREE_TIER
			? { tierId, metadata: CLIENT_METADATA }
			: { tierId, cloudaicompanionProject: envProject, metadata: { ...CLIENT_METADATA, duetProject: envProject } };
	let operation = await fetchOAuthJson(`${base}/v1internal:onboardUser`, { headers, json: body, signal });
	for (let attempt = 1; !operation.done && typeof operation.name === "string"; attempt++) {
		context.onProgress?.(`Waiting for project provisioning (attempt ${attempt + 1})...`);
		await waitOrCancel(endpoints.provisioningPollMs, signal, LOGIN_CANCELLED_MESSAGE);
		operation = await fetchOAuthJson(`${base}/v1internal/${operation.name}`, { headers, signal });
	}
	const response = operation.response as { cloudaicompanionProject?: unknown } | undefined;
	const project = projectIdOf(response?.cloudaicompanionProject) ?? envProject;
	if (!project) {
		throw new Error(
			"Could not discover or provision a Google Cloud project. Try setting the GOOGLE_CLOUD_PROJECT or GOOGLE_CLOUD_PROJECT_ID environment variable. See https://goo.gle/gemini-cli-auth-docs#workspace-gca",
		);
	}
	return project;
}

/** Antigravity's fallback project, used when no server names one for the account. */
export const ANTIGRAVITY_DEFAULT_PROJECT = "rising-fact-p41fc";

/** Antigravity: the project `loadCodeAssist` names on the first server that answers, else the shared default. */
export async function discoverAntigravityProject(accessToken: string, context: DiscoveryContext): Promise<string> {
	const headers = {
		Authorization: `Bearer ${accessToken}`,
		"User-Agent": "google-api-nodejs-client/9.15.1",
		"X-Goog-Api-Client": "google-cloud-sdk vscode_cloudshelleditor/0.1",
		"Client-Metadata": JSON.stringify(CLIENT_METADATA),
	};
	context.onProgress?.("Checking for an existing project...");
	for (const base of context.endpoints.codeAssistUrls) {
		if (context.signal?.aborted) throw new Error(LOGIN_CANCELLED_MESSAGE);
		try {
			const reply = await sendOAuthRequest(`${base}/v1internal:loadCodeAssist`, {
				headers,
				json: { metadata: CLIENT_METADATA },
				signal: context.signal,
			});
			if (!reply.ok) continue;
			const project = projectIdOf((JSON.parse(reply.text) as Record<string, unknown>).cloudaicompanionProject);
			if (project) return project;
		} catch {
			// The next server.
		}
	}
	context.onProgress?.("Using the default project...");
	return ANTIGRAVITY_DEFAULT_PROJECT;
}

/** The key Cloud Code Assist requests take: the token and the project, as JSON. */
export function cloudCodeApiKey(credentials: OAuthCredentials): string {
	return JSON.stringify({ token: credentials.access, projectId: credentials.projectId });
}

/** The reference's `login<Client>(onAuth, onProgress, onManualCodeInput)` form of a provider's login. */
export function loginWithCallbacks(
	provider: OAuthProviderInterface,
	onAuth: (info: OAuthAuthInfo) => void,
	onProgress?: (message: string) => void,
	onManualCodeInput?: () => Promise<string>,
): Promise<OAuthCredentials> {
	return provider.login({
		onAuth,
		onProgress,
		onManualCodeInput,
		onPrompt: () => Promise.reject(new Error("No prompt available")),
	});
}

/** The reference's `refresh<Client>Token(refreshToken, projectId)` form of a token refresh. */
export function refreshWithToken(
	client: GoogleOAuthClient,
	endpoints: GoogleOAuthEndpoints,
	refreshToken: string,
	projectId: string,
): Promise<OAuthCredentials> {
	return refreshGoogleCloudCodeToken(client, endpoints, { refresh: refreshToken, access: "", expires: 0, projectId });
}
