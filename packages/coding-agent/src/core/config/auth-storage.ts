// Credentials per provider in `<agentDir>/auth.json` and API key resolution (docs/providers.md).
import {
	getOAuthProvider as getBuiltInOAuthProvider,
	getOAuthProviders as getBuiltInOAuthProviders,
	getEnvApiKey,
	type OAuthCredentials,
	type OAuthLoginCallbacks,
	type OAuthProviderInterface,
} from "@agent/ai";
import { type AuthStorageBackend, FileAuthStorageBackend } from "./auth-storage-backend.js";
import { resolveConfigValue } from "./config-value.js";
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

/** The models a sign-in's `modifyModels` adjusts. */
type AdjustableModels = Parameters<NonNullable<OAuthKeyProvider["modifyModels"]>>[0];

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

	/** The auth.json path when the credentials live in a file. */
	readonly authPath: string | undefined;

	private constructor(
		/** undefined: in memory only, never written. */
		private readonly backend: AuthStorageBackend | undefined,
		private readonly env: NodeJS.ProcessEnv,
	) {
		this.authPath = backend instanceof FileAuthStorageBackend ? backend.authPath : undefined;
	}

	/** Reads auth.json, creating it (`{}`, 0600, directory 0700) when missing. */
	static create(authPath: string = getAuthPath(), env: NodeJS.ProcessEnv = process.env): AuthStorage {
		return AuthStorage.fromStorage(new FileAuthStorageBackend(authPath), env);
	}

	/** Credentials kept by `backend` (a `FileAuthStorageBackend` is what `create` uses). */
	static fromStorage(backend: AuthStorageBackend, env: NodeJS.ProcessEnv = process.env): AuthStorage {
		if (backend instanceof FileAuthStorageBackend) backend.ensureFile();
		const storage = new AuthStorage(backend, env);
		storage.reload();
		return storage;
	}

	/** Credentials that are never written anywhere (tests, embedders). */
	static inMemory(data: AuthData = {}, env: NodeJS.ProcessEnv = process.env): AuthStorage {
		const storage = new AuthStorage(undefined, env);
		storage.data = structuredClone(data);
		return storage;
	}

	/** The stored text: auth.json read without the lock (it is replaced atomically), other backends under theirs. */
	private readStored(): string | undefined {
		const backend = this.backend;
		if (backend instanceof FileAuthStorageBackend) return backend.read();
		return backend?.withLock((current) => ({ result: current }));
	}

	private describeStore(): string {
		return this.authPath ?? "the credential store";
	}

	/** Re-reads auth.json. A file that does not parse counts as empty, and writes are refused until it is fixed. */
	reload(): void {
		if (!this.backend) return;
		this.loadError = undefined;
		try {
			const text = this.readStored();
			this.data = text === undefined ? {} : parseAuthData(text);
		} catch (error) {
			this.data = {};
			this.loadError = `Failed to read ${this.describeStore()}: ${error instanceof Error ? error.message : String(error)}`;
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

	/** Whether `modifyModels` has anything to run: a stored sign-in whose provider adjusts its models. */
	modifiesModels(): boolean {
		return this.modelAdjustments().length > 0;
	}

	/** The provider's models as its stored sign-in makes them (e.g. Copilot's per-account endpoint). */
	modifyModels<TModel extends AdjustableModels[number]>(models: TModel[]): TModel[] {
		let result = models;
		for (const adjust of this.modelAdjustments()) {
			try {
				result = adjust(result) as TModel[];
			} catch {
				// A provider's adjustment failing leaves its models as they are.
			}
		}
		return result;
	}

	/** Each stored sign-in's model adjustment, for the providers that have one. */
	private modelAdjustments(): Array<(models: AdjustableModels) => unknown[]> {
		return this.listOAuth().flatMap((providerId) => {
			const provider = this.getOAuthProvider(providerId);
			const credential = this.get(providerId);
			if (!provider?.modifyModels || credential?.type !== "oauth") return [];
			const modify = provider.modifyModels.bind(provider);
			return [(models: AdjustableModels) => modify(models, toCredentials(credential))];
		});
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
		if (!this.backend) return (await this.refreshStored(provider, oauth)).credential;
		return this.backend.withLockAsync(async (stored) => {
			this.takeProviderFrom(stored, provider);
			const { credential, refreshed } = await this.refreshStored(provider, oauth);
			if (!refreshed || !credential) return { result: credential };
			return {
				result: credential,
				next: this.applyChange(stored, (onDisk) => {
					onDisk[provider] = credential;
				}),
			};
		});
	}

	private async refreshStored(
		provider: string,
		oauth: OAuthKeyProvider,
	): Promise<{ credential?: OAuthCredential; refreshed: boolean }> {
		const current = this.get(provider);
		if (current?.type !== "oauth") return { refreshed: false };
		if (Date.now() < current.expires) return { credential: current, refreshed: false };
		try {
			const next = toCredential(await oauth.refreshToken(toCredentials(current)));
			this.refreshErrors.delete(provider);
			this.data[provider] = next;
			return { credential: next, refreshed: true };
		} catch (error) {
			// Without the lock (it could not be had), another agent may have refreshed meanwhile.
			if (this.backend instanceof FileAuthStorageBackend) this.reloadProvider(provider);
			const reread = this.get(provider);
			if (reread?.type === "oauth" && Date.now() < reread.expires) return { credential: reread, refreshed: false };
			// The refresh token stays stored: a failure may be the network's, and the next call tries again.
			this.refreshErrors.set(provider, error instanceof Error ? error.message : String(error));
			return { refreshed: false };
		}
	}

	private reloadProvider(provider: string): void {
		if (!this.backend) return;
		try {
			this.takeProviderFrom(this.readStored(), provider);
		} catch {
			// Keep what we have.
		}
	}

	/** Replaces one provider's entry in memory with what `stored` holds; unparseable text changes nothing. */
	private takeProviderFrom(stored: string | undefined, provider: string): void {
		let onDisk: AuthData;
		try {
			onDisk = stored === undefined ? {} : parseAuthData(stored);
		} catch {
			return;
		}
		if (onDisk[provider] === undefined) delete this.data[provider];
		else this.data[provider] = onDisk[provider];
	}

	private persist(change: (onDisk: AuthData) => void): void {
		if (!this.backend) return;
		if (this.loadError) {
			throw new Error(
				`${this.loadError}. The credential is active for this session but was not saved; fix or delete the file to save credentials.`,
			);
		}
		this.backend.withLock((stored) => ({ result: undefined, next: this.applyChange(stored, change) }));
	}

	/** `change` applied to what is stored now (other agents' entries kept), as the text to store. */
	private applyChange(stored: string | undefined, change: (onDisk: AuthData) => void): string {
		let onDisk: AuthData;
		try {
			onDisk = stored === undefined ? {} : parseAuthData(stored);
		} catch (error) {
			throw new Error(
				`${this.describeStore()} is not valid JSON (${error instanceof Error ? error.message : String(error)}); it was not overwritten.`,
			);
		}
		change(onDisk);
		return JSON.stringify(onDisk, null, 2);
	}
}

export function unknownLoginProviderText(providerId: string, providers: readonly OAuthKeyProvider[]): string {
	if (providerId === "anthropic") return CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT;
	return `Unknown login provider "${providerId}". Available: ${providers.map((provider) => provider.id).join(", ")}`;
}
