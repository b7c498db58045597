// One-time startup migration of credentials kept by older versions: `apiKeys` in the global
// settings.json and a separate oauth.json move into auth.json — only while auth.json does not exist yet.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { replaceFileAtomically } from "./atomic-file.js";
import type { AuthCredential, AuthData } from "./auth-storage.js";
import { getAuthPath, getSettingsPath } from "./paths.js";

type Loose = Record<string, unknown>;

function readObject(path: string): Loose | undefined {
	try {
		const value: unknown = JSON.parse(readFileSync(path, "utf8"));
		return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;
	} catch {
		return undefined; // Missing or unreadable: nothing to migrate from it (and never rewritten).
	}
}

export interface CredentialMigrationResult {
	/** Providers whose credentials were moved into auth.json. */
	providers: string[];
}

/**
 * Moves `apiKeys` of `<agentDir>/settings.json` (as `api_key` credentials) and `<agentDir>/oauth.json` (as `oauth`
 * credentials, the file renamed `oauth.json.migrated`) into a new auth.json (0600). Does nothing when auth.json
 * exists. The keys are then removed from settings.json so they are not kept in two places; a settings.json that
 * does not parse is left alone.
 */
export function migrateLegacyCredentials(agentDir: string): CredentialMigrationResult {
	const authPath = getAuthPath(agentDir);
	if (existsSync(authPath)) return { providers: [] };
	const settingsPath = getSettingsPath(agentDir);
	const oauthPath = join(agentDir, "oauth.json");
	const settings = readObject(settingsPath);
	const legacyOAuth = readObject(oauthPath);

	const data: AuthData = {};
	const apiKeys = settings?.apiKeys;
	if (typeof apiKeys === "object" && apiKeys !== null && !Array.isArray(apiKeys)) {
		for (const [provider, key] of Object.entries(apiKeys as Loose)) {
			if (typeof key === "string" && key.length > 0) data[provider] = { type: "api_key", key };
		}
	}
	for (const [provider, credential] of Object.entries(legacyOAuth ?? {})) {
		if (typeof credential !== "object" || credential === null) continue;
		data[provider] = { ...(credential as Loose), type: "oauth" } as AuthCredential;
	}
	const providers = Object.keys(data);
	if (providers.length === 0) return { providers };

	mkdirSync(dirname(authPath), { recursive: true, mode: 0o700 });
	replaceFileAtomically(authPath, JSON.stringify(data, null, 2), 0o600);
	if (legacyOAuth) renameSync(oauthPath, `${oauthPath}.migrated`);
	if (settings && "apiKeys" in settings) {
		const { apiKeys: _moved, ...rest } = settings;
		replaceFileAtomically(settingsPath, JSON.stringify(rest, null, 2), statSync(settingsPath).mode & 0o777);
	}
	return { providers };
}
