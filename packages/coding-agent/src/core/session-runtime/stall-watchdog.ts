// Ends a model call whose provider stream has gone quiet, so a hung connection becomes a retryable failure
// instead of a session that waits forever. Wraps any stream function, so it works for every provider.
import type { StreamFn } from "@agent/agent-core";
import {
	type AssistantMessage,
	type AssistantMessageEvent,
	AssistantMessageEventStream,
	createAssistantOutput,
	type Model,
} from "@agent/ai";

export const DEFAULT_STREAM_STALL_TIMEOUT_MS = 120_000;

/** The failure a stalled call ends with; the retry policy treats it as transient. */
export function streamStalledText(timeoutMs: number): string {
	return `Stream stalled: no data from the provider for ${Math.round(timeoutMs / 1000)}s`;
}

/**
 * `streamFn` with a watchdog: when no event arrives for `timeoutMs` (from the call until its end, including
 * the wait for the first byte), the provider request is aborted and the call ends with an `error` whose
 * message is `streamStalledText(timeoutMs)`, keeping what was streamed so far. The caller's abort still
 * ends the call as `aborted`. `getTimeoutMs` is read per call; 0 or less disables the watchdog.
 */
export function withStallWatchdog(streamFn: StreamFn, getTimeoutMs: () => number): StreamFn {
	return async (model, context, options) => {
		const timeoutMs = getTimeoutMs();
		if (!(timeoutMs > 0)) return streamFn(model, context, options);

		const providerAbort = new AbortController();
		const callerSignal = options?.signal;
		const forwardAbort = () => providerAbort.abort(callerSignal?.reason);
		if (callerSignal?.aborted) forwardAbort();
		else callerSignal?.addEventListener("abort", forwardAbort, { once: true });

		const output = new AssistantMessageEventStream();
		let lastPartial: AssistantMessage | undefined;
		let finished = false;
		let timer: NodeJS.Timeout | undefined;
		const finish = () => {
			finished = true;
			if (timer) clearTimeout(timer);
			callerSignal?.removeEventListener("abort", forwardAbort);
		};
		const onStall = () => {
			if (finished) return;
			finish();
			providerAbort.abort(new Error(streamStalledText(timeoutMs)));
			const failed: AssistantMessage = {
				...(lastPartial ?? createAssistantOutput(model as Model)),
				stopReason: "error",
				errorMessage: streamStalledText(timeoutMs),
			};
			failed.content = [...failed.content];
			output.push({ type: "error", reason: "error", error: failed });
			output.end();
		};
		// Re-armed on every stream event: refresh() restarts the timer without allocating a new one.
		const arm = () => {
			if (timer) timer.refresh();
			else timer = setTimeout(onStall, timeoutMs);
		};

		arm();
		let inner: Awaited<ReturnType<StreamFn>>;
		try {
			inner = await streamFn(model, context, { ...options, signal: providerAbort.signal });
		} catch (error) {
			// Failures before the stream exists (no API key, …) stay failures of the call itself.
			finish();
			throw error;
		}
		if (finished) return output;
		void forwardEvents(inner);
		return output;

		async function forwardEvents(source: Awaited<ReturnType<StreamFn>>): Promise<void> {
			try {
				for await (const event of source as AsyncIterable<AssistantMessageEvent>) {
					if (finished) return;
					arm();
					if (event.type === "done" || event.type === "error") {
						finish();
						output.push(event);
						output.end();
						return;
					}
					lastPartial = event.partial;
					output.push(event);
				}
				if (finished) return;
				// Ended without a terminal event: pass on a result only if one is already settled, as the loop
				// itself would; never wait for one that may not come.
				const settled = await Promise.race([
					source.result(),
					new Promise<undefined>((resolve) => setImmediate(resolve, undefined)),
				]);
				if (finished) return;
				finish();
				output.end(settled);
			} catch (error) {
				if (finished) return;
				finish();
				const aborted = callerSignal?.aborted === true;
				const failed: AssistantMessage = {
					...(lastPartial ?? createAssistantOutput(model as Model)),
					stopReason: aborted ? "aborted" : "error",
					errorMessage: error instanceof Error ? error.message : String(error),
				};
				failed.content = [...failed.content];
				output.push({ type: "error", reason: aborted ? "aborted" : "error", error: failed });
				output.end();
			}
		}
	};
}
