import type { TSchema } from "@sinclair/typebox";

// ---------------------------------------------------------------------------
// APIs and providers
// ---------------------------------------------------------------------------

/** Wire protocols. Only some have a built-in implementation; the rest can be registered. */
export type KnownApi =
	| "openai-completions"
	| "mistral-conversations"
	| "openai-responses"
	| "azure-openai-responses"
	| "openai-codex-responses"
	| "anthropic-messages"
	| "bedrock-converse-stream"
	| "google-generative-ai"
	| "google-gemini-cli"
	| "google-vertex";
export type Api = KnownApi | (string & {});

export type KnownProvider =
	| "amazon-bedrock"
	| "anthropic"
	| "google"
	| "google-gemini-cli"
	| "google-antigravity"
	| "google-vertex"
	| "openai"
	| "azure-openai-responses"
	| "openai-codex"
	| "github-copilot"
	| "xai"
	| "groq"
	| "cerebras"
	| "openrouter"
	| "vercel-ai-gateway"
	| "zai"
	| "mistral"
	| "minimax"
	| "minimax-cn"
	| "huggingface"
	| "opencode"
	| "opencode-go"
	| "kimi-coding";
export type Provider = KnownProvider | (string & {});

// ---------------------------------------------------------------------------
// Content and messages
// ---------------------------------------------------------------------------

export interface TextContent {
	type: "text";
	text: string;
	/** Replay metadata for the same API (OpenAI Responses: `TextSignatureV1` JSON / Google thought signature). */
	textSignature?: string;
}

/** What OpenAI Responses keeps in `TextContent.textSignature`: the message item's id and phase, as JSON. */
export interface TextSignatureV1 {
	v: 1;
	id: string;
	phase?: "commentary" | "final_answer";
}

export interface ThinkingContent {
	type: "thinking";
	thinking: string;
	/** Opaque value needed to replay the reasoning to the same API. */
	thinkingSignature?: string;
	/** Redacted by safety filters: `thinking` is a placeholder, the payload sits in `thinkingSignature`. */
	redacted?: boolean;
}

export interface ImageContent {
	type: "image";
	/** base64 */
	data: string;
	mimeType: string;
}

export interface ToolCall {
	type: "toolCall";
	id: string;
	name: string;
	arguments: Record<string, unknown>;
	thoughtSignature?: string;
	/**
	 * Ours: set by the provider when the call's argument JSON did not arrive complete and valid (the reply was
	 * cut off, or the JSON does not parse). It says why; `arguments` then holds what partial parsing recovered,
	 * for display only. A call with this field must never be executed.
	 */
	invalidArguments?: string;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface UsageCost {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	total: number;
}

export interface Usage {
	/** Non-cached input tokens where the provider reports cached tokens separately (Google: all prompt tokens). */
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	/** USD */
	cost: UsageCost;
}

export interface UserMessage {
	role: "user";
	content: string | (TextContent | ImageContent)[];
	/** ms since epoch */
	timestamp: number;
}

export interface AssistantMessage {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall)[];
	api: Api;
	provider: Provider;
	model: string;
	usage: Usage;
	stopReason: StopReason;
	errorMessage?: string;
	timestamp: number;
}

export interface ToolResultMessage<TDetails = unknown> {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	content: (TextContent | ImageContent)[];
	details?: TDetails;
	isError: boolean;
	timestamp: number;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export interface Tool<TParameters extends TSchema = TSchema> {
	name: string;
	description: string;
	/** TypeBox schema, which is JSON Schema. */
	parameters: TParameters;
}

export interface Context {
	systemPrompt?: string;
	messages: Message[];
	tools?: Tool[];
}

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

export interface ModelCost {
	/** USD per million tokens */
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

/** OpenRouter's provider routing (`provider` in the request): which upstream providers may serve a request. */
export interface OpenRouterRouting {
	/** Provider slugs to use exclusively, e.g. `["amazon-bedrock", "anthropic"]`. */
	only?: string[];
	/** Provider slugs to try in this order. */
	order?: string[];
}

/** Vercel AI Gateway's routing (`providerOptions.gateway` in the request): which upstream providers may serve it. */
export interface VercelGatewayRouting {
	/** Provider slugs to use exclusively, e.g. `["bedrock", "anthropic"]`. */
	only?: string[];
	/** Provider slugs to try in this order. */
	order?: string[];
}

/** Behaviour switches for OpenAI-compatible Chat Completions servers. Unset fields are auto-detected. */
export interface OpenAICompletionsCompat {
	supportsStore?: boolean;
	supportsDeveloperRole?: boolean;
	supportsReasoningEffort?: boolean;
	reasoningEffortMap?: Partial<Record<ThinkingLevel, string>>;
	supportsUsageInStreaming?: boolean;
	maxTokensField?: "max_completion_tokens" | "max_tokens";
	requiresToolResultName?: boolean;
	requiresAssistantAfterToolResult?: boolean;
	requiresThinkingAsText?: boolean;
	thinkingFormat?: "openai" | "zai" | "qwen" | "qwen-chat-template";
	/** Used only when the base URL is OpenRouter's. */
	openRouterRouting?: OpenRouterRouting;
	/** Used only when the base URL is Vercel AI Gateway's. */
	vercelGatewayRouting?: VercelGatewayRouting;
	supportsStrictMode?: boolean;
}

// biome-ignore lint/complexity/noBannedTypes: the Responses API has no compat switches yet; kept for symmetry.
export type OpenAIResponsesCompat = {};

export type ModelCompat<TApi extends Api> = TApi extends "openai-completions"
	? OpenAICompletionsCompat
	: TApi extends "openai-responses" | "azure-openai-responses"
		? OpenAIResponsesCompat
		: OpenAICompletionsCompat | OpenAIResponsesCompat;

export interface Model<TApi extends Api = Api> {
	id: string;
	name: string;
	api: TApi;
	provider: Provider;
	baseUrl: string;
	/** The model supports thinking / reasoning. */
	reasoning: boolean;
	input: ("text" | "image")[];
	cost: ModelCost;
	contextWindow: number;
	/** Maximum output tokens. */
	maxTokens: number;
	headers?: Record<string, string>;
	compat?: ModelCompat<TApi>;
}

// ---------------------------------------------------------------------------
// Stream events
// ---------------------------------------------------------------------------

export type AssistantMessageEvent =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
	| { type: "done"; reason: "stop" | "length" | "toolUse"; message: AssistantMessage }
	| { type: "error"; reason: "aborted" | "error"; error: AssistantMessage };

// ---------------------------------------------------------------------------
// Call options
// ---------------------------------------------------------------------------

export type CacheRetention = "none" | "short" | "long";
export type Transport = "sse" | "websocket" | "auto";
export type ThinkingLevel = "minimal" | "low" | "medium" | "high" | "xhigh";

export interface ThinkingBudgets {
	minimal?: number;
	low?: number;
	medium?: number;
	high?: number;
}

export interface StreamOptions {
	temperature?: number;
	maxTokens?: number;
	signal?: AbortSignal;
	apiKey?: string;
	/** Only openai-codex-responses honours it. */
	transport?: Transport;
	/** Default "short"; env AGENT_CACHE_RETENTION=long upgrades the default. */
	cacheRetention?: CacheRetention;
	/** Prompt-cache key / routing hint (OpenAI Responses). */
	sessionId?: string;
	/** Inspect or replace the request payload before it is sent; a non-undefined return replaces it. */
	onPayload?: (payload: unknown, model: Model) => unknown | Promise<unknown>;
	/** Merged last, overriding defaults. */
	headers?: Record<string, string>;
	/** Default 60000; 0 disables the cap. */
	maxRetryDelayMs?: number;
	/** Anthropic uses metadata.user_id (string). */
	metadata?: Record<string, unknown>;
	/**
	 * Ours: the most bytes of response body one reply may receive before it is ended with an error. Default
	 * `DEFAULT_MAX_REPLY_BYTES` (64 MiB); 0 disables the cap.
	 */
	maxReplyBytes?: number;
	/**
	 * Ours: the longest one reply may stream, from the request to its last event, before it is ended with an
	 * error. Default `DEFAULT_REPLY_TIMEOUT_MS` (30 minutes); 0 disables the cap.
	 */
	replyTimeoutMs?: number;
}

/** What `stream`/`complete` accept for any API: the common options plus the API's own, unchecked. */
export type ProviderStreamOptions = StreamOptions & Record<string, unknown>;

export interface SimpleStreamOptions extends StreamOptions {
	reasoning?: ThinkingLevel;
	thinkingBudgets?: ThinkingBudgets;
}

export type ToolChoice = "auto" | "none" | "any" | "required" | { type: "tool"; name: string };

/** How much an adaptive-thinking Claude model thinks (`output_config.effort`); "max" is Opus-only. */
export type AnthropicEffort = "low" | "medium" | "high" | "max";

export interface AnthropicOptions extends StreamOptions {
	thinkingEnabled?: boolean;
	thinkingBudgetTokens?: number;
	/** Adaptive-thinking models: output_config.effort. */
	effort?: AnthropicEffort;
	toolChoice?: "auto" | "any" | "none" | { type: "tool"; name: string };
	/** Send the interleaved-thinking beta (default true; never for adaptive-thinking models). */
	interleavedThinking?: boolean;
}

export interface OpenAICompletionsOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
	reasoningEffort?: ThinkingLevel;
}

export interface OpenAIResponsesOptions extends StreamOptions {
	reasoningEffort?: ThinkingLevel;
	reasoningSummary?: "auto" | "detailed" | "concise" | null;
	serviceTier?: "auto" | "default" | "flex" | "priority";
}

/** Gemini 3's thinking level, as Google's `ThinkingLevel` spells it. */
export type GoogleThinkingLevel = "THINKING_LEVEL_UNSPECIFIED" | "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";

export interface GoogleOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "any";
	thinking?: {
		enabled: boolean;
		/** Gemini 2.x: the token budget; -1 = dynamic. */
		budgetTokens?: number;
		/** Gemini 3: the level (wins over a budget). */
		level?: GoogleThinkingLevel;
	};
}

export interface GoogleVertexOptions extends GoogleOptions {
	/** Google Cloud project; default GOOGLE_CLOUD_PROJECT, then GCLOUD_PROJECT. Not needed with an API key. */
	project?: string;
	/** Region such as `us-central1` or `global`; default GOOGLE_CLOUD_LOCATION. Not needed with an API key. */
	location?: string;
	/**
	 * Ours: an OAuth access token (or a function returning one) used instead of application-default credentials,
	 * e.g. from `gcloud auth print-access-token` or a workload's own token source.
	 */
	accessToken?: string | (() => Promise<string>);
}

export interface OpenAICodexResponsesOptions extends StreamOptions {
	reasoningEffort?: "none" | ThinkingLevel;
	reasoningSummary?: "auto" | "concise" | "detailed" | "off" | "on" | null;
	textVerbosity?: "low" | "medium" | "high";
}

export interface GoogleGeminiCliOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "any";
	thinking?: GoogleOptions["thinking"];
	/** The Cloud Code Assist project; default: the `projectId` of the key (`{"token","projectId"}` JSON). */
	projectId?: string;
}

export interface AzureOpenAIResponsesOptions extends OpenAIResponsesOptions {
	/** Default AZURE_OPENAI_API_VERSION, then `v1`. */
	azureApiVersion?: string;
	/** Builds `https://<name>.openai.azure.com/openai/v1`; default AZURE_OPENAI_RESOURCE_NAME. */
	azureResourceName?: string;
	/** Wins over the resource name; default AZURE_OPENAI_BASE_URL. */
	azureBaseUrl?: string;
	/** Sent as `model`; default from AZURE_OPENAI_DEPLOYMENT_NAME_MAP (`id=deployment,…`), then the model id. */
	azureDeploymentName?: string;
}

export interface BedrockOptions extends StreamOptions {
	/** Default AWS_REGION, then AWS_DEFAULT_REGION, then the profile's region, then `us-east-1`. */
	region?: string;
	/** A named profile of ~/.aws/config and ~/.aws/credentials; default AWS_PROFILE. */
	profile?: string;
	toolChoice?: "auto" | "any" | "none" | { type: "tool"; name: string };
	reasoning?: ThinkingLevel;
	thinkingBudgets?: ThinkingBudgets;
	/** Claude models with budget thinking: send the interleaved-thinking beta (default true). */
	interleavedThinking?: boolean;
}

export interface MistralOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "any" | "required" | { type: "function"; function: { name: string } };
	promptMode?: "reasoning";
}

/** Provider-specific options per built-in API; other APIs take plain StreamOptions. */
export interface ApiOptionsMap {
	"anthropic-messages": AnthropicOptions;
	"openai-completions": OpenAICompletionsOptions;
	"openai-responses": OpenAIResponsesOptions;
	"google-generative-ai": GoogleOptions;
	"google-vertex": GoogleVertexOptions;
	"azure-openai-responses": AzureOpenAIResponsesOptions;
	"bedrock-converse-stream": BedrockOptions;
	"mistral-conversations": MistralOptions;
	"openai-codex-responses": OpenAICodexResponsesOptions;
	"google-gemini-cli": GoogleGeminiCliOptions;
}

export type OptionsForApi<TApi extends Api> = TApi extends keyof ApiOptionsMap ? ApiOptionsMap[TApi] : StreamOptions;

// ---------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------

// Declared here (not in event-stream.ts) as an interface so types.ts has no runtime imports.
export interface AssistantMessageEventStream extends AsyncIterable<AssistantMessageEvent> {
	push(event: AssistantMessageEvent): void;
	end(result?: AssistantMessage): void;
	result(): Promise<AssistantMessage>;
}

export type StreamFunction<TApi extends Api = Api, TOptions extends StreamOptions = StreamOptions> = (
	model: Model<TApi>,
	context: Context,
	options?: TOptions,
) => AssistantMessageEventStream;

export interface ApiProvider<TApi extends Api = Api, TOptions extends StreamOptions = OptionsForApi<TApi>> {
	api: TApi;
	stream: StreamFunction<TApi, TOptions>;
	streamSimple: StreamFunction<TApi, SimpleStreamOptions>;
}
