import type OpenAI from "openai";
import { AssistantMessageEventStream } from "../../event-stream.js";
import type { AssistantMessage, Context, Model, StreamOptions } from "../../types.js";
import { createAssistantOutput, failStream, finishStream } from "../assistant-output.js";
import { resolveOpenAIApiKey } from "./api-key.js";
import { createOpenAIClient } from "./client.js";
import { describeOpenAIError } from "./error-message.js";

export const ABORTED_MESSAGE = "Request was aborted";
export const UNKNOWN_ERROR_MESSAGE = "An unknown error occurred";

/** Turns wire events into assistant-message events for one response. */
export interface StreamEventProcessor<TEvent> {
	handle(event: TEvent): void;
	/** Called once the wire stream ended normally: closes open blocks, settles the stop reason. */
	finish(): void;
	/** Called when the response failed: leaves open blocks as plain data for the error message, emitting nothing. */
	abandon(): void;
	/** Why the response ended in `error` when the server said so without an error event (e.g. a content filter). */
	readonly failureReason?: string;
}

export interface OpenAIStreamRun<TPayload, TEvent> {
	model: Model;
	context: Context;
	options: StreamOptions | undefined;
	buildPayload: () => TPayload;
	/** Issues the request; resolves once the response stream is open (HTTP headers received). */
	open: (client: OpenAI, payload: TPayload, signal: AbortSignal | undefined) => Promise<AsyncIterable<TEvent>>;
	createProcessor: (output: AssistantMessage, stream: AssistantMessageEventStream) => StreamEventProcessor<TEvent>;
}

/**
 * The skeleton every OpenAI-family call follows (spec ai §3): output created before any I/O, payload
 * hook, `start` once the response stream is open, and every failure encoded in the stream, never thrown.
 */
export function runOpenAIStream<TPayload, TEvent>(run: OpenAIStreamRun<TPayload, TEvent>): AssistantMessageEventStream {
	const stream = new AssistantMessageEventStream();
	const output = createAssistantOutput(run.model);
	void execute(run, output, stream);
	return stream;
}

async function execute<TPayload, TEvent>(
	run: OpenAIStreamRun<TPayload, TEvent>,
	output: AssistantMessage,
	stream: AssistantMessageEventStream,
): Promise<void> {
	const { model, options } = run;
	const signal = options?.signal;
	let processor: StreamEventProcessor<TEvent> | undefined;
	try {
		const apiKey = resolveOpenAIApiKey(model, options?.apiKey);
		let payload = run.buildPayload();
		if (options?.onPayload) {
			const replaced = await options.onPayload(payload, model);
			if (replaced !== undefined) payload = replaced as TPayload;
		}
		const client = createOpenAIClient({ model, apiKey, context: run.context, headers: options?.headers });
		const events = await run.open(client, payload, signal);
		stream.push({ type: "start", partial: output });

		processor = run.createProcessor(output, stream);
		for await (const event of events) {
			if (signal?.aborted) break;
			processor.handle(event);
		}
		// The SDK ends the iteration quietly when the request is aborted mid-stream.
		if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
		processor.finish();
		if (output.stopReason === "error" || output.stopReason === "aborted") {
			throw new Error(processor.failureReason ?? UNKNOWN_ERROR_MESSAGE);
		}
		finishStream(stream, output);
	} catch (error) {
		processor?.abandon();
		const message = signal?.aborted ? ABORTED_MESSAGE : describeOpenAIError(error);
		failStream(stream, output, new Error(message), signal);
	}
}
