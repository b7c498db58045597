import { getApiProvider } from "./api-registry.js";
import type {
	Api,
	ApiProvider,
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	Model,
	OptionsForApi,
	SimpleStreamOptions,
	StreamOptions,
} from "./types.js";

function providerFor(api: Api): ApiProvider<Api, StreamOptions> {
	const provider = getApiProvider(api);
	if (!provider) throw new Error(`No API provider registered for api: ${api}`);
	return provider;
}

/** Streams one assistant reply with the API's own options. Provider failures end the stream with an `error` event. */
export function stream<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: OptionsForApi<TApi>,
): AssistantMessageEventStream {
	return providerFor(model.api).stream(model as Model, context, options as StreamOptions | undefined);
}

export function complete<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: OptionsForApi<TApi>,
): Promise<AssistantMessage> {
	return stream(model, context, options).result();
}

/**
 * Streams one assistant reply with provider-neutral options (`reasoning` level, budgets).
 * Throws synchronously `No API key for provider: <provider>` when a built-in API has no key.
 */
export function streamSimple<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return providerFor(model.api).streamSimple(model as Model, context, options);
}

export function completeSimple<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: SimpleStreamOptions,
): Promise<AssistantMessage> {
	return streamSimple(model, context, options).result();
}
