export const OPERATION_ABORTED = "Operation aborted";

/** Throws `Operation aborted` when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error(OPERATION_ABORTED);
}

/**
 * Runs `operation`, rejecting with `Operation aborted` as soon as the signal fires (the operation itself
 * may still be settling; its result is then ignored).
 */
export async function runAbortable<T>(signal: AbortSignal | undefined, operation: () => Promise<T>): Promise<T> {
	throwIfAborted(signal);
	if (!signal) return operation();
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(new Error(OPERATION_ABORTED));
		signal.addEventListener("abort", onAbort, { once: true });
	});
	try {
		return await Promise.race([operation(), aborted]);
	} finally {
		if (onAbort) signal.removeEventListener("abort", onAbort);
	}
}
