// The public API of @agent/ai (index.ts) without TypeBox's `Type`: the `agent` bundle builds the package from
// this file, so a run that meets no extension never loads TypeBox (scripts/bundle.mjs). Importing it registers the
// built-in API providers. Nothing inside the package imports this file or the index.
import { registerBuiltInApiProviders } from "./providers/register-builtins.js";

export type { Static, TSchema } from "@sinclair/typebox";
export {
	type ApiStreamFunction,
	type ApiStreamSimpleFunction,
	clearApiProviders,
	getApiProvider,
	getApiProviders,
	registerApiProvider,
	unregisterApiProviders,
} from "./api-registry.js";
export {
	AUTHENTICATED_PLACEHOLDER,
	describeProviderCredentials,
	getEnvApiKey,
	PROVIDER_ENV_VARS,
	PROVIDER_KEY_ENV_VARS,
} from "./env-api-keys.js";
export { AssistantMessageEventStream, createAssistantMessageEventStream, EventStream } from "./event-stream.js";
export type { CatalogApi, CatalogModel, CatalogProvider } from "./models.generated.js";
export { calculateCost, getModel, getModels, getProviders, MODELS, modelsAreEqual, supportsXhigh } from "./models.js";
export { parseAuthorizationInput } from "./oauth/callback-server.js";
export {
	createGitHubCopilotOAuthProvider,
	type GitHubCopilotEndpoints,
	type GitHubCopilotOAuthOptions,
	githubCopilotEndpoints,
	loginGitHubCopilot,
	refreshGitHubCopilotToken,
} from "./oauth/github-copilot.js";
export { getGitHubCopilotBaseUrl, normalizeDomain } from "./oauth/github-copilot-base-url.js";
export {
	createAntigravityOAuthProvider,
	loginAntigravity,
	refreshAntigravityToken,
} from "./oauth/google-antigravity.js";
export type { GoogleOAuthEndpoints } from "./oauth/google-cloud-code.js";
export { createGeminiCliOAuthProvider, loginGeminiCli, refreshGoogleCloudToken } from "./oauth/google-gemini-cli.js";
export {
	createOpenAICodexOAuthProvider,
	loginOpenAICodex,
	type OpenAICodexOAuthEndpoints,
	refreshOpenAICodexToken,
} from "./oauth/openai-codex.js";
export { generatePKCE } from "./oauth/pkce.js";
export {
	getOAuthApiKey,
	getOAuthProvider,
	getOAuthProviderInfoList,
	getOAuthProviders,
	refreshOAuthToken,
	registerOAuthProvider,
	resetOAuthProviders,
	unregisterOAuthProvider,
} from "./oauth/registry.js";
export type * from "./oauth/types.js";
export { LOGIN_CANCELLED_MESSAGE } from "./oauth/types.js";
export {
	streamAnthropic,
	streamAzureOpenAIResponses,
	streamGoogle,
	streamGoogleGeminiCli,
	streamGoogleVertex,
	streamMistral,
	streamOpenAICodexResponses,
	streamOpenAICompletions,
	streamOpenAIResponses,
	streamSimpleAnthropic,
	streamSimpleAzureOpenAIResponses,
	streamSimpleGoogle,
	streamSimpleGoogleGeminiCli,
	streamSimpleGoogleVertex,
	streamSimpleMistral,
	streamSimpleOpenAICodexResponses,
	streamSimpleOpenAICompletions,
	streamSimpleOpenAIResponses,
} from "./provider-streams.js";
export {
	createAssistantOutput,
	describeError,
	emptyUsage,
	failStream,
	finishStream,
} from "./providers/assistant-output.js";
export { messageWithCauses } from "./providers/error-text.js";
export {
	createFauxProvider,
	type FauxBlock,
	FauxProvider,
	type FauxProviderOptions,
	type FauxRequest,
	type FauxResponse,
	type FauxScript,
	fauxError,
	fauxText,
	fauxToolCall,
} from "./providers/faux.js";
export { buildRequest } from "./providers/google-gemini-cli/build-request.js";
export { extractRetryDelay } from "./providers/google-gemini-cli/retry-delay.js";
export { httpFetch } from "./providers/http-fetch.js";
export { nodeHttp } from "./providers/node-http.js";
export { convertMessages } from "./providers/openai-completions/convert-messages.js";
export {
	type BedrockProviderModule,
	preloadApiProvider,
	registerBuiltInApiProviders,
	resetApiProviders,
	setBedrockProviderModule,
} from "./providers/register-builtins.js";
export { DEFAULT_MAX_REPLY_BYTES, DEFAULT_REPLY_TIMEOUT_MS } from "./providers/reply-limits.js";
export {
	adjustMaxTokensForThinking,
	buildBaseOptions,
	clampReasoning,
	DEFAULT_THINKING_BUDGETS,
} from "./providers/simple-options.js";
export { type ToolCallIdNormalizer, transformMessages } from "./providers/transform-messages.js";
export { complete, completeSimple, stream, streamSimple } from "./stream.js";
export type * from "./types.js";
export { parseStreamingJson } from "./utils/json-parse.js";
export { LeanType } from "./utils/lean-type.js";
export { createMistralToolCallIdNormalizer } from "./utils/mistral-tool-call-id.js";
export { getOverflowPatterns, isContextOverflow } from "./utils/overflow.js";
export { sanitizeSurrogates } from "./utils/sanitize-unicode.js";
export { shortHash } from "./utils/short-hash.js";
export { StringEnum } from "./utils/typebox-helpers.js";
export { prepareToolValidation, validateToolArguments, validateToolCall } from "./utils/validation.js";

// Built-ins are registered when the package loads; their SDKs load on first use.
registerBuiltInApiProviders();
