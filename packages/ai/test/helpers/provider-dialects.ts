// The wire format of each built-in API, as the provider contract tests need it: the same scenario (a text
// reply, a tool call cut by the output limit, an event out of order, …) written in each API's own events.
import type { Model } from "../../src/types.js";
import {
	anthropicHttpError,
	blockStop,
	inputJsonDelta,
	messageDelta,
	messageStart,
	messageStop,
	textBlock,
	toolUseStart,
} from "./anthropic-sse.js";
import {
	blockStop as bedrockBlockStop,
	bedrockEvent,
	bedrockHttpError,
	messageStart as bedrockMessageStart,
	messageStop as bedrockMessageStop,
	metadata as bedrockMetadata,
	bedrockText,
	textDelta as bedrockTextDelta,
	toolUseStart as bedrockToolUseStart,
	EVENTSTREAM_CONTENT_TYPE,
	framePrelude,
	toolUseDelta,
} from "./bedrock-eventstream.js";
import { encodeChunks, type FakeReply, formatSseChunk, type SseChunk } from "./fake-server.js";
import { geminiChunk, geminiHttpError } from "./google-sse.js";
import { chunk, DONE, finish, toolCallChunks } from "./openai-completions-sse.js";
import { completed, created, functionCallItem, messageItem, event as responsesEvent } from "./openai-responses-sse.js";
import {
	azureTestModel,
	bedrockClaude,
	claudeSonnet4,
	gemini25Flash,
	mistralTestModel,
	openaiTestModel,
	vertexGemini,
} from "./provider-test-harness.js";

export type ToolStop = "toolUse" | "length";

export interface ProviderDialect {
	api:
		| "anthropic-messages"
		| "openai-completions"
		| "openai-responses"
		| "google-generative-ai"
		| "google-vertex"
		| "azure-openai-responses"
		| "bedrock-converse-stream"
		| "mistral-conversations";
	model(serverUrl: string): Model;
	/** The request header that carries the API key, lower-case. */
	keyHeader: string;
	/** The content type of the API's event stream. */
	contentType: string;
	/** How an HTTP error of `status` starts its message (the status first, unless the API words it otherwise). */
	statusPrefix(status: number): string;
	/** A body that ends in the middle of an event, after `textStart`. */
	cutInsideEvent(): string | Buffer;
	/** Replies that never end, after `textStart`: [name, what follows the start once, what repeats]. */
	endless: [string, string | Buffer, string | Buffer][];
	/** A well-formed event stream carrying none of the API's events. */
	noApiEvents: SseChunk[];
	/** Tool-call arguments arrive as streamed JSON text (Gemini sends them whole, as an object). */
	streamsArguments: boolean;
	/** A complete reply with one text block. */
	text(text: string): SseChunk[];
	/** The start of a reply with some text and no end. */
	textStart(text: string): SseChunk[];
	/** One more text delta for the reply `textStart` began. */
	textDelta(text: string): SseChunk;
	/** A complete reply with one `bash` call whose argument JSON text is `args`, stopped by `stop`. */
	toolCall(args: string, stop: ToolStop): SseChunk[];
	/** A reply whose body ends inside a `bash` call's arguments (`args`), before the terminal event. */
	toolCallCut(args: string): SseChunk[];
	/** A complete tool-call reply whose arguments are not valid (Gemini: not an object). */
	malformedToolCall: SseChunk[];
	/** Replies that break the API's event order, by the problem the error must name. */
	outOfOrder: { name: string; problem: RegExp; chunks: SseChunk[] }[];
	/** A reply carrying a block this client cannot represent, when the API has such blocks. */
	unknownRequiredBlock?: SseChunk[];
	/** A complete reply: a server-side tool's blocks (which the server ran), then the text `Found it`. */
	serverToolReply?: SseChunk[];
	httpError(status: number, message: string): Extract<FakeReply, { kind: "json" }>;
	/** A 429 whose wait hint (header or body, as the API sends it) is `seconds`. */
	rateLimited(seconds: number): FakeReply;
	/** The API's context-overflow error. */
	overflow: FakeReply;
}

type WireParts = "contentType" | "statusPrefix" | "cutInsideEvent" | "endless" | "noApiEvents";

/** What every SSE API shares: the content type, status-first errors, cut and endless bodies in SSE framing. */
function withSseWire(
	dialect: Omit<ProviderDialect, WireParts> & Partial<Pick<ProviderDialect, WireParts>>,
): ProviderDialect {
	const { textStart, textDelta } = dialect;
	return {
		contentType: "text/event-stream",
		statusPrefix: (status) => `${status} `,
		cutInsideEvent: () => `${encodeChunks(textStart("Hello")).toString()}data: {"type":"conte`,
		endless: [
			[
				"an endless reply of text deltas",
				"",
				String(formatSseChunk(textDelta("All work and no play. "))).repeat(100),
			],
			["an endless stream of SSE comments", "", ": ping\n\n".repeat(1000)],
			["one endless line without a newline", "data: ", "x".repeat(8000)],
		],
		noApiEvents: [": keep-alive\n\n", ": still here\n\n"],
		...dialect,
	};
}

const anthropic = withSseWire({
	api: "anthropic-messages",
	model: (url) => claudeSonnet4(url),
	keyHeader: "x-api-key",
	streamsArguments: true,
	text: (text) => [messageStart(), ...textBlock(0, [text]), messageDelta("end_turn"), messageStop()],
	textStart: (text) => [messageStart(), ...textBlock(0, [text]).slice(0, 2)],
	textDelta: (text) => textBlock(0, [text])[1],
	toolCall: (args, stop) => [
		messageStart(),
		toolUseStart(0, "toolu_1", "bash"),
		inputJsonDelta(0, args),
		blockStop(0),
		messageDelta(stop === "length" ? "max_tokens" : "tool_use"),
		messageStop(),
	],
	toolCallCut: (args) => [messageStart(), toolUseStart(0, "toolu_1", "bash"), inputJsonDelta(0, args)],
	get malformedToolCall() {
		return this.toolCall('{"command": rm -rf keep}', "toolUse");
	},
	outOfOrder: [
		{
			name: "a delta before message_start",
			problem: /a content_block_delta event before message_start/,
			chunks: [...textBlock(0, ["early"]).slice(1), messageStart(), messageDelta("end_turn"), messageStop()],
		},
		{
			name: "a delta for a block that was never started",
			problem: /a content_block_delta for content block 3, which is not open/,
			chunks: [
				messageStart(),
				{
					event: "content_block_delta",
					data: { type: "content_block_delta", index: 3, delta: { type: "text_delta", text: "x" } },
				},
				messageDelta("end_turn"),
				messageStop(),
			],
		},
		{
			name: "events after message_stop",
			problem: /a content_block_start event after message_stop/,
			chunks: [
				messageStart(),
				...textBlock(0, ["hi"]),
				messageDelta("end_turn"),
				messageStop(),
				...textBlock(1, ["late"]),
			],
		},
	],
	unknownRequiredBlock: [
		messageStart(),
		{
			event: "content_block_start",
			data: { type: "content_block_start", index: 0, content_block: { type: "client_action", payload: "x" } },
		},
		blockStop(0),
		messageDelta("end_turn"),
		messageStop(),
	],
	serverToolReply: [
		messageStart(),
		{
			event: "content_block_start",
			data: {
				type: "content_block_start",
				index: 0,
				content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
			},
		},
		{
			event: "content_block_delta",
			data: {
				type: "content_block_delta",
				index: 0,
				delta: { type: "input_json_delta", partial_json: '{"query":"x"}' },
			},
		},
		blockStop(0),
		{
			event: "content_block_start",
			data: {
				type: "content_block_start",
				index: 1,
				content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
			},
		},
		blockStop(1),
		...textBlock(2, ["Found it"]),
		messageDelta("end_turn"),
		messageStop(),
	],
	httpError: (status, message) => anthropicHttpError(status, "api_error", message),
	rateLimited: (seconds) => ({
		...anthropicHttpError(429, "rate_limit_error", "Rate limited"),
		headers: { "retry-after": String(seconds) },
	}),
	overflow: anthropicHttpError(400, "invalid_request_error", "prompt is too long: 213462 tokens > 200000 maximum"),
});

const completions = withSseWire({
	api: "openai-completions",
	model: (url) => openaiTestModel("openai-completions", url),
	keyHeader: "authorization",
	streamsArguments: true,
	text: (text) => [chunk({ role: "assistant", content: "" }), chunk({ content: text }), ...finish("stop")],
	textStart: (text) => [chunk({ role: "assistant", content: "" }), chunk({ content: text })],
	textDelta: (text) => chunk({ content: text }),
	toolCall: (args, stop) => [
		...toolCallChunks(0, "call_1", "bash", args),
		...finish(stop === "length" ? "length" : "tool_calls"),
	],
	toolCallCut: (args) => toolCallChunks(0, "call_1", "bash", args),
	get malformedToolCall() {
		return this.toolCall('{"command": rm -rf keep}', "toolUse");
	},
	outOfOrder: [
		{
			name: "content after the finish_reason",
			problem: /content after the finish_reason/,
			chunks: [chunk({ content: "a" }), chunk({}, { finish_reason: "stop" }), chunk({ content: "late" }), DONE],
		},
	],
	httpError: (status, message) => ({ kind: "json", status, body: { error: { message } } }),
	rateLimited: (seconds) => ({
		kind: "json",
		status: 429,
		headers: { "retry-after": String(seconds) },
		body: { error: { message: "Rate limit reached for requests" } },
	}),
	overflow: {
		kind: "json",
		status: 400,
		body: {
			error: { message: "Your input exceeds the context window of this model.", code: "context_length_exceeded" },
		},
	},
});

const responsesFunctionCall = (args: string, size = 1000) => functionCallItem(0, "call_1", "fc_1", "bash", args, size);

const responses = withSseWire({
	api: "openai-responses",
	model: (url) => openaiTestModel("openai-responses", url),
	keyHeader: "authorization",
	streamsArguments: true,
	text: (text) => [created(), ...messageItem(0, "msg_1", text), completed()],
	textStart: (text) => [created(), ...messageItem(0, "msg_1", text).slice(0, 3)],
	textDelta: (delta) =>
		responsesEvent("response.output_text.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta }),
	toolCall: (args, stop) => [
		created(),
		...responsesFunctionCall(args),
		stop === "length"
			? completed({ type: "response.incomplete", incompleteReason: "max_output_tokens" })
			: completed(),
	],
	// Cut after the argument delta: no arguments.done, no output_item.done, no response.completed.
	toolCallCut: (args) => [created(), ...responsesFunctionCall(args).slice(0, 2)],
	get malformedToolCall() {
		return this.toolCall('{"command": rm -rf keep}', "toolUse");
	},
	outOfOrder: [
		{
			name: "a delta for an output item that was never added",
			problem: /a response\.output_text\.delta event for output item 2, which was never added/,
			chunks: [
				created(),
				responsesEvent("response.output_text.delta", {
					item_id: "m",
					output_index: 2,
					content_index: 0,
					delta: "x",
				}),
				completed(),
			],
		},
		{
			name: "events after response.completed",
			problem: /a response\.output_item\.added event after the response completed/,
			chunks: [created(), ...messageItem(0, "msg_1", "hi"), completed(), ...messageItem(1, "msg_2", "late")],
		},
	],
	serverToolReply: [
		created(),
		responsesEvent("response.output_item.added", {
			output_index: 0,
			item: { type: "web_search_call", id: "ws_1", status: "in_progress" },
		}),
		responsesEvent("response.output_item.done", {
			output_index: 0,
			item: { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "x" } },
		}),
		...messageItem(1, "msg_1", "Found it"),
		completed(),
	],
	unknownRequiredBlock: [
		created(),
		responsesEvent("response.output_item.added", {
			output_index: 0,
			item: { type: "computer_call", id: "cu_1", call_id: "c1", action: { type: "click" }, status: "completed" },
		}),
		completed(),
	],
	httpError: (status, message) => ({ kind: "json", status, body: { error: { message } } }),
	rateLimited: (seconds) => ({
		kind: "json",
		status: 429,
		headers: { "retry-after": String(seconds) },
		body: { error: { message: "Rate limit reached for requests" } },
	}),
	overflow: {
		kind: "json",
		status: 400,
		body: {
			error: { message: "Your input exceeds the context window of this model.", code: "context_length_exceeded" },
		},
	},
});

/** Gemini sends a function call whole, its arguments as an object; `args` must be JSON text of one. */
const geminiCall = (args: unknown) => ({ functionCall: { name: "bash", args: args as Record<string, unknown> } });

const google = withSseWire({
	api: "google-generative-ai",
	model: (url) => gemini25Flash(`${url}/v1beta`),
	keyHeader: "x-goog-api-key",
	streamsArguments: false,
	text: (text) => [geminiChunk([{ text }], { finishReason: "STOP" })],
	textStart: (text) => [geminiChunk([{ text }])],
	textDelta: (text) => geminiChunk([{ text }]),
	toolCall: (args, stop) => [
		geminiChunk([geminiCall(JSON.parse(args))], { finishReason: stop === "length" ? "MAX_TOKENS" : "STOP" }),
	],
	toolCallCut: (args) => [geminiChunk([{ text: "Running it." }]), geminiChunk([geminiCall(JSON.parse(args))])],
	malformedToolCall: [geminiChunk([geminiCall("rm -rf keep")], { finishReason: "STOP" })],
	outOfOrder: [
		{
			name: "content after the finishReason",
			problem: /content after the finishReason/,
			chunks: [geminiChunk([{ text: "a" }], { finishReason: "STOP" }), geminiChunk([{ text: "late" }])],
		},
	],
	serverToolReply: [
		geminiChunk([{ executableCode: { language: "PYTHON", code: "print(1)" } } as never]),
		geminiChunk([{ codeExecutionResult: { outcome: "OUTCOME_OK", output: "1" } } as never]),
		geminiChunk([{ text: "Found it" }], { finishReason: "STOP" }),
	],
	unknownRequiredBlock: [
		geminiChunk([{ inlineData: { mimeType: "image/png", data: "AAAA" } } as never], { finishReason: "STOP" }),
	],
	httpError: (status, message) => geminiHttpError(status, "INTERNAL", message),
	rateLimited: (seconds) => ({
		kind: "json",
		status: 429,
		body: {
			error: {
				code: 429,
				message: "Quota exceeded.",
				status: "RESOURCE_EXHAUSTED",
				details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${seconds}s` }],
			},
		},
	}),
	overflow: geminiHttpError(
		400,
		"INVALID_ARGUMENT",
		"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
	),
});

/** Gemini on Vertex AI: the same events, its own paths (`/v1/publishers/google/models/…`) and credentials. */
const vertex: ProviderDialect = { ...google, api: "google-vertex", model: (url) => vertexGemini(url) };

/** Azure OpenAI: the Responses events, the key in `api-key`, `?api-version=` on every request. */
const azure: ProviderDialect = {
	...responses,
	api: "azure-openai-responses",
	model: (url) => azureTestModel(`${url}/openai/v1`),
	keyHeader: "api-key",
};

/** Mistral sends each tool call whole, in one chunk, with a 9-character id. */
const mistralCall = (args: string) =>
	chunk({
		tool_calls: [{ id: "D681PevKs", type: "function", index: 0, function: { name: "bash", arguments: args } }],
	});

const mistral = withSseWire({
	...completions,
	api: "mistral-conversations",
	model: (url) => mistralTestModel(url),
	statusPrefix: (status) => `Mistral API error (${status}): `,
	toolCall: (args, stop) => [mistralCall(args), ...finish(stop === "length" ? "length" : "tool_calls")],
	toolCallCut: (args) => [mistralCall(args)],
	get malformedToolCall() {
		return this.toolCall('{"command": rm -rf keep}', "toolUse");
	},
	httpError: (status, message) => ({
		kind: "json",
		status,
		body: { object: "error", message, type: "invalid_request_error" },
	}),
	rateLimited: (seconds) => ({
		kind: "json",
		status: 429,
		headers: { "retry-after": String(seconds) },
		body: { object: "error", message: "Requests rate limit exceeded", type: "rate_limited" },
	}),
	overflow: {
		kind: "json",
		status: 400,
		body: {
			object: "error",
			message:
				"Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length",
			type: "invalid_request_message_order",
		},
	},
});

const bedrockToolCall = (args: string): SseChunk[] => [
	bedrockMessageStart(),
	bedrockToolUseStart(0, "tooluse_1", "bash"),
	toolUseDelta(0, args),
];

/** Bedrock ConverseStream: binary AWS event-stream frames, the Bedrock API key as a bearer token. */
const bedrock: ProviderDialect = {
	api: "bedrock-converse-stream",
	model: (url) => bedrockClaude(url),
	keyHeader: "authorization",
	contentType: EVENTSTREAM_CONTENT_TYPE,
	statusPrefix: (status) => `${status} `,
	streamsArguments: true,
	text: (text) => bedrockText(text),
	textStart: (text) => [bedrockMessageStart(), bedrockTextDelta(0, text)],
	textDelta: (text) => bedrockTextDelta(0, text),
	toolCall: (args, stop) => [
		...bedrockToolCall(args),
		bedrockBlockStop(0),
		bedrockMessageStop(stop === "length" ? "max_tokens" : "tool_use"),
		bedrockMetadata({ inputTokens: 10, outputTokens: 5, totalTokens: 15 }),
	],
	toolCallCut: (args) => bedrockToolCall(args),
	get malformedToolCall() {
		return this.toolCall('{"command": rm -rf keep}', "toolUse");
	},
	cutInsideEvent: () => {
		const next = bedrockTextDelta(0, " world");
		return Buffer.concat([encodeChunks([bedrockMessageStart(), bedrockTextDelta(0, "Hello")]), next.subarray(0, 20)]);
	},
	endless: [
		[
			"an endless reply of text deltas",
			"",
			encodeChunks(Array(100).fill(bedrockTextDelta(0, "All work and no play. "))),
		],
		["an endless stream of frames of no known event", "", encodeChunks(Array(100).fill(bedrockEvent("ping", {})))],
		["one frame that never ends", framePrelude(8 * 1024 * 1024 - 1), "x".repeat(8000)],
	],
	noApiEvents: [bedrockEvent("ping", {}), bedrockEvent("keepAlive", {})],
	outOfOrder: [
		{
			name: "a delta before messageStart",
			problem: /a contentBlockDelta event before messageStart/,
			chunks: [bedrockTextDelta(0, "early"), bedrockMessageStart(), bedrockMessageStop("end_turn")],
		},
		{
			name: "a tool-use delta for a block that was never started",
			problem: /a toolUse delta for content block 3, which is not an open tool call/,
			chunks: [bedrockMessageStart(), toolUseDelta(3, "{}"), bedrockMessageStop("end_turn")],
		},
		{
			name: "content after messageStop",
			problem: /a contentBlockDelta event after messageStop/,
			chunks: [...bedrockText("hi"), bedrockTextDelta(1, "late")],
		},
	],
	unknownRequiredBlock: [
		bedrockMessageStart(),
		bedrockEvent("contentBlockStart", { contentBlockIndex: 0, start: { image: { format: "png" } } }),
		bedrockBlockStop(0),
		bedrockMessageStop("end_turn"),
	],
	serverToolReply: [
		bedrockMessageStart(),
		bedrockEvent("contentBlockStart", { contentBlockIndex: 0, start: { toolResult: { toolUseId: "srv_1" } } }),
		bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { toolResult: [{ text: "result" }] } }),
		bedrockBlockStop(0),
		bedrockTextDelta(1, "Found it"),
		bedrockBlockStop(1),
		bedrockMessageStop("end_turn"),
		bedrockMetadata({ inputTokens: 10, outputTokens: 5, totalTokens: 15 }),
	],
	httpError: (status, message) => bedrockHttpError(status, "AccessDeniedException", message),
	rateLimited: (seconds) =>
		bedrockHttpError(429, "ThrottlingException", "Too many requests, please wait before trying again.", {
			"retry-after": String(seconds),
		}),
	overflow: bedrockHttpError(400, "ValidationException", "Input is too long for requested model."),
};

export const PROVIDER_DIALECTS: readonly ProviderDialect[] = [
	anthropic,
	completions,
	responses,
	google,
	vertex,
	azure,
	mistral,
	bedrock,
];
