import { clearApiProviders, getApiProvider, registerApiProvider } from "../api-registry.js";
import { getEnvApiKey } from "../env-api-keys.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import type {
	Api,
	AssistantMessageEvent,
	BedrockOptions,
	Context,
	Model,
	SimpleStreamOptions,
	StreamFunction,
	StreamOptions,
} from "../types.js";
import { createAssistantOutput, describeError, failStream } from "./assistant-output.js";

interface ProviderModule {
	stream: StreamFunction<Api, StreamOptions>;
	streamSimple: StreamFunction<Api, SimpleStreamOptions>;
}

function loaded<TStream, TSimple>(stream: TStream, streamSimple: TSimple): ProviderModule {
	return { stream, streamSimple } as unknown as ProviderModule;
}

/**
 * Bedrock's two stream functions as a program may hand them over (`setBedrockProviderModule`), e.g. a bundle that
 * cannot import the adapter's chunk at run time. Any async iterable of events will do.
 */
export interface BedrockProviderModule {
	streamBedrock: (
		model: Model<"bedrock-converse-stream">,
		context: Context,
		options?: BedrockOptions,
	) => AsyncIterable<AssistantMessageEvent>;
	streamSimpleBedrock: (
		model: Model<"bedrock-converse-stream">,
		context: Context,
		options?: SimpleStreamOptions,
	) => AsyncIterable<AssistantMessageEvent>;
}

let bedrockModule: BedrockProviderModule | undefined;

/** One stream of ours fed by any async iterable of events; a throw or an early end becomes an error event. */
function fromIterable<TOptions extends StreamOptions>(
	start: (model: Model, context: Context, options?: TOptions) => AsyncIterable<AssistantMessageEvent>,
): StreamFunction<Api, TOptions> {
	return (model, context, options) => {
		const target = new AssistantMessageEventStream();
		Promise.resolve()
			.then(() => pipe(start(model, context, options), target, model))
			.catch((error: unknown) => {
				const output = createAssistantOutput(model);
				output.content = [];
				failStream(target, output, new Error(describeError(error)), options?.signal);
			});
		return target;
	};
}

async function loadBedrock(): Promise<ProviderModule> {
	if (bedrockModule) {
		const given = bedrockModule as unknown as {
			streamBedrock: (m: Model, c: Context, o?: StreamOptions) => AsyncIterable<AssistantMessageEvent>;
			streamSimpleBedrock: (m: Model, c: Context, o?: SimpleStreamOptions) => AsyncIterable<AssistantMessageEvent>;
		};
		return { stream: fromIterable(given.streamBedrock), streamSimple: fromIterable(given.streamSimpleBedrock) };
	}
	const m = await import("./amazon-bedrock/index.js");
	return loaded(m.streamBedrock, m.streamSimpleBedrock);
}

/**
 * Provider SDKs are imported on first use of their API, so start-up pays only for what it uses.
 * Each loader is memoised by the module system.
 */
const BUILT_IN_LOADERS: Record<string, () => Promise<ProviderModule>> = {
	"anthropic-messages": async () => {
		const m = await import("./anthropic/index.js");
		return loaded(m.streamAnthropic, m.streamSimpleAnthropic);
	},
	"openai-completions": async () => {
		const m = await import("./openai-completions/index.js");
		return loaded(m.streamOpenAICompletions, m.streamSimpleOpenAICompletions);
	},
	"openai-responses": async () => {
		const m = await import("./openai-responses/index.js");
		return loaded(m.streamOpenAIResponses, m.streamSimpleOpenAIResponses);
	},
	"google-generative-ai": async () => {
		const m = await import("./google/index.js");
		return loaded(m.streamGoogle, m.streamSimpleGoogle);
	},
	"google-vertex": async () => {
		const m = await import("./google-vertex/index.js");
		return loaded(m.streamGoogleVertex, m.streamSimpleGoogleVertex);
	},
	"azure-openai-responses": async () => {
		const m = await import("./azure-openai-responses/index.js");
		return loaded(m.streamAzureOpenAIResponses, m.streamSimpleAzureOpenAIResponses);
	},
	"bedrock-converse-stream": loadBedrock,
	"openai-codex-responses": async () => {
		const m = await import("./openai-codex-responses/index.js");
		return loaded(m.streamOpenAICodexResponses, m.streamSimpleOpenAICodexResponses);
	},
	"google-gemini-cli": async () => {
		const m = await import("./google-gemini-cli/index.js");
		return loaded(m.streamGoogleGeminiCli, m.streamSimpleGoogleGeminiCli);
	},
	"mistral-conversations": async () => {
		const m = await import("./mistral/index.js");
		return loaded(m.streamMistral, m.streamSimpleMistral);
	},
};

async function pipe(
	source: AsyncIterable<AssistantMessageEvent>,
	target: AssistantMessageEventStream,
	model: Model,
): Promise<void> {
	let sawTerminal = false;
	for await (const event of source) {
		if (event.type === "done" || event.type === "error") sawTerminal = true;
		target.push(event);
	}
	if (!sawTerminal)
		failStream(target, createAssistantOutput(model), new Error("Provider stream ended without a result"));
}

function lazyStream<TOptions extends StreamOptions>(
	load: () => Promise<ProviderModule>,
	pick: (module: ProviderModule) => StreamFunction<Api, TOptions>,
): StreamFunction<Api, TOptions> {
	let loadedModule: ProviderModule | undefined;
	return (model, context, options) => {
		// Once the module is loaded, calls go straight to the provider: piping every event through a second
		// stream added ~35% to streaming a 1 MB answer (packages/ai/bench/anthropic.bench.ts).
		if (loadedModule) return pick(loadedModule)(model, context, options);
		const target = new AssistantMessageEventStream();
		load()
			.then((module) => {
				loadedModule = module;
				return pipe(pick(module)(model, context, options), target, model);
			})
			.catch((error: unknown) => {
				// A failed SDK import (or a provider bug) still ends the stream with an error event.
				const output = createAssistantOutput(model);
				output.content = [];
				failStream(target, output, new Error(describeError(error)), options?.signal);
			});
		return target;
	};
}

function createLazyProvider(api: Api, load: () => Promise<ProviderModule>) {
	const streamSimple = lazyStream<SimpleStreamOptions>(load, (m) => m.streamSimple);
	return {
		api,
		stream: lazyStream<StreamOptions>(load, (m) => m.stream),
		streamSimple: (model: Model, context: Parameters<typeof streamSimple>[1], options?: SimpleStreamOptions) => {
			// The one synchronous throw of the call surface: no key, no stream (every other failure is a stream event).
			const apiKey = options?.apiKey || getEnvApiKey(model.provider);
			if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
			return streamSimple(model, context, { ...options, apiKey });
		},
	};
}

/**
 * The built-in providers as the registry holds them, with their loaders, by API; a later registration (a custom
 * provider for the API) replaces one in the registry.
 */
const builtIns = new Map<
	string,
	{ registered: ReturnType<typeof getApiProvider>; load: () => Promise<ProviderModule> }
>();

/**
 * Loads a built-in API's adapter with its SDK, and Node's fetch classes the SDKs build requests with (undici, ~40 ms
 * on Node 22), before a first request needs them: a program that knows which model it will call next (a session
 * waiting for its first prompt) spends that time while nothing else runs. A request made meanwhile waits for the
 * same load. Resolves when done; at once when the API's registered provider is not the built-in one (a custom
 * provider, or none); also when the load fails (the request then reports why).
 */
export async function preloadApiProvider(api: Api): Promise<void> {
	const builtIn = builtIns.get(api);
	if (!builtIn || getApiProvider(api) !== builtIn.registered) return;
	try {
		await builtIn.load();
		new Headers();
	} catch {
		// The first request loads it again and reports the failure.
	}
}

function registerBuiltIn(api: Api, load: () => Promise<ProviderModule>): void {
	registerApiProvider(createLazyProvider(api, load));
	builtIns.set(api, { registered: getApiProvider(api), load });
}

export function registerBuiltInApiProviders(): void {
	for (const [api, load] of Object.entries(BUILT_IN_LOADERS)) registerBuiltIn(api, load);
}

/** Clears every registration (custom providers included) and registers the built-ins again. */
export function resetApiProviders(): void {
	clearApiProviders();
	registerBuiltInApiProviders();
}

/**
 * Makes the built-in `bedrock-converse-stream` provider stream through `module` instead of importing its adapter
 * (and the AWS SDK) on first use. Registers the built-in Bedrock provider again, replacing a custom registration of
 * that API as `registerBuiltInApiProviders` does; later resets keep using `module`.
 */
export function setBedrockProviderModule(module: BedrockProviderModule): void {
	bedrockModule = module;
	registerBuiltIn("bedrock-converse-stream", loadBedrock);
}
