import { CATALOG_JSON, type CatalogModel, type CatalogProvider } from "./models.generated.js";
import type { Model, Provider, Usage, UsageCost } from "./types.js";

type ProviderModels = Readonly<Record<string, CatalogModel>>;

/** Every provider's models by id; a provider's are parsed from their JSON the first time they are read. */
export const MODELS = {} as { readonly [P in CatalogProvider]: ProviderModels };
for (const provider of Object.keys(CATALOG_JSON) as CatalogProvider[]) {
	let models: ProviderModels | undefined;
	Object.defineProperty(MODELS, provider, {
		enumerable: true,
		configurable: true,
		get: () => {
			models ??= JSON.parse(CATALOG_JSON[provider]) as ProviderModels;
			return models;
		},
	});
}

// Read straight from MODELS (no index of Maps built at start-up): own properties only, so a name like
// "constructor" or "__proto__" is unknown rather than something of Object.prototype.
function catalogOf(provider: Provider): Readonly<Record<string, Model>> | undefined {
	return Object.hasOwn(MODELS, provider) ? MODELS[provider as keyof typeof MODELS] : undefined;
}

/** A model of the built-in catalog, or undefined when unknown. */
export function getModel(provider: Provider, id: string): Model | undefined {
	const models = catalogOf(provider);
	return models && Object.hasOwn(models, id) ? models[id] : undefined;
}

export function getProviders(): Provider[] {
	return Object.keys(MODELS);
}

export function getModels(provider: Provider): Model[] {
	const models = catalogOf(provider);
	return models ? Object.values(models) : [];
}

/** Fills `usage.cost` from the model's per-million prices and returns it. */
export function calculateCost(model: Pick<Model, "cost">, usage: Usage): UsageCost {
	const perToken = (price: number, tokens: number) => (price / 1_000_000) * tokens;
	const cost = usage.cost;
	cost.input = perToken(model.cost.input, usage.input);
	cost.output = perToken(model.cost.output, usage.output);
	cost.cacheRead = perToken(model.cost.cacheRead, usage.cacheRead);
	cost.cacheWrite = perToken(model.cost.cacheWrite, usage.cacheWrite);
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	return cost;
}

export function modelsAreEqual(a: Model | null | undefined, b: Model | null | undefined): boolean {
	if (!a || !b) return false;
	return a.id === b.id && a.provider === b.provider;
}

const XHIGH_MARKERS = ["gpt-5.2", "gpt-5.3", "gpt-5.4", "opus-4-6", "opus-4.6"];

/** Models that accept the `xhigh` reasoning level; elsewhere it is clamped to `high`. */
export function supportsXhigh(model: Pick<Model, "id">): boolean {
	return XHIGH_MARKERS.some((marker) => model.id.includes(marker));
}
