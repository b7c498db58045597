import { MODELS } from "./models.generated.js";
import type { Model, Provider, Usage, UsageCost } from "./types.js";

const catalog = new Map<string, Map<string, Model>>(
	Object.entries(MODELS).map(([provider, models]) => [provider, new Map(Object.entries(models))]),
);

/** A model of the built-in catalog, or undefined when unknown. */
export function getModel(provider: Provider, id: string): Model | undefined {
	return catalog.get(provider)?.get(id);
}

export function getProviders(): Provider[] {
	return [...catalog.keys()];
}

export function getModels(provider: Provider): Model[] {
	return [...(catalog.get(provider)?.values() ?? [])];
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
