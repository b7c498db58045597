// The sign-in providers `/login` offers: the built-in ones, plus any an extension registers. A built-in's flow
// module is imported only when it logs in or refreshes, so knowing the providers costs nothing at start-up.
import type { Api, Model } from "../types.js";
import { copilotModelsFor } from "./github-copilot-base-url.js";
import type { OAuthCredentials, OAuthProviderId, OAuthProviderInfo, OAuthProviderInterface } from "./types.js";

function lazyProvider(
	descriptor: Omit<OAuthProviderInterface, "login" | "refreshToken">,
	load: () => Promise<OAuthProviderInterface>,
): OAuthProviderInterface {
	return {
		...descriptor,
		login: async (callbacks) => (await load()).login(callbacks),
		refreshToken: async (credentials) => (await load()).refreshToken(credentials),
	};
}

const accessToken = (credentials: OAuthCredentials) => credentials.access;
const cloudCodeKey = (credentials: OAuthCredentials) =>
	JSON.stringify({ token: credentials.access, projectId: credentials.projectId });

function builtInProviders(): OAuthProviderInterface[] {
	return [
		lazyProvider(
			{
				id: "openai-codex",
				name: "ChatGPT Plus/Pro (Codex Subscription)",
				usesCallbackServer: true,
				getApiKey: accessToken,
			},
			async () => (await import("./openai-codex.js")).createOpenAICodexOAuthProvider(),
		),
		lazyProvider(
			{
				id: "github-copilot",
				name: "GitHub Copilot",
				getApiKey: accessToken,
				modifyModels: (models: Model<Api>[], credentials: OAuthCredentials) =>
					copilotModelsFor(models, credentials),
			},
			async () => (await import("./github-copilot.js")).createGitHubCopilotOAuthProvider(),
		),
		lazyProvider(
			{
				id: "google-gemini-cli",
				name: "Google Cloud Code Assist (Gemini CLI)",
				usesCallbackServer: true,
				getApiKey: cloudCodeKey,
			},
			async () => (await import("./google-gemini-cli.js")).createGeminiCliOAuthProvider(),
		),
		lazyProvider(
			{
				id: "google-antigravity",
				name: "Antigravity (Gemini 3, Claude, GPT-OSS)",
				usesCallbackServer: true,
				getApiKey: cloudCodeKey,
			},
			async () => (await import("./google-antigravity.js")).createAntigravityOAuthProvider(),
		),
	];
}

const BUILT_IN_IDS = new Set(["openai-codex", "github-copilot", "google-gemini-cli", "google-antigravity"]);
const providers = new Map<OAuthProviderId, OAuthProviderInterface>();

export function resetOAuthProviders(): void {
	providers.clear();
	for (const provider of builtInProviders()) providers.set(provider.id, provider);
}
resetOAuthProviders();

export function getOAuthProvider(id: OAuthProviderId): OAuthProviderInterface | undefined {
	return providers.get(id);
}

export function getOAuthProviders(): OAuthProviderInterface[] {
	return [...providers.values()];
}

/** Adds (or replaces) a provider, e.g. one an extension brings, or a built-in pointed at other endpoints. */
export function registerOAuthProvider(provider: OAuthProviderInterface): void {
	providers.set(provider.id, provider);
}

/** Removes a provider; a built-in one comes back as built in. */
export function unregisterOAuthProvider(id: string): void {
	providers.delete(id);
	if (BUILT_IN_IDS.has(id)) {
		const builtIn = builtInProviders().find((provider) => provider.id === id);
		if (builtIn) providers.set(id, builtIn);
	}
}

/** @deprecated Use getOAuthProviders(). */
export function getOAuthProviderInfoList(): OAuthProviderInfo[] {
	return getOAuthProviders().map((provider) => ({ id: provider.id, name: provider.name, available: true }));
}

/** @deprecated Use getOAuthProvider(id).refreshToken(). */
export async function refreshOAuthToken(
	providerId: OAuthProviderId,
	credentials: OAuthCredentials,
): Promise<OAuthCredentials> {
	const provider = getOAuthProvider(providerId);
	if (!provider) throw new Error(`Unknown OAuth provider: ${providerId}`);
	return provider.refreshToken(credentials);
}

/**
 * The API key for a provider from stored credentials, refreshing them first when expired. Null when there
 * are none for it; throws when the refresh fails.
 */
export async function getOAuthApiKey(
	providerId: OAuthProviderId,
	credentials: Record<string, OAuthCredentials>,
): Promise<{ newCredentials: OAuthCredentials; apiKey: string } | null> {
	const provider = getOAuthProvider(providerId);
	if (!provider) throw new Error(`Unknown OAuth provider: ${providerId}`);
	let current = credentials[providerId];
	if (!current) return null;
	if (Date.now() >= current.expires) current = await provider.refreshToken(current);
	return { newCredentials: current, apiKey: provider.getApiKey(current) };
}
