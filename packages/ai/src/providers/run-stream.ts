import { AssistantMessageEventStream } from "../event-stream.js";
import type { AssistantMessage, Model, StreamOptions } from "../types.js";
import { createAssistantOutput, failStream, finishStream } from "./assistant-output.js";
import { type Fetch, ReplyGuard } from "./reply-guard.js";
import { replyLimitsOf } from "./reply-limits.js";
import {
	ABORTED_MESSAGE,
	malformedEventMessage,
	malformedEventStreamMessage,
	ReplyGuardError,
	streamEndedEarlyMessage,
	UNKNOWN_ERROR_MESSAGE,
	WireProtocolError,
} from "./stream-errors.js";
import { markCallCutByOutputLimit } from "./tool-arguments.js";
import type { WireFormat } from "./wire-formats.js";

/** Turns one API's wire events into assistant-message events for one reply. */
export interface StreamEventProcessor<TEvent> {
	/** Folds one wire event in; throws WireProtocolError for an event the protocol does not allow here. */
	handle(event: TEvent): void;
	/** True once the API's terminal event arrived; a reply without it is unfinished, whatever it holds. */
	readonly isComplete: boolean;
	/** That terminal event, as named in the error for a body that ended without it (e.g. `message_stop`). */
	readonly terminalEvent: string;
	/** Called once a complete reply's events are all in: closes open blocks, settles the stop reason. */
	finish(): void;
	/** Called when the reply failed: leaves open blocks as data for the error message (open calls marked invalid). */
	abandon(): void;
	/** Why the reply ended in `error` when the server said so without an error event (e.g. a content filter). */
	readonly failureReason?: string;
}

/** What an adapter's request needs from the transport: the guarded fetch and the signal to give its SDK. */
export interface ProviderTransport {
	fetch: Fetch;
	/**
	 * The request's own signal: aborted when the caller's is, and when the request ends before its reply was read
	 * to the end. SDKs get this one, never the caller's, which may outlive many requests (an agent run) and would
	 * collect a listener per request.
	 */
	signal: AbortSignal;
	/** Runs `callback` once the request is over (the reply read, failed or aborted, the connection closed). */
	whenOver(callback: () => void): void;
}

/** One prepared request: its payload (before `onPayload`), how to send it, how to read the reply. */
export interface ProviderCall<TPayload, TEvent> {
	payload: TPayload;
	/** Issues the request through the SDK; resolves once the response stream is open (HTTP headers received). */
	send(payload: TPayload, transport: ProviderTransport): Promise<AsyncIterable<TEvent>>;
	createProcessor(output: AssistantMessage, stream: AssistantMessageEventStream): StreamEventProcessor<TEvent>;
}

export interface ProviderStream<TPayload, TEvent> {
	model: Model;
	options: StreamOptions | undefined;
	/** Resolves credentials and builds the payload; a throw (no key) ends the stream with that error. */
	prepare(): ProviderCall<TPayload, TEvent> | Promise<ProviderCall<TPayload, TEvent>>;
	/** The API's text for an SDK error (HTTP status, provider text, retry hint). */
	describeError(error: unknown): string;
	/** How a successful reply is framed; server-sent events unless the API says otherwise (Bedrock). */
	wireFormat?: WireFormat;
}

/**
 * The one stream loop every built-in adapter runs: output created before any I/O, payload hook,
 * `start` once the response stream is open, every failure encoded in the stream and never thrown. On top of the
 * reference, a reply counts as finished only when the API's terminal event arrived, the transport is guarded
 * (ReplyGuard: limits, redirects, wire format), and an abort or failure leaves the loop at once and closes
 * the request.
 */
export function runProviderStream<TPayload, TEvent>(
	run: ProviderStream<TPayload, TEvent>,
): AssistantMessageEventStream {
	const stream = new AssistantMessageEventStream();
	const output = createAssistantOutput(run.model);
	void execute(run, output, stream);
	return stream;
}

async function execute<TPayload, TEvent>(
	run: ProviderStream<TPayload, TEvent>,
	output: AssistantMessage,
	stream: AssistantMessageEventStream,
): Promise<void> {
	const { model, options } = run;
	const signal = options?.signal;
	const guard = new ReplyGuard(replyLimitsOf(options), run.wireFormat);
	const whenOver: (() => void)[] = [];
	let processor: StreamEventProcessor<TEvent> | undefined;
	try {
		const call = await run.prepare();
		let payload = call.payload;
		if (options?.onPayload) {
			const replaced = await options.onPayload(payload, model);
			if (replaced !== undefined) payload = replaced as TPayload;
		}
		if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
		guard.start();
		guard.follow(signal);
		const events = await call.send(payload, {
			fetch: guard.fetch,
			signal: guard.signal,
			whenOver: (callback) => whenOver.push(callback),
		});
		stream.push({ type: "start", partial: output });

		processor = call.createProcessor(output, stream);
		let handled = 0;
		for await (const event of events) {
			if (signal?.aborted || guard.failure) break;
			processor.handle(event);
			handled++;
		}
		// SDKs end their iteration quietly when the request is aborted mid-stream.
		if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
		if (guard.failure) throw guard.failure;
		if (!processor.isComplete) {
			throw handled === 0
				? new WireProtocolError("it carried none of the API's events")
				: new Error(streamEndedEarlyMessage(processor.terminalEvent));
		}
		processor.finish();
		markCallCutByOutputLimit(output);
		if (output.stopReason === "error" || output.stopReason === "aborted") {
			throw new Error(processor.failureReason ?? UNKNOWN_ERROR_MESSAGE);
		}
		finishStream(stream, output);
	} catch (error) {
		processor?.abandon();
		failStream(stream, output, new Error(failureMessage(error, run, guard)), signal);
	} finally {
		guard.close();
		for (const callback of whenOver) callback();
	}
}

function failureMessage<TPayload, TEvent>(
	error: unknown,
	run: ProviderStream<TPayload, TEvent>,
	guard: ReplyGuard,
): string {
	if (run.options?.signal?.aborted) return ABORTED_MESSAGE;
	// The guard's own failure wins over however the SDK wrapped it (connection error, abort, timeout).
	if (guard.failure) return guard.failure.message;
	if (error instanceof ReplyGuardError) return error.message;
	// The SDKs parse each event's data with JSON.parse; a SyntaxError is a malformed event.
	if (error instanceof SyntaxError) return malformedEventMessage(error.message);
	if (error instanceof WireProtocolError) {
		const summary = guard.summary();
		return summary ? malformedEventStreamMessage(summary, error.message) : error.message;
	}
	return run.describeError(error);
}
