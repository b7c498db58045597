import {
	type AssistantMessage,
	AssistantMessageEventStream,
	type Context,
	createAssistantOutput,
	failStream,
	httpFetch,
	type Model,
	messageWithCauses,
	parseStreamingJson,
	type TextContent,
	type ThinkingContent,
	type ToolCall,
} from "@agent/ai";
import {
	PROXY_STREAM_PATH,
	type ProxyAssistantMessageEvent,
	type ProxyRequestOptions,
	type ProxyStreamOptions,
	type ProxyStreamRequest,
} from "./proxy-protocol.js";

/** errorMessage when the proxy's stream ends before its `done` or `error` event. */
export const PROXY_STREAM_ENDED_TEXT = "The proxy stream ended without a final event";

function requestOptionsOf(options: ProxyStreamOptions): ProxyRequestOptions {
	const { temperature, maxTokens, reasoning, thinkingBudgets, cacheRetention, sessionId } = options;
	const { headers, maxRetryDelayMs, metadata, transport } = options;
	const picked: ProxyRequestOptions = {
		temperature,
		maxTokens,
		reasoning,
		thinkingBudgets,
		cacheRetention,
		sessionId,
		headers,
		maxRetryDelayMs,
		metadata,
		transport,
	};
	return Object.fromEntries(Object.entries(picked).filter(([, value]) => value !== undefined));
}

/** The `data:` payloads of a server-sent event stream, one string per event. */
async function* readEventData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
	const decoder = new TextDecoder();
	let buffer = "";
	let data: string[] = [];
	const take = () => {
		const payload = data.join("\n");
		data = [];
		return payload;
	};
	const reader = body.getReader();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
			for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
				const line = buffer.slice(0, end).replace(/\r$/, "");
				buffer = buffer.slice(end + 1);
				if (line === "") {
					if (data.length > 0) yield take();
				} else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
			}
			if (done) break;
		}
		if (buffer.startsWith("data:")) data.push(buffer.slice(5).replace(/^ /, ""));
		if (data.length > 0) yield take();
	} finally {
		reader.releaseLock();
	}
}

async function proxyErrorText(response: Response): Promise<string> {
	const text = await response.text().catch(() => "");
	let detail = text.trim();
	try {
		const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
		const error = parsed.error as { message?: unknown } | string | undefined;
		if (typeof error === "string") detail = error;
		else if (typeof error?.message === "string") detail = error.message;
		else if (typeof parsed.message === "string") detail = parsed.message;
	} catch {
		// Not JSON: the body's text is the detail.
	}
	return `Proxy error: ${response.status}${detail ? ` ${detail}` : ` ${response.statusText}`}`;
}

/** Rebuilds the partial message from the proxy's events and re-emits them as `AssistantMessageEvent`s. */
class ProxyMessageBuilder {
	private readonly argumentJson = new Map<number, string>();

	constructor(
		private readonly output: AssistantMessage,
		private readonly stream: AssistantMessageEventStream,
	) {}

	private block<T extends AssistantMessage["content"][number]["type"]>(
		index: number,
		type: T,
	): Extract<AssistantMessage["content"][number], { type: T }> {
		const block = this.output.content[index];
		if (block?.type !== type) throw new Error(`The proxy sent an event for a ${type} block it never started`);
		return block as Extract<AssistantMessage["content"][number], { type: T }>;
	}

	private start(index: number, block: AssistantMessage["content"][number]): void {
		if (index !== this.output.content.length) throw new Error(`The proxy started block ${index} out of order`);
		this.output.content.push(block);
	}

	/** Applies one event; true once a terminal event (`done`, `error`) was pushed and the stream ended. */
	apply(event: ProxyAssistantMessageEvent): boolean {
		const { output, stream } = this;
		const partial = output;
		switch (event.type) {
			case "start":
				stream.push({ type: "start", partial });
				return false;
			case "text_start":
				this.start(event.contentIndex, { type: "text", text: "" } satisfies TextContent);
				stream.push({ type: "text_start", contentIndex: event.contentIndex, partial });
				return false;
			case "text_delta":
				this.block(event.contentIndex, "text").text += event.delta;
				stream.push({ type: "text_delta", contentIndex: event.contentIndex, delta: event.delta, partial });
				return false;
			case "text_end": {
				const block = this.block(event.contentIndex, "text");
				if (event.contentSignature) block.textSignature = event.contentSignature;
				stream.push({ type: "text_end", contentIndex: event.contentIndex, content: block.text, partial });
				return false;
			}
			case "thinking_start":
				this.start(event.contentIndex, { type: "thinking", thinking: "" } satisfies ThinkingContent);
				stream.push({ type: "thinking_start", contentIndex: event.contentIndex, partial });
				return false;
			case "thinking_delta":
				this.block(event.contentIndex, "thinking").thinking += event.delta;
				stream.push({ type: "thinking_delta", contentIndex: event.contentIndex, delta: event.delta, partial });
				return false;
			case "thinking_end": {
				const block = this.block(event.contentIndex, "thinking");
				if (event.contentSignature) block.thinkingSignature = event.contentSignature;
				stream.push({ type: "thinking_end", contentIndex: event.contentIndex, content: block.thinking, partial });
				return false;
			}
			case "toolcall_start":
				this.start(event.contentIndex, {
					type: "toolCall",
					id: event.id,
					name: event.toolName,
					arguments: {},
				} satisfies ToolCall);
				this.argumentJson.set(event.contentIndex, "");
				stream.push({ type: "toolcall_start", contentIndex: event.contentIndex, partial });
				return false;
			case "toolcall_delta": {
				const block = this.block(event.contentIndex, "toolCall");
				const json = (this.argumentJson.get(event.contentIndex) ?? "") + event.delta;
				this.argumentJson.set(event.contentIndex, json);
				block.arguments = parseStreamingJson(json);
				stream.push({ type: "toolcall_delta", contentIndex: event.contentIndex, delta: event.delta, partial });
				return false;
			}
			case "toolcall_end": {
				const toolCall = this.block(event.contentIndex, "toolCall");
				this.argumentJson.delete(event.contentIndex);
				stream.push({ type: "toolcall_end", contentIndex: event.contentIndex, toolCall, partial });
				return false;
			}
			case "done":
				output.stopReason = event.reason;
				output.usage = event.usage;
				stream.push({ type: "done", reason: event.reason, message: output });
				stream.end();
				return true;
			case "error":
				output.stopReason = event.reason;
				output.usage = event.usage;
				if (event.errorMessage !== undefined) output.errorMessage = event.errorMessage;
				stream.push({ type: "error", reason: event.reason, error: output });
				stream.end();
				return true;
			default:
				throw new Error(`The proxy sent an unknown event: ${(event as { type?: unknown }).type}`);
		}
	}
}

function parseEvent(data: string): ProxyAssistantMessageEvent {
	let parsed: unknown;
	try {
		parsed = JSON.parse(data);
	} catch {
		throw new Error(`The proxy sent an event that is not JSON: ${data.slice(0, 200)}`);
	}
	if (typeof parsed !== "object" || parsed === null || typeof (parsed as { type?: unknown }).type !== "string") {
		throw new Error(`The proxy sent an event without a type: ${data.slice(0, 200)}`);
	}
	return parsed as ProxyAssistantMessageEvent;
}

async function run(
	model: Model,
	context: Context,
	options: ProxyStreamOptions,
	output: AssistantMessage,
	stream: AssistantMessageEventStream,
): Promise<void> {
	const body: ProxyStreamRequest = { model, context, options: requestOptionsOf(options) };
	// The agent's HTTP client: proxy variables apply, and a redirect is an error (the token stays with the proxy).
	const response = await httpFetch(`${options.proxyUrl.replace(/\/+$/, "")}${PROXY_STREAM_PATH}`, {
		method: "POST",
		headers: {
			Authorization: `Bearer ${options.authToken}`,
			"Content-Type": "application/json",
			Accept: "text/event-stream",
		},
		body: JSON.stringify(body),
		signal: options.signal,
	});
	if (!response.ok) throw new Error(await proxyErrorText(response));
	if (!response.body) throw new Error(PROXY_STREAM_ENDED_TEXT);
	const builder = new ProxyMessageBuilder(output, stream);
	for await (const data of readEventData(response.body)) {
		if (builder.apply(parseEvent(data))) return;
	}
	throw new Error(PROXY_STREAM_ENDED_TEXT);
}

/**
 * Streams one reply through a proxy server instead of calling the provider: for apps whose keys live on a server.
 * Posts `{ model, context, options }` (`ProxyStreamRequest`; the JSON-safe options only) to `<proxyUrl>/api/stream`
 * with `Authorization: Bearer <authToken>`; the server answers with server-sent events, each a
 * `ProxyAssistantMessageEvent` (the provider's event without its `partial`), and this rebuilds the partial message
 * and emits ordinary `AssistantMessageEvent`s. Never throws: an HTTP error, a broken stream or an abort through
 * `options.signal` ends the stream with an `error` event. Use it as the `streamFn` of an `Agent`:
 *
 * ```ts
 * const agent = new Agent({
 *   streamFn: async (model, context, options) =>
 *     streamProxy(model, context, { ...options, authToken: await getAuthToken(), proxyUrl: "https://genai.example.com" }),
 * });
 * ```
 */
export function streamProxy(model: Model, context: Context, options: ProxyStreamOptions): AssistantMessageEventStream {
	const stream = new AssistantMessageEventStream();
	const output = createAssistantOutput(model);
	run(model, context, options, output, stream).catch((error: unknown) => {
		// `fetch failed` alone says nothing: the causes name the server or proxy that could not be reached.
		const described =
			error instanceof Error && error.cause instanceof Error ? new Error(messageWithCauses(error)) : error;
		failStream(stream, output, described, options.signal);
	});
	return stream;
}
