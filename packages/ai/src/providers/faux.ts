import { registerApiProvider, unregisterApiProviders } from "../api-registry.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { calculateCost } from "../models.js";
import type {
	AssistantMessage,
	Context,
	Message,
	Model,
	SimpleStreamOptions,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "../types.js";
import { parseStreamingJson } from "../utils/json-parse.js";
import { createAssistantOutput, failStream, finishStream } from "./assistant-output.js";
import { ABORTED_MESSAGE } from "./stream-errors.js";

/** One content block of a scripted reply. Tool calls get a generated id when none is given. */
export type FauxBlock =
	| { type: "text"; text: string }
	| { type: "thinking"; thinking: string; thinkingSignature?: string; redacted?: boolean }
	| {
			type: "toolCall";
			name: string;
			arguments: Record<string, unknown>;
			id?: string;
			/** Scripts a call whose argument JSON did not arrive complete (see `ToolCall.invalidArguments`). */
			invalidArguments?: string;
	  };

/** A scripted reply. */
export interface FauxResponse {
	content?: FauxBlock[];
	/** Default: `toolUse` when the reply has tool calls, `error` when `errorMessage` is set, else `stop`. */
	stopReason?: StopReason;
	/**
	 * Ends the reply with an error. Without content this models a failed request (no `start` event,
	 * e.g. an HTTP 429); with content, a stream that broke after those blocks.
	 */
	errorMessage?: string;
	/** Token counts; unset counts are estimated as characters / 4. */
	usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
	/** Wait before the reply starts (ms). Abortable. */
	delayMs?: number;
	/** Wait between streamed chunks (ms). Abortable. */
	chunkDelayMs?: number;
	/** Characters per text/thinking/tool-argument delta; default 16. */
	chunkSize?: number;
	/** Blocks until the given promise settles before finishing (after all content streamed). */
	holdUntil?: Promise<unknown>;
}

/** What the provider received for one call. `context` is a deep copy taken when the call was made. */
export interface FauxRequest {
	model: Model;
	context: {
		systemPrompt?: string;
		messages: Message[];
		tools: { name: string; description: string; parameters: unknown }[];
	};
	options?: SimpleStreamOptions;
}

export type FauxScript = FauxResponse | ((request: FauxRequest) => FauxResponse | Promise<FauxResponse>);

export interface FauxProviderOptions {
	/** Registry key; default "faux". Use distinct values to run several fakes side by side. */
	api?: string;
	/** Provider id written into messages; default "faux". */
	provider?: string;
}

const DEFAULT_CHUNK = 16;

function estimateTokens(text: string): number {
	return Math.ceil(text.length / 4);
}

function messageText(message: Message): string {
	if (typeof message.content === "string") return message.content;
	return message.content
		.map((block) => {
			if (block.type === "text") return block.text;
			if (block.type === "thinking") return block.thinking;
			if (block.type === "toolCall") return JSON.stringify(block.arguments);
			return "";
		})
		.join("");
}

function chunks(text: string, size: number): string[] {
	if (text.length === 0) return [""];
	const out: string[] = [];
	for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
	return out;
}

function abortError(): Error {
	return new Error(ABORTED_MESSAGE);
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) return Promise.reject(abortError());
	return new Promise((resolve, reject) => {
		const onAbort = () => {
			clearTimeout(timer);
			reject(abortError());
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}

function waitFor(promise: Promise<unknown>, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) return Promise.reject(abortError());
	return new Promise((resolve, reject) => {
		const onAbort = () => reject(abortError());
		signal?.addEventListener("abort", onAbort, { once: true });
		promise.then(
			() => {
				signal?.removeEventListener("abort", onAbort);
				resolve();
			},
			(error: unknown) => {
				signal?.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}

/**
 * A scripted in-process provider for tests. Queue replies with `enqueue`, register it, and call
 * `stream`/`streamSimple` (or run an agent) with `faux.model()`. Every request is recorded in
 * `requests`. Replies stream like a real provider: `start`, then block start/delta/end events in
 * small chunks, then `done` or `error`; an aborted signal ends the reply with `aborted` and keeps
 * what was streamed so far.
 */
export class FauxProvider {
	readonly api: string;
	readonly provider: string;
	readonly requests: FauxRequest[] = [];
	private readonly queue: FauxScript[] = [];
	private toolCallCounter = 0;
	private readonly sourceId: string;

	constructor(options: FauxProviderOptions = {}) {
		this.api = options.api ?? "faux";
		this.provider = options.provider ?? "faux";
		this.sourceId = `faux:${this.api}`;
	}

	/** A model served by this provider. Defaults: reasoning, text+image, 200k window, zero cost. */
	model(overrides: Partial<Model> = {}): Model {
		return {
			id: "faux-1",
			name: "Faux 1",
			api: this.api,
			provider: this.provider,
			baseUrl: "",
			reasoning: true,
			input: ["text", "image"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 200_000,
			maxTokens: 32_000,
			...overrides,
		};
	}

	/** Adds replies to the end of the queue. */
	enqueue(...scripts: FauxScript[]): this {
		this.queue.push(...scripts);
		return this;
	}

	/** Replies queued and not yet consumed. */
	get pending(): number {
		return this.queue.length;
	}

	register(): this {
		registerApiProvider({ api: this.api, stream: this.stream, streamSimple: this.stream }, this.sourceId);
		return this;
	}

	unregister(): void {
		unregisterApiProviders(this.sourceId);
	}

	/** The stream function; usable directly as an agent's `streamFn`. */
	readonly stream = (model: Model, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream => {
		const request: FauxRequest = {
			model,
			context: {
				systemPrompt: context.systemPrompt,
				messages: structuredClone(context.messages),
				tools: (context.tools ?? []).map((tool) => ({
					name: tool.name,
					description: tool.description,
					parameters: structuredClone(tool.parameters),
				})),
			},
			options,
		};
		this.requests.push(request);
		const script = this.queue.shift();
		const output = new AssistantMessageEventStream();
		void this.play(script, request, model, options?.signal, output);
		return output;
	};

	private async play(
		script: FauxScript | undefined,
		request: FauxRequest,
		model: Model,
		signal: AbortSignal | undefined,
		stream: AssistantMessageEventStream,
	): Promise<void> {
		const output = createAssistantOutput(model);
		try {
			// Always asynchronous, like a real network call, so consumers can attach first.
			await new Promise<void>((resolve) => setImmediate(resolve));
			if (!script) throw new Error("Faux provider: no scripted response left in the queue");
			const response = typeof script === "function" ? await script(request) : script;
			if (response.delayMs) await wait(response.delayMs, signal);
			if (signal?.aborted) throw abortError();

			const blocks = response.content ?? [];
			if (response.errorMessage !== undefined && blocks.length === 0) {
				this.fillUsage(output, request, model, response);
				throw new Error(response.errorMessage);
			}

			stream.push({ type: "start", partial: output });
			for (const block of blocks) await this.streamBlock(block, output, stream, response, signal);
			if (response.holdUntil) await waitFor(response.holdUntil, signal);

			this.fillUsage(output, request, model, response);
			if (response.errorMessage !== undefined) throw new Error(response.errorMessage);
			const hasToolCalls = output.content.some((block) => block.type === "toolCall");
			output.stopReason = response.stopReason ?? (hasToolCalls ? "toolUse" : "stop");
			if (output.stopReason === "error" || output.stopReason === "aborted") {
				output.errorMessage = output.errorMessage ?? "Faux provider: scripted failure";
			}
			finishStream(stream, output);
		} catch (error) {
			failStream(stream, output, error, signal);
		}
	}

	private async streamBlock(
		block: FauxBlock,
		output: AssistantMessage,
		stream: AssistantMessageEventStream,
		response: FauxResponse,
		signal: AbortSignal | undefined,
	): Promise<void> {
		const size = response.chunkSize ?? DEFAULT_CHUNK;
		const pause = async () => {
			if (response.chunkDelayMs) await wait(response.chunkDelayMs, signal);
			else await Promise.resolve();
			if (signal?.aborted) throw abortError();
		};
		const contentIndex = output.content.length;

		if (block.type === "text") {
			const content: TextContent = { type: "text", text: "" };
			output.content.push(content);
			stream.push({ type: "text_start", contentIndex, partial: output });
			for (const delta of chunks(block.text, size)) {
				await pause();
				content.text += delta;
				stream.push({ type: "text_delta", contentIndex, delta, partial: output });
			}
			stream.push({ type: "text_end", contentIndex, content: content.text, partial: output });
			return;
		}

		if (block.type === "thinking") {
			const content: ThinkingContent = { type: "thinking", thinking: "" };
			if (block.redacted) content.redacted = true;
			output.content.push(content);
			stream.push({ type: "thinking_start", contentIndex, partial: output });
			for (const delta of chunks(block.thinking, size)) {
				await pause();
				content.thinking += delta;
				stream.push({ type: "thinking_delta", contentIndex, delta, partial: output });
			}
			if (block.thinkingSignature !== undefined) content.thinkingSignature = block.thinkingSignature;
			stream.push({ type: "thinking_end", contentIndex, content: content.thinking, partial: output });
			return;
		}

		this.toolCallCounter += 1;
		const toolCall: ToolCall = {
			type: "toolCall",
			id: block.id ?? `faux_call_${this.toolCallCounter}`,
			name: block.name,
			arguments: {},
		};
		output.content.push(toolCall);
		stream.push({ type: "toolcall_start", contentIndex, partial: output });
		let json = "";
		for (const delta of chunks(JSON.stringify(block.arguments), size)) {
			await pause();
			json += delta;
			toolCall.arguments = parseStreamingJson(json);
			stream.push({ type: "toolcall_delta", contentIndex, delta, partial: output });
		}
		toolCall.arguments = structuredClone(block.arguments);
		if (block.invalidArguments !== undefined) toolCall.invalidArguments = block.invalidArguments;
		stream.push({ type: "toolcall_end", contentIndex, toolCall, partial: output });
	}

	private fillUsage(output: AssistantMessage, request: FauxRequest, model: Model, response: FauxResponse): void {
		const promptText = [request.context.systemPrompt ?? "", ...request.context.messages.map(messageText)].join("");
		const outputText = messageText(output);
		const usage = output.usage;
		usage.input = response.usage?.input ?? estimateTokens(promptText);
		usage.output = response.usage?.output ?? estimateTokens(outputText);
		usage.cacheRead = response.usage?.cacheRead ?? 0;
		usage.cacheWrite = response.usage?.cacheWrite ?? 0;
		usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
		calculateCost(model, usage);
	}
}

// Small builders for the common replies.

export function fauxText(text: string, extra: Omit<FauxResponse, "content"> = {}): FauxResponse {
	return { content: [{ type: "text", text }], ...extra };
}

export function fauxToolCall(
	name: string,
	args: Record<string, unknown>,
	extra: Omit<FauxResponse, "content"> & { id?: string } = {},
): FauxResponse {
	const { id, ...rest } = extra;
	return { content: [{ type: "toolCall", name, arguments: args, ...(id ? { id } : {}) }], ...rest };
}

export function fauxError(errorMessage: string, extra: Omit<FauxResponse, "errorMessage"> = {}): FauxResponse {
	return { errorMessage, ...extra };
}

/** A fresh registered faux provider. Call `unregister()` when done. */
export function createFauxProvider(options: FauxProviderOptions = {}): FauxProvider {
	return new FauxProvider(options).register();
}
