import { formatSseChunk, type SseChunk } from "./fake-server.js";

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A whole SSE body rendered once, so the server's cost is the same for every run being compared. */
export function renderSse(chunks: SseChunk[]): string {
	return chunks.map(formatSseChunk).join("");
}

export interface Comparison {
	oursMs: number;
	rawMs: number;
	ratio: number;
}

/**
 * Times two ways of consuming the same response, alternating them so both see the same machine load:
 * `warmup` untimed rounds first, then `runs` timed rounds; medians are compared.
 */
export async function compareRuns(
	ours: () => Promise<unknown>,
	raw: () => Promise<unknown>,
	{ runs = 7, warmup = 2 } = {},
): Promise<Comparison> {
	for (let i = 0; i < warmup; i++) {
		await ours();
		await raw();
	}
	const oursTimes: number[] = [];
	const rawTimes: number[] = [];
	for (let i = 0; i < runs; i++) {
		let start = performance.now();
		await raw();
		rawTimes.push(performance.now() - start);
		start = performance.now();
		await ours();
		oursTimes.push(performance.now() - start);
	}
	const oursMs = median(oursTimes);
	const rawMs = median(rawTimes);
	return { oursMs, rawMs, ratio: oursMs / rawMs };
}
