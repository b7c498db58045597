// Where a GitHub Copilot account's API is. Small and import-free, for the registry and the login flow alike.
import type { Api, Model } from "../types.js";
import type { OAuthCredentials } from "./types.js";

export const DEFAULT_COPILOT_BASE_URL = "https://api.individual.githubcopilot.com";

/** `company.ghe.com`, `https://company.ghe.com/...` → `company.ghe.com`; null when it is no host name. */
export function normalizeDomain(input: string): string | null {
	const trimmed = input.trim();
	if (!trimmed) return null;
	try {
		const url = new URL(trimmed.includes("://") ? trimmed : `https://${trimmed}`);
		return url.hostname || null;
	} catch {
		return null;
	}
}

/**
 * The API base URL for a Copilot token: its `proxy-ep=proxy.<host>` field names the account's endpoint
 * (`https://api.<host>`); else the enterprise's `copilot-api.<domain>`, else the individual endpoint.
 */
export function getGitHubCopilotBaseUrl(token?: string, enterpriseDomain?: string): string {
	const proxy = token ? /(?:^|;)\s*proxy-ep=([^;]+)/.exec(token)?.[1]?.trim() : undefined;
	if (proxy && /^[A-Za-z0-9.-]+$/.test(proxy)) return `https://${proxy.replace(/^proxy\./, "api.")}`;
	if (enterpriseDomain) return `https://copilot-api.${enterpriseDomain}`;
	return DEFAULT_COPILOT_BASE_URL;
}

export function enterpriseDomainOf(credentials: OAuthCredentials): string | undefined {
	const domain = credentials.enterpriseUrl;
	return typeof domain === "string" && domain ? domain : undefined;
}

/** Points the Copilot models at the account's endpoint. */
export function copilotModelsFor(
	models: Model<Api>[],
	credentials: OAuthCredentials,
	apiBaseUrl?: string,
): Model<Api>[] {
	const baseUrl = apiBaseUrl ?? getGitHubCopilotBaseUrl(credentials.access, enterpriseDomainOf(credentials));
	return models.map((model) => (model.provider === "github-copilot" ? { ...model, baseUrl } : model));
}
