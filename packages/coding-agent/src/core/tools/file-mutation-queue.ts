import { realpathSync } from "node:fs";
import { resolve } from "node:path";

const tails = new Map<string, Promise<unknown>>();

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
 */
export async function withFileMutationQueue<T>(path: string, mutation: () => Promise<T>): Promise<T> {
	const key = queueKey(path);
	const previous = tails.get(key) ?? Promise.resolve();
	const run = previous.then(mutation, mutation);
	const tail = run.catch(() => {});
	tails.set(key, tail);
	try {
		return await run;
	} finally {
		if (tails.get(key) === tail) tails.delete(key);
	}
}
