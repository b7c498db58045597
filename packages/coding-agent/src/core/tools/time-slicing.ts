import { OPERATION_ABORTED } from "./abort.js";

/** Longest stretch of synchronous work before the event loop gets a turn. */
const SLICE_MS = 10;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Calls `step` until `hasMore()` is false, in slices of about 10ms with a turn of the event loop between
 * them (so timers, streams and aborts keep working), rejecting `Operation aborted` when the signal fires.
 *
 * The built-in search engines read thousands of small files and directories. Node's asynchronous fs calls
 * cost several thread-pool round trips each, which made a 40,000-file search about seven times slower than
 * the same synchronous calls; slicing keeps the synchronous speed without blocking the process.
 */
export async function runInSlices(hasMore: () => boolean, step: () => void, signal?: AbortSignal): Promise<void> {
	while (hasMore()) {
		if (signal?.aborted) throw new Error(OPERATION_ABORTED);
		const deadline = performance.now() + SLICE_MS;
		do step();
		while (hasMore() && performance.now() < deadline);
		await yieldToEventLoop();
	}
	if (signal?.aborted) throw new Error(OPERATION_ABORTED);
}
