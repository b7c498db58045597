import { describe, expect, it } from "vitest";
import { EventStream } from "../src/event-stream.js";

function numberStream() {
	return new EventStream<number, number>(
		(n) => n < 0,
		(n) => -n,
	);
}

describe("EventStream", () => {
	it("delivers queued and later events in order, then stops at the terminal event", async () => {
		const stream = numberStream();
		stream.push(1);
		setTimeout(() => {
			stream.push(2);
			stream.push(-3);
			stream.push(4); // ignored: already done
		}, 0);
		const seen: number[] = [];
		for await (const n of stream) seen.push(n);
		expect(seen).toEqual([1, 2, -3]);
		await expect(stream.result()).resolves.toBe(3);
	});

	it("end() releases a waiting consumer and resolves the given result", async () => {
		const stream = numberStream();
		const consumed = (async () => {
			const seen: number[] = [];
			for await (const n of stream) seen.push(n);
			return seen;
		})();
		stream.end(42);
		await expect(consumed).resolves.toEqual([]);
		await expect(stream.result()).resolves.toBe(42);
	});
});
