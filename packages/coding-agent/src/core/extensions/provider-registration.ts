// `pi.registerProvider` / `pi.unregisterProvider` (docs/custom-provider.md, docs/extensions.md "Providers"):
// validation with the reference's messages, then the ModelRegistry and AuthStorage do the work. Calls made
// while extensions load are queued until a registry is attached (before the CLI resolves the model).
import type { Model, OAuthCredentials } from "@agent/ai";
import type { OAuthCredential } from "../config/auth-storage.js";
import type { ModelRegistry, ProviderRegistration } from "../config/model-registry.js";
import type { ExtensionOAuthConfig, ExtensionProviderConfig } from "./types.js";

export function streamSimpleRequiresApiText(name: string): string {
	return `Provider ${name}: "api" is required when registering streamSimple.`;
}

export function baseUrlRequiredText(name: string): string {
	return `Provider ${name}: "baseUrl" is required when defining models.`;
}

export function apiKeyOrOAuthRequiredText(name: string): string {
	return `Provider ${name}: "apiKey" or "oauth" is required when defining models.`;
}

export function modelApiMissingText(name: string, modelId: string): string {
	return `Provider ${name}, model ${modelId}: no "api" specified.`;
}

/** Throws the first problem, in the reference's order. */
export function validateProviderConfig(name: string, config: ExtensionProviderConfig): void {
	if (config.streamSimple && !config.api) throw new Error(streamSimpleRequiresApiText(name));
	if (!config.models || config.models.length === 0) return;
	if (!config.baseUrl) throw new Error(baseUrlRequiredText(name));
	if (config.apiKey === undefined && !config.oauth) throw new Error(apiKeyOrOAuthRequiredText(name));
	for (const model of config.models) {
		if (!model.api && !config.api) throw new Error(modelApiMissingText(name, model.id));
	}
}

function toRegistration(config: ExtensionProviderConfig): ProviderRegistration {
	const registration: ProviderRegistration = {};
	if (config.baseUrl !== undefined) registration.baseUrl = config.baseUrl;
	if (config.apiKey !== undefined) registration.apiKey = config.apiKey;
	if (config.api !== undefined) registration.api = config.api;
	if (config.headers !== undefined) registration.headers = config.headers;
	if (config.authHeader !== undefined) registration.authHeader = config.authHeader;
	if (config.compat !== undefined) registration.compat = config.compat;
	if (config.streamSimple !== undefined) registration.streamSimple = config.streamSimple;
	if (config.models !== undefined) registration.models = config.models.map((model) => ({ ...model }));
	return registration;
}

type PendingChange =
	| { kind: "register"; name: string; config: ExtensionProviderConfig }
	| { kind: "unregister"; name: string };

/** Provider registrations of all extensions: queued until a registry is attached, then applied at once. */
export class ProviderRegistrations {
	private registry: ModelRegistry | undefined;
	private pending: PendingChange[] = [];
	private readonly registered = new Set<string>();
	private readonly oauth = new Map<string, ExtensionOAuthConfig>();

	get isAttached(): boolean {
		return this.registry !== undefined;
	}

	/** Applies queued changes in call order; later ones go straight to `registry`. */
	attach(registry: ModelRegistry): void {
		this.registry = registry;
		for (const change of this.pending.splice(0)) {
			if (change.kind === "register") this.apply(change.name, change.config);
			else this.remove(change.name);
		}
	}

	register(name: string, config: ExtensionProviderConfig): void {
		validateProviderConfig(name, config);
		if (this.registry) this.apply(name, config);
		else this.pending.push({ kind: "register", name, config });
	}

	unregister(name: string): void {
		if (this.registry) this.remove(name);
		else this.pending.push({ kind: "unregister", name });
	}

	/** OAuth providers extensions registered, for `/login`. */
	getOAuthProviders(): { id: string; config: ExtensionOAuthConfig }[] {
		return [...this.oauth].map(([id, config]) => ({ id, config }));
	}

	/** Undoes every registration (before `/reload` loads the extensions again). */
	clear(): void {
		this.pending = [];
		for (const name of [...this.registered]) this.remove(name);
	}

	private apply(name: string, config: ExtensionProviderConfig): void {
		const registry = this.registry as ModelRegistry;
		registry.registerProvider(name, toRegistration(config));
		this.registered.add(name);
		if (config.oauth) {
			const oauth = config.oauth;
			this.oauth.set(name, oauth);
			registry.authStorage.registerOAuthProvider({
				id: name,
				name: oauth.name,
				login: async (callbacks) => stripType(await oauth.login(callbacks)),
				getApiKey: (credentials) => oauth.getApiKey({ ...credentials, type: "oauth" }),
				refreshToken: async (credentials) => stripType(await oauth.refreshToken({ ...credentials, type: "oauth" })),
				...(oauth.modifyModels
					? {
							modifyModels: (models: Model[], credentials: OAuthCredentials) =>
								oauth.modifyModels?.(models, { ...credentials, type: "oauth" }) ?? models,
						}
					: {}),
			});
		}
	}

	private remove(name: string): void {
		const registry = this.registry as ModelRegistry;
		registry.unregisterProvider(name);
		this.registered.delete(name);
		if (this.oauth.delete(name)) registry.authStorage.unregisterOAuthProvider(name);
	}
}

/** What an extension's login returns, as stored credentials (auth.json adds `type` itself). */
function stripType(credential: OAuthCredential | OAuthCredentials): OAuthCredentials {
	const { type: _type, ...rest } = credential as OAuthCredentials;
	return rest as OAuthCredentials;
}
