// GitHub Copilot: GitHub's device flow (on github.com or a GitHub Enterprise domain) gives a GitHub token, which is
// exchanged for a short-lived Copilot token; the GitHub token is stored as `refresh`, the Copilot token as `access`.
// After login every catalog model's policy is enabled, as Copilot's own editors do on first use.
import { getModels } from "../models.js";
import {
	copilotModelsFor,
	enterpriseDomainOf,
	getGitHubCopilotBaseUrl,
	normalizeDomain,
} from "./github-copilot-base-url.js";
import { fetchOAuthJson, requireNumber, requireString, sendOAuthRequest, waitOrCancel } from "./oauth-http.js";
import {
	LOGIN_CANCELLED_MESSAGE,
	type OAuthCredentials,
	type OAuthLoginCallbacks,
	type OAuthProviderInterface,
} from "./types.js";

const CLIENT_ID = "Iv1.b507a08c87ecfe98";
export const COPILOT_HEADERS: Readonly<Record<string, string>> = {
	"User-Agent": "GitHubCopilotChat/0.35.0",
	"Editor-Version": "vscode/1.107.0",
	"Editor-Plugin-Version": "copilot-chat/0.35.0",
	"Copilot-Integration-Id": "vscode-chat",
};
export const ENTERPRISE_PROMPT = "GitHub Enterprise URL/domain (blank for github.com)";
export const INVALID_ENTERPRISE_MESSAGE = "Invalid GitHub Enterprise URL/domain";
/** Copilot tokens are refreshed this long before GitHub says they expire. */
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;

export interface GitHubCopilotEndpoints {
	deviceCodeUrl: string;
	accessTokenUrl: string;
	copilotTokenUrl: string;
}

/** The endpoints of github.com or of a GitHub Enterprise domain. */
export function githubCopilotEndpoints(domain: string): GitHubCopilotEndpoints {
	return {
		deviceCodeUrl: `https://${domain}/login/device/code`,
		accessTokenUrl: `https://${domain}/login/oauth/access_token`,
		copilotTokenUrl: `https://api.${domain}/copilot_internal/v2/token`,
	};
}

export interface GitHubCopilotOAuthOptions {
	/** Where a domain's endpoints are (tests point every domain at a local server). */
	endpointsFor?: (domain: string) => GitHubCopilotEndpoints;
	/** Replaces the API base URL the Copilot token names (tests). */
	apiBaseUrl?: string;
	/** The shortest wait between device-flow polls; GitHub asks for its `interval` (at least 1 s by default). */
	minPollIntervalMs?: number;
}

export async function refreshGitHubCopilotToken(
	githubToken: string,
	enterpriseDomain?: string,
	options: GitHubCopilotOAuthOptions = {},
): Promise<OAuthCredentials> {
	const urls = (options.endpointsFor ?? githubCopilotEndpoints)(enterpriseDomain ?? "github.com");
	const data = await fetchOAuthJson(urls.copilotTokenUrl, {
		headers: { Authorization: `Bearer ${githubToken}`, ...COPILOT_HEADERS },
	});
	const token = requireString(data, "token", "Copilot token exchange");
	const expiresAt = requireNumber(data, "expires_at", "Copilot token exchange");
	return {
		refresh: githubToken,
		access: token,
		expires: expiresAt * 1000 - EXPIRY_MARGIN_MS,
		...(enterpriseDomain ? { enterpriseUrl: enterpriseDomain } : {}),
	};
}

async function pollForGitHubToken(
	urls: GitHubCopilotEndpoints,
	device: { deviceCode: string; intervalMs: number; expiresInMs: number },
	signal: AbortSignal | undefined,
): Promise<string> {
	const deadline = Date.now() + device.expiresInMs;
	let intervalMs = device.intervalMs;
	let slowedDown = false;
	while (Date.now() < deadline) {
		await waitOrCancel(Math.min(intervalMs, Math.max(0, deadline - Date.now())), signal, LOGIN_CANCELLED_MESSAGE);
		const data = await fetchOAuthJson(urls.accessTokenUrl, {
			headers: { "User-Agent": COPILOT_HEADERS["User-Agent"] },
			form: {
				client_id: CLIENT_ID,
				device_code: device.deviceCode,
				grant_type: "urn:ietf:params:oauth:grant-type:device_code",
			},
			signal,
		});
		if (typeof data.access_token === "string" && data.access_token) return data.access_token;
		const error = typeof data.error === "string" ? data.error : "no access_token in the reply";
		if (error === "authorization_pending") continue;
		if (error === "slow_down") {
			// RFC 8628: wait five seconds longer from now on (or what the server says).
			slowedDown = true;
			intervalMs = typeof data.interval === "number" && data.interval > 0 ? data.interval * 1000 : intervalMs + 5000;
			continue;
		}
		const description = typeof data.error_description === "string" ? `: ${data.error_description}` : "";
		throw new Error(`Device flow failed: ${error}${description}`);
	}
	throw new Error(
		slowedDown
			? "Device flow timed out after one or more slow_down responses. This is often caused by clock drift in WSL or VM environments. Please sync or restart the VM clock and try again."
			: "Device flow timed out",
	);
}

/** Turns on one model's policy for the account; false when Copilot refused or could not be reached. */
async function enableModel(token: string, modelId: string, baseUrl: string): Promise<boolean> {
	try {
		const reply = await sendOAuthRequest(`${baseUrl}/models/${encodeURIComponent(modelId)}/policy`, {
			headers: {
				Authorization: `Bearer ${token}`,
				...COPILOT_HEADERS,
				"openai-intent": "chat-policy",
				"x-interaction-type": "chat-policy",
			},
			json: { state: "enabled" },
		});
		return reply.ok;
	} catch {
		return false;
	}
}

export async function loginGitHubCopilot(
	callbacks: OAuthLoginCallbacks,
	options: GitHubCopilotOAuthOptions = {},
): Promise<OAuthCredentials> {
	const input = await callbacks.onPrompt({
		message: ENTERPRISE_PROMPT,
		placeholder: "company.ghe.com",
		allowEmpty: true,
	});
	if (callbacks.signal?.aborted) throw new Error(LOGIN_CANCELLED_MESSAGE);
	const enterpriseDomain = normalizeDomain(input) ?? undefined;
	if (input.trim() && !enterpriseDomain) throw new Error(INVALID_ENTERPRISE_MESSAGE);
	const urls = (options.endpointsFor ?? githubCopilotEndpoints)(enterpriseDomain ?? "github.com");
	const device = await fetchOAuthJson(urls.deviceCodeUrl, {
		headers: { "User-Agent": COPILOT_HEADERS["User-Agent"] },
		form: { client_id: CLIENT_ID, scope: "read:user" },
		signal: callbacks.signal,
	});
	const what = "GitHub device code";
	const userCode = requireString(device, "user_code", what);
	callbacks.onAuth({ url: requireString(device, "verification_uri", what), instructions: `Enter code: ${userCode}` });
	const githubToken = await pollForGitHubToken(
		urls,
		{
			deviceCode: requireString(device, "device_code", what),
			intervalMs: Math.max(options.minPollIntervalMs ?? 1000, requireNumber(device, "interval", what) * 1000),
			expiresInMs: requireNumber(device, "expires_in", what) * 1000,
		},
		callbacks.signal,
	);
	const credentials = await refreshGitHubCopilotToken(githubToken, enterpriseDomain, options);
	callbacks.onProgress?.("Enabling models...");
	const baseUrl = options.apiBaseUrl ?? getGitHubCopilotBaseUrl(credentials.access, enterpriseDomain);
	const results = await Promise.all(
		getModels("github-copilot").map((model) => enableModel(credentials.access, model.id, baseUrl)),
	);
	const refused = results.filter((ok) => !ok).length;
	if (refused > 0)
		callbacks.onProgress?.(
			`${refused} of ${results.length} models could not be enabled; they may need enabling in GitHub's Copilot settings.`,
		);
	return credentials;
}

export function createGitHubCopilotOAuthProvider(options: GitHubCopilotOAuthOptions = {}): OAuthProviderInterface {
	return {
		id: "github-copilot",
		name: "GitHub Copilot",
		login: (callbacks) => loginGitHubCopilot(callbacks, options),
		refreshToken: (credentials) =>
			refreshGitHubCopilotToken(credentials.refresh, enterpriseDomainOf(credentials), options),
		getApiKey: (credentials) => credentials.access,
		modifyModels: (models, credentials) => copilotModelsFor(models, credentials, options.apiBaseUrl),
	};
}
