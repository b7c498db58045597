// All models the agent can use: the built-in catalog, models.json (docs/models.md) and providers registered by
// extensions (docs/custom-provider.md), with availability from configured credentials (docs/providers.md).
import {
	type Api,
	type AssistantMessageEventStream,
	type Context,
	getModels,
	getProviders,
	type Model,
	type ModelCost,
	type OpenAICompletionsCompat,
	registerApiProvider,
	type SimpleStreamOptions,
	unregisterApiProviders,
} from "@agent/ai";
import type { AuthStorage } from "./auth-storage.js";
import { resolveConfigValue, resolveHeaders } from "./config-value.js";
import {
	loadModelsJson,
	type ModelDefinition,
	type ModelOverride,
	type ModelsJsonConfig,
	type ProviderConfig,
} from "./models-json.js";
import { getModelsPath } from "./paths.js";

const CUSTOM_MODEL_DEFAULTS = {
	reasoning: false,
	input: ["text"] as ("text" | "image")[],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } satisfies ModelCost,
	contextWindow: 128_000,
	maxTokens: 16_384,
};

/** A provider registered by an extension (`registerProvider`), same fields as models.json plus a stream. */
export interface ProviderRegistration extends Omit<ProviderConfig, "modelOverrides"> {
	/** Custom streaming implementation for `api`, registered in @agent/ai under source `provider:<name>`. */
	streamSimple?: (model: Model, context: Context, options?: SimpleStreamOptions) => AssistantMessageEventStream;
}

/** One level deeper for the routing objects, as the reference merges them. */
function mergeCompat(
	base: OpenAICompletionsCompat | undefined,
	over: OpenAICompletionsCompat | undefined,
): OpenAICompletionsCompat | undefined {
	if (!over) return base;
	if (!base) return { ...over };
	const merged: OpenAICompletionsCompat = { ...base, ...over };
	if (base.openRouterRouting && over.openRouterRouting) {
		merged.openRouterRouting = { ...base.openRouterRouting, ...over.openRouterRouting };
	}
	if (base.vercelGatewayRouting && over.vercelGatewayRouting) {
		merged.vercelGatewayRouting = { ...base.vercelGatewayRouting, ...over.vercelGatewayRouting };
	}
	return merged;
}

function mergeHeaders(
	base: Record<string, string> | undefined,
	over: Record<string, string> | undefined,
): Record<string, string> | undefined {
	if (!over) return base;
	return { ...base, ...over };
}

function cloneModel(model: Model): Model {
	return {
		...model,
		input: [...model.input],
		cost: { ...model.cost },
		...(model.headers ? { headers: { ...model.headers } } : {}),
		...(model.compat ? { compat: structuredClone(model.compat) } : {}),
	};
}

function applyOverride(model: Model, override: ModelOverride, env: NodeJS.ProcessEnv): Model {
	const next = cloneModel(model);
	if (override.name !== undefined) next.name = override.name;
	if (override.reasoning !== undefined) next.reasoning = override.reasoning;
	if (override.input !== undefined) next.input = [...override.input];
	if (override.cost) next.cost = { ...next.cost, ...override.cost };
	if (override.contextWindow !== undefined) next.contextWindow = override.contextWindow;
	if (override.maxTokens !== undefined) next.maxTokens = override.maxTokens;
	const headers = mergeHeaders(next.headers, resolveHeaders(override.headers, env));
	if (headers) next.headers = headers;
	const compat = mergeCompat(next.compat as OpenAICompletionsCompat | undefined, override.compat);
	if (compat) next.compat = compat;
	return next;
}

function buildCustomModel(
	providerName: string,
	provider: ProviderConfig,
	definition: ModelDefinition,
	env: NodeJS.ProcessEnv,
): Model {
	let headers = mergeHeaders(resolveHeaders(provider.headers, env), resolveHeaders(definition.headers, env));
	if (provider.authHeader && provider.apiKey !== undefined) {
		const key = resolveConfigValue(provider.apiKey, env);
		if (key !== undefined) headers = { ...headers, Authorization: `Bearer ${key}` };
	}
	const model: Model = {
		id: definition.id,
		name: definition.name ?? definition.id,
		api: (definition.api ?? provider.api) as Api,
		provider: providerName,
		baseUrl: definition.baseUrl ?? provider.baseUrl ?? "",
		reasoning: definition.reasoning ?? CUSTOM_MODEL_DEFAULTS.reasoning,
		input: [...(definition.input ?? CUSTOM_MODEL_DEFAULTS.input)],
		cost: { ...(definition.cost ?? CUSTOM_MODEL_DEFAULTS.cost) },
		contextWindow: definition.contextWindow ?? CUSTOM_MODEL_DEFAULTS.contextWindow,
		maxTokens: definition.maxTokens ?? CUSTOM_MODEL_DEFAULTS.maxTokens,
	};
	if (headers && Object.keys(headers).length > 0) model.headers = headers;
	const compat = mergeCompat(provider.compat, definition.compat);
	if (compat) model.compat = compat;
	return model;
}

/** The config strings of a provider that are credentials: `apiKey` and every header value, model-level ones too. */
function credentialStrings(provider: ProviderRegistration | ProviderConfig): string[] {
	const strings: string[] = [];
	if (provider.apiKey !== undefined) strings.push(provider.apiKey);
	strings.push(...Object.values(provider.headers ?? {}));
	for (const model of provider.models ?? []) strings.push(...Object.values(model.headers ?? {}));
	const overrides = "modelOverrides" in provider ? provider.modelOverrides : undefined;
	for (const override of Object.values(overrides ?? {})) strings.push(...Object.values(override.headers ?? {}));
	return strings;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Replaces the model with the same provider and id, or appends it. */
function upsert(models: Model[], model: Model): void {
	const index = models.findIndex((m) => m.provider === model.provider && m.id === model.id);
	if (index >= 0) models[index] = model;
	else models.push(model);
}

/**
 * The model list: built-ins, then models.json (provider-level baseUrl, headers and compat on built-in models;
 * `modelOverrides`; custom models upserted by provider and id), then extension registrations. Provider `apiKey`s
 * become each provider's lowest-priority key in the AuthStorage. A models.json error rejects the whole file and
 * leaves built-ins usable (`getError()`).
 *
 * Built when first needed, and again after `refresh()`: `find` builds only its provider's models (each step above
 * changes a provider's models by that provider's own settings), so a start that names its model reads one provider
 * of the catalog. A sign-in that adjusts models (`modifyModels`) is given the whole list, so then it is all built.
 */
export class ModelRegistry {
	/** The whole list, once something needed it. */
	private models: Model[] | undefined;
	/** Providers' models built by `find` before the whole list; the whole list takes these same objects. */
	private readonly byProvider = new Map<string, Model[]>();
	private config: ModelsJsonConfig | undefined;
	/**
	 * Models still shared with @agent/ai's catalog, which every registry and `getModels` return: one is copied when
	 * a caller first gets it (`getAll`, `getAvailable`, `find`), so a start that looks up one model copies one.
	 */
	private readonly shared = new Set<Model>();
	private error: string | undefined;
	private readonly fallbackKeys = new Map<string, string>();
	private readonly registrations = new Map<string, ProviderRegistration>();
	private readonly credentialValues = new Set<string>();

	constructor(
		readonly authStorage: AuthStorage,
		/** undefined: no models.json. */
		readonly modelsJsonPath: string | undefined = getModelsPath(),
		private readonly env: NodeJS.ProcessEnv = process.env,
	) {
		authStorage.setFallbackResolver((provider) => this.fallbackKeys.get(provider));
		this.refresh();
	}

	/** Re-reads models.json; the list is built again when next needed (interactive `/model`, `/reload`). */
	refresh(): void {
		this.error = undefined;
		this.config = undefined;
		this.models = undefined;
		this.byProvider.clear();
		this.shared.clear();
		this.fallbackKeys.clear();
		this.credentialValues.clear();
		if (this.modelsJsonPath) {
			const loaded = loadModelsJson(this.modelsJsonPath);
			if (loaded.error !== undefined) this.error = loaded.error;
			else this.config = loaded.config;
		}
		// Registrations after models.json: an extension's key wins over the file's.
		const providers = [...Object.entries(this.config?.providers ?? {}), ...this.registrations];
		for (const [name, provider] of providers) {
			for (const value of credentialStrings(provider)) this.credentialValues.add(value);
			if (provider.apiKey !== undefined) this.fallbackKeys.set(name, provider.apiKey);
		}
	}

	/** The models.json problem that made the registry ignore the file, if any. */
	getError(): string | undefined {
		return this.error;
	}

	getAll(): Model[] {
		const models = this.all();
		return models.map((_, index) => this.handOut(models, index));
	}

	/** Models whose provider has any credential configured (no token refresh). */
	getAvailable(): Model[] {
		const withAuth = new Map<string, boolean>();
		const available: Model[] = [];
		const models = this.all();
		for (const [index, model] of models.entries()) {
			let has = withAuth.get(model.provider);
			if (has === undefined) {
				has = this.authStorage.hasAuth(model.provider);
				withAuth.set(model.provider, has);
			}
			if (has) available.push(this.handOut(models, index));
		}
		return available;
	}

	find(provider: string, modelId: string): Model | undefined {
		const models = this.models ?? (this.authStorage.modifiesModels() ? this.all() : this.ofProvider(provider));
		const index = models.findIndex((model) => model.provider === provider && model.id === modelId);
		return index < 0 ? undefined : this.handOut(models, index);
	}

	/** Every provider that has at least one model, in catalog order. */
	getProviders(): string[] {
		return [...new Set(this.all().map((model) => model.provider))];
	}

	hasAuth(provider: string): boolean {
		return this.authStorage.hasAuth(provider);
	}

	getApiKey(model: Pick<Model, "provider">): Promise<string | undefined> {
		return this.authStorage.getApiKey(model.provider);
	}

	getApiKeyForProvider(provider: string): Promise<string | undefined> {
		return this.authStorage.getApiKey(provider);
	}

	/**
	 * An extension's provider (docs/custom-provider.md). With `models`, they replace all models of that provider; with only
	 * `baseUrl`/`headers`, existing models get them. A `streamSimple` is registered for its `api`.
	 */
	registerProvider(name: string, registration: ProviderRegistration): void {
		if (registration.streamSimple) {
			if (!registration.api) throw new Error(`Provider ${name}: "api" is required with "streamSimple".`);
			const streamSimple = registration.streamSimple;
			registerApiProvider({ api: registration.api, stream: streamSimple, streamSimple }, `provider:${name}`);
		}
		this.registrations.set(name, registration);
		this.refresh();
	}

	/** Undoes `registerProvider`: the provider's models are as before it. */
	unregisterProvider(name: string): void {
		if (!this.registrations.delete(name)) return;
		unregisterApiProviders(`provider:${name}`);
		this.refresh();
	}

	/**
	 * Names of environment variables that may hold credentials the agent resolves besides @agent/ai's provider
	 * keys: every credential string of models.json and extension providers (`apiKey`, header values) and of
	 * auth.json `api_key` entries that has the form of a variable name (such a string is resolved
	 * from the environment). Kept from commands the agent runs.
	 */
	getCredentialEnvNames(): string[] {
		const values = [...this.credentialValues];
		for (const provider of this.authStorage.list()) {
			const credential = this.authStorage.get(provider);
			if (credential?.type === "api_key") values.push(credential.key);
		}
		return [...new Set(values)].filter((value) => ENV_NAME.test(value));
	}

	/** The whole list, built on first use; a provider's models that `find` built already are kept as they are. */
	private all(): Model[] {
		if (this.models) return this.models;
		const models = this.build(getProviders().flatMap((provider) => getModels(provider)));
		const taken = new Map<string, number>();
		for (const [index, model] of models.entries()) {
			const built = this.byProvider.get(model.provider);
			if (!built) continue;
			const position = taken.get(model.provider) ?? 0;
			taken.set(model.provider, position + 1);
			models[index] = built[position] as Model;
		}
		this.byProvider.clear();
		this.models = models;
		return models;
	}

	/** One provider's models, as the whole list would have them, in its order. */
	private ofProvider(provider: string): Model[] {
		let models = this.byProvider.get(provider);
		if (!models) {
			models = this.build(getModels(provider)).filter((model) => model.provider === provider);
			this.byProvider.set(provider, models);
		}
		return models;
	}

	/**
	 * The list from these catalog models: models.json's and registrations' changes apply to their own provider's
	 * models, so given one provider's catalog models this gives that provider's models (and others' custom ones).
	 */
	private build(catalog: Model[]): Model[] {
		// Before models.json, so a base URL configured there wins over the one a sign-in implies. A sign-in's
		// adjustment may change the models it is given, so it gets copies of all of them.
		const modified = this.authStorage.modifiesModels();
		const models = modified ? [...this.authStorage.modifyModels(catalog.map(cloneModel))] : [...catalog];
		// models.json and registrations below replace a model they change with a copy; they never change one in place.
		if (!modified) for (const model of catalog) this.shared.add(model);
		if (this.config) this.applyModelsJson(models, this.config);
		for (const [name, registration] of this.registrations) this.applyRegistration(models, name, registration);
		return models;
	}

	/** The model at `index`, which is the registry's own copy from now on if it was still the catalog's. */
	private handOut(models: Model[], index: number): Model {
		const model = models[index] as Model;
		if (!this.shared.delete(model)) return model;
		const copy = cloneModel(model);
		models[index] = copy;
		return copy;
	}

	private applyModelsJson(models: Model[], config: ModelsJsonConfig): void {
		for (const [name, provider] of Object.entries(config.providers)) {
			const providerHeaders = resolveHeaders(provider.headers, this.env);
			for (let i = 0; i < models.length; i++) {
				const model = models[i] as Model;
				if (model.provider !== name) continue;
				let next = model;
				if (provider.baseUrl !== undefined || providerHeaders || provider.compat) {
					next = cloneModel(model);
					if (provider.baseUrl !== undefined) next.baseUrl = provider.baseUrl;
					const headers = mergeHeaders(next.headers, providerHeaders);
					if (headers) next.headers = headers;
					const compat = mergeCompat(next.compat as OpenAICompletionsCompat | undefined, provider.compat);
					if (compat) next.compat = compat;
				}
				const override = provider.modelOverrides?.[model.id];
				if (override) next = applyOverride(next, override, this.env);
				models[i] = next;
			}
			for (const definition of provider.models ?? [])
				upsert(models, buildCustomModel(name, provider, definition, this.env));
		}
	}

	private applyRegistration(models: Model[], name: string, registration: ProviderRegistration): void {
		if (registration.models && registration.models.length > 0) {
			for (let i = models.length - 1; i >= 0; i--) if (models[i]?.provider === name) models.splice(i, 1);
			for (const definition of registration.models)
				models.push(buildCustomModel(name, registration, definition, this.env));
			return;
		}
		const headers = resolveHeaders(registration.headers, this.env);
		for (let i = 0; i < models.length; i++) {
			const model = models[i] as Model;
			if (model.provider !== name) continue;
			const next = cloneModel(model);
			if (registration.baseUrl !== undefined) next.baseUrl = registration.baseUrl;
			const merged = mergeHeaders(next.headers, headers);
			if (merged) next.headers = merged;
			models[i] = next;
		}
	}
}
