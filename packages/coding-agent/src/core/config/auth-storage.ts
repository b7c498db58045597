// Credentials per provider in `<agentDir>/auth.json` and API key resolution (docs/providers.md).
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import {
	getOAuthProvider as getBuiltInOAuthProvider,
	getOAuthProviders as getBuiltInOAuthProviders,
	getEnvApiKey,
	type OAuthCredentials,
	type OAuthLoginCallbacks,
	type OAuthProviderInterface,
} from "@agent/ai";
import { replaceFileAtomically } from "./atomic-file.js";
import { resolveConfigValue } from "./config-value.js";
import { acquireFileLock, type FileLock, tryAcquireFileLock } from "./file-lock.js";
import { getAuthPath } from "./paths.js";

export interface ApiKeyCredential {
	type: "api_key";
	/** Literal, environment variable name, or `!command` (docs/providers.md). */
	key: string;
}

export interface OAuthCredential {
	type: "oauth";
	refresh: string;
	access: string;
	/** Epoch ms. */
	expires: number;
	/** Provider-specific fields (projectId, enterpriseUrl, …), kept as they are. */
	[field: string]: unknown;
}

export type AuthCredential = ApiKeyCredential | OAuthCredential;

export type AuthData = Record<string, AuthCredential>;

/**
 * A sign-in provider: the built-in ones come from @agent/ai (ChatGPT/Codex, GitHub Copilot, Gemini CLI,
 * Antigravity); extensions add theirs with `registerProvider({oauth})`.
 */
export type OAuthKeyProvider = OAuthProviderInterface;

/** Claude Pro/Max sign-in is left out on purpose: Anthropic does not allow third-party clients to use it. */
export const CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT =
	"Claude Pro/Max subscriptions cannot be used: Anthropic does not allow third-party clients to use them. Use an Anthropic API key (ANTHROPIC_API_KEY) instead.";

function toCredentials(credential: OAuthCredential): OAuthCredentials {
	const { type: _type, ...rest } = credential;
	return rest as OAuthCredentials;
}

function toCredential(credentials: OAuthCredentials): OAuthCredential {
	return { ...credentials, type: "oauth" };
}

function readTextIfPresent(path: string): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

function isCredential(value: unknown): value is AuthCredential {
	if (typeof value !== "object" || value === null) return false;
	const type = (value as { type?: unknown }).type;
	return type === "api_key" || type === "oauth";
}

/** Parses auth.json; throws with a readable message when it is not a JSON object. */
function parseAuthData(text: string): AuthData {
	const value: unknown = JSON.parse(text);
	if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("expected a JSON object");
	return value as AuthData;
}

const REFRESH_LOCK_ATTEMPTS = 12;

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Per-provider credentials backed by auth.json (0600, in a 0700 directory). Every write re-reads the file under
 * `auth.json.lock`, changes only the affected provider, and replaces the file atomically, so concurrent agents
 * never lose each other's logins. An auth.json that is not valid JSON is never overwritten.
 */
export class AuthStorage {
	private data: AuthData = {};
	private loadError: string | undefined;
	private readonly runtimeKeys = new Map<string, string>();
	private readonly oauthProviders = new Map<string, OAuthKeyProvider>();
	private readonly refreshErrors = new Map<string, string>();
	private fallbackResolver: ((provider: string) => string | undefined) | undefined;

	private constructor(
		/** undefined: in memory only. */
		readonly authPath: string | undefined,
		private readonly env: NodeJS.ProcessEnv,
	) {}

	/** Reads auth.json, creating it (`{}`, 0600, directory 0700) when missing. */
	static create(authPath: string = getAuthPath(), env: NodeJS.ProcessEnv = process.env): AuthStorage {
		const storage = new AuthStorage(authPath, env);
		storage.ensureFile();
		storage.reload();
		return storage;
	}

	/** Credentials that are never written anywhere (tests, embedders). */
	static inMemory(data: AuthData = {}, env: NodeJS.ProcessEnv = process.env): AuthStorage {
		const storage = new AuthStorage(undefined, env);
		storage.data = structuredClone(data);
		return storage;
	}

	private ensureFile(): void {
		if (!this.authPath) return;
		try {
			mkdirSync(dirname(this.authPath), { recursive: true, mode: DIR_MODE });
			const fd = openSync(this.authPath, "wx", FILE_MODE);
			try {
				writeSync(fd, "{}");
			} finally {
				closeSync(fd);
			}
		} catch {
			// Exists already, or cannot be created: reload() reports what matters.
		}
	}

	/** Re-reads auth.json. A file that does not parse counts as empty, and writes are refused until it is fixed. */
	reload(): void {
		if (!this.authPath) return;
		this.loadError = undefined;
		try {
			const text = readTextIfPresent(this.authPath);
			this.data = text === undefined ? {} : parseAuthData(text);
		} catch (error) {
			this.data = {};
			this.loadError = `Failed to read ${this.authPath}: ${error instanceof Error ? error.message : String(error)}`;
		}
	}

	/** Why auth.json could not be read, if it could not. */
	getLoadError(): string | undefined {
		return this.loadError;
	}

	get(provider: string): AuthCredential | undefined {
		const credential = this.data[provider];
		return isCredential(credential) ? credential : undefined;
	}

	has(provider: string): boolean {
		return this.get(provider) !== undefined;
	}

	/** Providers with stored credentials. */
	list(): string[] {
		return Object.keys(this.data).filter((provider) => this.has(provider));
	}

	getAll(): AuthData {
		return structuredClone(this.data);
	}

	/**
	 * Stores a credential (e.g. after `/login`). It takes effect in this process at once; when it cannot be
	 * saved (auth.json unreadable or unwritable) this throws after applying it, saying so.
	 */
	set(provider: string, credential: AuthCredential): void {
		this.data[provider] = credential;
		this.persist((onDisk) => {
			onDisk[provider] = credential;
		});
	}

	/** Removes a provider's credential (e.g. `/logout`). Same failure behaviour as `set`. */
	remove(provider: string): void {
		delete this.data[provider];
		this.persist((onDisk) => {
			delete onDisk[provider];
		});
	}

	/**
	 * An entry of auth.json that is not a provider credential (e.g. an MCP server's OAuth client and tokens,
	 * keyed `mcp-oauth:<url>`): read from the file as it is now, so another agent's refresh is seen.
	 */
	getEntry(key: string): unknown {
		this.reloadProvider(key);
		const value: unknown = this.data[key];
		return value === undefined ? undefined : structuredClone(value);
	}

	/** Stores (or, with `undefined`, removes) such an entry; written like `set`, under the lock, 0600. */
	setEntry(key: string, value: Record<string, unknown> | undefined): void {
		if (value === undefined) {
			this.remove(key);
			return;
		}
		const entry = value as unknown as AuthCredential;
		this.data[key] = entry;
		this.persist((onDisk) => {
			onDisk[key] = entry;
		});
	}

	/** `--api-key`: highest priority, for this process only, never persisted. */
	setRuntimeApiKey(provider: string, key: string): void {
		this.runtimeKeys.set(provider, key);
	}

	removeRuntimeApiKey(provider: string): void {
		this.runtimeKeys.delete(provider);
	}

	/** The lowest-priority key source: models.json / extension provider `apiKey` (a config value). */
	setFallbackResolver(resolver: ((provider: string) => string | undefined) | undefined): void {
		this.fallbackResolver = resolver;
	}

	registerOAuthProvider(provider: OAuthKeyProvider): void {
		this.oauthProviders.set(provider.id, provider);
	}

	unregisterOAuthProvider(id: string): void {
		this.oauthProviders.delete(id);
	}

	/** A sign-in provider: one an extension registered, else a built-in one. */
	getOAuthProvider(id: string): OAuthKeyProvider | undefined {
		return this.oauthProviders.get(id) ?? getBuiltInOAuthProvider(id);
	}

	/** Every sign-in provider `/login` offers: the built-in ones, then those extensions registered. */
	getOAuthProviders(): OAuthKeyProvider[] {
		const builtIn = getBuiltInOAuthProviders().map((provider) => this.oauthProviders.get(provider.id) ?? provider);
		const added = [...this.oauthProviders.values()].filter((provider) => !getBuiltInOAuthProvider(provider.id));
		return [...builtIn, ...added];
	}

	/** Providers signed in to (an `oauth` entry in auth.json), for `/logout`. */
	listOAuth(): string[] {
		return this.list().filter((provider) => this.get(provider)?.type === "oauth");
	}

	/**
	 * Runs the provider's sign-in and stores the credentials (auth.json, 0600). Throws for an unknown provider,
	 * a failed or cancelled login, and credentials that cannot be saved (they still apply to this process).
	 */
	async login(providerId: string, callbacks: OAuthLoginCallbacks): Promise<void> {
		const provider = this.getOAuthProvider(providerId);
		if (!provider) throw new Error(unknownLoginProviderText(providerId, this.getOAuthProviders()));
		const credentials = await provider.login(callbacks);
		this.refreshErrors.delete(providerId);
		this.set(providerId, toCredential(credentials));
	}

	/** Removes a provider's stored credentials. */
	logout(providerId: string): void {
		this.refreshErrors.delete(providerId);
		this.remove(providerId);
	}

	/** Why the last token refresh for the provider failed, while it has not succeeded since. */
	getRefreshError(provider: string): string | undefined {
		return this.refreshErrors.get(provider);
	}

	/** The provider's models as its stored sign-in makes them (e.g. Copilot's per-account endpoint). */
	modifyModels<TModel extends Parameters<NonNullable<OAuthKeyProvider["modifyModels"]>>[0][number]>(
		models: TModel[],
	): TModel[] {
		let result = models;
		for (const providerId of this.listOAuth()) {
			const provider = this.getOAuthProvider(providerId);
			const credential = this.get(providerId);
			if (!provider?.modifyModels || credential?.type !== "oauth") continue;
			try {
				result = provider.modifyModels(result, toCredentials(credential)) as TModel[];
			} catch {
				// A provider's adjustment failing leaves its models as they are.
			}
		}
		return result;
	}

	/**
	 * Whether any credential is configured for the provider ("available"): a runtime key, any
	 * auth.json entry (even an expired OAuth one), an environment key, or a fallback key that resolves. Never
	 * refreshes anything.
	 */
	hasAuth(provider: string): boolean {
		if (this.runtimeKeys.has(provider) || this.has(provider)) return true;
		if (getEnvApiKey(provider, this.env) !== undefined) return true;
		const fallback = this.fallbackResolver?.(provider);
		return fallback !== undefined && resolveConfigValue(fallback, this.env) !== undefined;
	}

	/**
	 * The API key for a provider (docs/providers.md "Which key is used"), first source that applies: runtime key; auth.json `api_key`
	 * (resolved; nothing means no key, without falling through to the environment); auth.json `oauth` (refreshed
	 * under the lock when expired); environment; models.json `apiKey`.
	 */
	async getApiKey(provider: string): Promise<string | undefined> {
		const runtime = this.runtimeKeys.get(provider);
		if (runtime !== undefined) return runtime;
		const credential = this.get(provider);
		if (credential?.type === "api_key") return resolveConfigValue(credential.key, this.env);
		if (credential?.type === "oauth") return this.oauthApiKey(provider, credential);
		const fromEnv = getEnvApiKey(provider, this.env);
		if (fromEnv !== undefined) return fromEnv;
		const fallback = this.fallbackResolver?.(provider);
		return fallback === undefined ? undefined : resolveConfigValue(fallback, this.env);
	}

	private async oauthApiKey(provider: string, credential: OAuthCredential): Promise<string | undefined> {
		const oauth = this.getOAuthProvider(provider);
		if (!oauth) return undefined;
		if (Date.now() < credential.expires) return oauth.getApiKey(toCredentials(credential));
		const refreshed = await this.refreshOAuth(provider, oauth);
		return refreshed ? oauth.getApiKey(toCredentials(refreshed)) : undefined;
	}

	/** Refreshes once across processes: under the lock, re-read first, since another agent may have refreshed. */
	private async refreshOAuth(provider: string, oauth: OAuthKeyProvider): Promise<OAuthCredential | undefined> {
		const lock = await this.acquireLockAsync();
		try {
			this.reloadProvider(provider);
			const current = this.get(provider);
			if (current?.type !== "oauth") return undefined;
			if (Date.now() < current.expires) return current;
			try {
				const next = toCredential(await oauth.refreshToken(toCredentials(current)));
				this.refreshErrors.delete(provider);
				this.data[provider] = next;
				this.writeUnderLock((onDisk) => {
					onDisk[provider] = next;
				});
				return next;
			} catch (error) {
				this.reloadProvider(provider);
				const reread = this.get(provider);
				if (reread?.type === "oauth" && Date.now() < reread.expires) return reread;
				// The refresh token stays stored: a failure may be the network's, and the next call tries again.
				this.refreshErrors.set(provider, error instanceof Error ? error.message : String(error));
				return undefined;
			}
		} finally {
			lock?.release();
		}
	}

	private reloadProvider(provider: string): void {
		if (!this.authPath) return;
		try {
			const text = readTextIfPresent(this.authPath);
			const onDisk = text === undefined ? {} : parseAuthData(text);
			if (onDisk[provider] === undefined) delete this.data[provider];
			else this.data[provider] = onDisk[provider];
		} catch {
			// Keep what we have.
		}
	}

	private lockPath(): string | undefined {
		return this.authPath ? `${this.authPath}.lock` : undefined;
	}

	private async acquireLockAsync(): Promise<FileLock | undefined> {
		const lockPath = this.lockPath();
		if (!lockPath) return undefined;
		for (let attempt = 0; attempt < REFRESH_LOCK_ATTEMPTS; attempt++) {
			try {
				const result = tryAcquireFileLock(lockPath);
				if (result.lock) return result.lock;
			} catch {
				return undefined; // Unwritable directory: refresh without the lock.
			}
			await delay(Math.min(100 * 2 ** attempt, 2000));
		}
		return undefined;
	}

	private persist(change: (onDisk: AuthData) => void): void {
		if (!this.authPath) return;
		if (this.loadError) {
			throw new Error(
				`${this.loadError}. The credential is active for this session but was not saved; fix or delete the file to save credentials.`,
			);
		}
		const lock = acquireFileLock(this.lockPath() as string, {
			describe: (holder) =>
				`Could not save credentials: ${this.authPath} is being written by another process${holder ? ` (pid ${holder.pid})` : ""}.`,
		});
		try {
			this.writeUnderLock(change);
		} finally {
			lock.release();
		}
	}

	/** Re-reads the file, applies `change` to what is on disk now, and replaces the file atomically. */
	private writeUnderLock(change: (onDisk: AuthData) => void): void {
		const authPath = this.authPath;
		if (!authPath) return;
		const text = readTextIfPresent(authPath);
		let onDisk: AuthData;
		try {
			onDisk = text === undefined ? {} : parseAuthData(text);
		} catch (error) {
			throw new Error(
				`${authPath} is not valid JSON (${error instanceof Error ? error.message : String(error)}); it was not overwritten.`,
			);
		}
		change(onDisk);
		mkdirSync(dirname(authPath), { recursive: true, mode: DIR_MODE });
		replaceFileAtomically(authPath, JSON.stringify(onDisk, null, 2), FILE_MODE);
	}
}

export function unknownLoginProviderText(providerId: string, providers: readonly OAuthKeyProvider[]): string {
	if (providerId === "anthropic") return CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT;
	return `Unknown login provider "${providerId}". Available: ${providers.map((provider) => provider.id).join(", ")}`;
}
