// The per-API stream functions the reference exports (`streamAnthropic`, `streamSimpleOpenAIResponses`, …),
// with their signatures. Each is a wrapper that imports its adapter (and so its provider SDK) on first call:
// exporting them from the package entry must not make every program load every SDK at start-up.
import { AssistantMessageEventStream } from "./event-stream.js";
import { createAssistantOutput, describeError, failStream } from "./providers/assistant-output.js";
import type {
	AnthropicOptions,
	Api,
	AssistantMessageEventStream as AssistantStream,
	AzureOpenAIResponsesOptions,
	Context,
	GoogleGeminiCliOptions,
	GoogleOptions,
	GoogleVertexOptions,
	MistralOptions,
	Model,
	OpenAICodexResponsesOptions,
	OpenAICompletionsOptions,
	OpenAIResponsesOptions,
	SimpleStreamOptions,
	StreamOptions,
} from "./types.js";

type Streamer<TApi extends Api, TOptions extends StreamOptions> = (
	model: Model<TApi>,
	context: Context,
	options?: TOptions,
) => AssistantStream;

function lazy<TApi extends Api, TOptions extends StreamOptions>(
	load: () => Promise<Streamer<TApi, TOptions>>,
): Streamer<TApi, TOptions> {
	let loaded: Streamer<TApi, TOptions> | undefined;
	return (model, context, options) => {
		if (loaded) return loaded(model, context, options);
		const target = new AssistantMessageEventStream();
		load()
			.then(async (stream) => {
				loaded = stream;
				for await (const event of stream(model, context, options)) target.push(event);
			})
			.catch((error: unknown) => {
				// A failed SDK import still ends the stream with an error event (adapters never throw).
				const output = createAssistantOutput(model);
				output.content = [];
				failStream(target, output, new Error(describeError(error)), options?.signal);
			});
		return target;
	};
}

export const streamAnthropic: Streamer<"anthropic-messages", AnthropicOptions> = lazy(
	async () => (await import("./providers/anthropic/index.js")).streamAnthropic,
);
export const streamSimpleAnthropic: Streamer<"anthropic-messages", SimpleStreamOptions> = lazy(
	async () => (await import("./providers/anthropic/index.js")).streamSimpleAnthropic,
);
export const streamOpenAICompletions: Streamer<"openai-completions", OpenAICompletionsOptions> = lazy(
	async () => (await import("./providers/openai-completions/index.js")).streamOpenAICompletions,
);
export const streamSimpleOpenAICompletions: Streamer<"openai-completions", SimpleStreamOptions> = lazy(
	async () => (await import("./providers/openai-completions/index.js")).streamSimpleOpenAICompletions,
);
export const streamOpenAIResponses: Streamer<"openai-responses", OpenAIResponsesOptions> = lazy(
	async () => (await import("./providers/openai-responses/index.js")).streamOpenAIResponses,
);
export const streamSimpleOpenAIResponses: Streamer<"openai-responses", SimpleStreamOptions> = lazy(
	async () => (await import("./providers/openai-responses/index.js")).streamSimpleOpenAIResponses,
);
export const streamGoogle: Streamer<"google-generative-ai", GoogleOptions> = lazy(
	async () => (await import("./providers/google/index.js")).streamGoogle,
);
export const streamSimpleGoogle: Streamer<"google-generative-ai", SimpleStreamOptions> = lazy(
	async () => (await import("./providers/google/index.js")).streamSimpleGoogle,
);
export const streamOpenAICodexResponses: Streamer<"openai-codex-responses", OpenAICodexResponsesOptions> = lazy(
	async () => (await import("./providers/openai-codex-responses/index.js")).streamOpenAICodexResponses,
);
export const streamSimpleOpenAICodexResponses: Streamer<"openai-codex-responses", SimpleStreamOptions> = lazy(
	async () => (await import("./providers/openai-codex-responses/index.js")).streamSimpleOpenAICodexResponses,
);
export const streamGoogleGeminiCli: Streamer<"google-gemini-cli", GoogleGeminiCliOptions> = lazy(
	async () => (await import("./providers/google-gemini-cli/index.js")).streamGoogleGeminiCli,
);
export const streamSimpleGoogleGeminiCli: Streamer<"google-gemini-cli", SimpleStreamOptions> = lazy(
	async () => (await import("./providers/google-gemini-cli/index.js")).streamSimpleGoogleGeminiCli,
);
export const streamGoogleVertex: Streamer<"google-vertex", GoogleVertexOptions> = lazy(
	async () => (await import("./providers/google-vertex/index.js")).streamGoogleVertex,
);
export const streamSimpleGoogleVertex: Streamer<"google-vertex", SimpleStreamOptions> = lazy(
	async () => (await import("./providers/google-vertex/index.js")).streamSimpleGoogleVertex,
);
export const streamAzureOpenAIResponses: Streamer<"azure-openai-responses", AzureOpenAIResponsesOptions> = lazy(
	async () => (await import("./providers/azure-openai-responses/index.js")).streamAzureOpenAIResponses,
);
export const streamSimpleAzureOpenAIResponses: Streamer<"azure-openai-responses", SimpleStreamOptions> = lazy(
	async () => (await import("./providers/azure-openai-responses/index.js")).streamSimpleAzureOpenAIResponses,
);
export const streamMistral: Streamer<"mistral-conversations", MistralOptions> = lazy(
	async () => (await import("./providers/mistral/index.js")).streamMistral,
);
export const streamSimpleMistral: Streamer<"mistral-conversations", SimpleStreamOptions> = lazy(
	async () => (await import("./providers/mistral/index.js")).streamSimpleMistral,
);
