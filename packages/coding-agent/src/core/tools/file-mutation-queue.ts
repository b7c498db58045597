import { AsyncLocalStorage } from "node:async_hooks";
import { realpathSync } from "node:fs";
import { resolve } from "node:path";

const tails = new Map<string, Promise<unknown>>();
/** The files whose queue the current asynchronous context holds. */
const held = new AsyncLocalStorage<ReadonlySet<string>>();

function queueKey(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return resolve(path);
	}
}

/**
 * Runs mutations of one file one after another. Tools run in parallel; without this, two edits of the same
 * file in one turn would both read the old content and the second write would drop the first edit.
 * Re-entrant: a mutation that already holds the file's turn (file checkpoints wrap a tool's whole call to read
 * the file before and after it) runs its inner mutation at once instead of waiting for itself.
 */
export async function withFileMutationQueue<T>(path: string, mutation: () => Promise<T>): Promise<T> {
	const key = queueKey(path);
	const holding = held.getStore();
	if (holding?.has(key)) return mutation();
	const run = () => held.run(new Set([...(holding ?? []), key]), mutation);
	const previous = tails.get(key) ?? Promise.resolve();
	const result = previous.then(run, run);
	const tail = result.catch(() => {});
	tails.set(key, tail);
	try {
		return await result;
	} finally {
		if (tails.get(key) === tail) tails.delete(key);
	}
}
