import type { Api, ApiProvider, Model, SimpleStreamOptions, StreamFunction, StreamOptions } from "./types.js";

/** A registered provider's `stream`, as the registry hands it out: any model of its API, the common options. */
export type ApiStreamFunction = StreamFunction<Api, StreamOptions>;
/** A registered provider's `streamSimple`, as the registry hands it out. */
export type ApiStreamSimpleFunction = StreamFunction<Api, SimpleStreamOptions>;

interface RegistryEntry {
	provider: ApiProvider<Api, StreamOptions>;
	sourceId?: string;
}

const registry = new Map<string, RegistryEntry>();

function guardApi<TOptions extends StreamOptions>(
	api: Api,
	fn: StreamFunction<Api, TOptions>,
): StreamFunction<Api, TOptions> {
	return (model: Model, context, options) => {
		if (model.api !== api) throw new Error(`Mismatched api: ${model.api} expected ${api}`);
		return fn(model, context, options);
	};
}

/** Registers (or replaces) the implementation of one API. `sourceId` lets a group be removed later. */
export function registerApiProvider<TApi extends Api, TOptions extends StreamOptions>(
	provider: ApiProvider<TApi, TOptions>,
	sourceId?: string,
): void {
	const untyped = provider as unknown as ApiProvider<Api, StreamOptions>;
	registry.set(provider.api, {
		provider: {
			api: provider.api,
			stream: guardApi(provider.api, untyped.stream),
			streamSimple: guardApi(provider.api, untyped.streamSimple),
		},
		sourceId,
	});
}

export function getApiProvider(api: Api): ApiProvider<Api, StreamOptions> | undefined {
	return registry.get(api)?.provider;
}

export function getApiProviders(): ApiProvider<Api, StreamOptions>[] {
	return [...registry.values()].map((entry) => entry.provider);
}

/** Removes every provider registered with this source id (e.g. `provider:<name>` from models.json). */
export function unregisterApiProviders(sourceId: string): void {
	for (const [api, entry] of registry) {
		if (entry.sourceId === sourceId) registry.delete(api);
	}
}

export function clearApiProviders(): void {
	registry.clear();
}
