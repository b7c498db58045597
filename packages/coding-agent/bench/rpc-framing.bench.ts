// RPC input framing: a long line (a prompt with a pasted screenshot) must be read in time linear in its
// length. Lines of 10 and 30 MB arrive in 64 KB chunks, as a pipe delivers them.
import { expect, it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";
import { JsonlLineSplitter } from "../src/modes/rpc/jsonl.js";

function timeLine(megabytes: number): number {
	const chunk = Buffer.alloc(64 * 1024, "x".charCodeAt(0));
	let received = 0;
	const splitter = new JsonlLineSplitter((line) => {
		received = line.length;
	});
	const started = performance.now();
	for (let i = 0; i < (megabytes * 1024 * 1024) / chunk.length; i++) splitter.push(chunk);
	splitter.push("\n");
	const elapsed = performance.now() - started;
	expect(received).toBe(megabytes * 1024 * 1024);
	return elapsed;
}

it("reads a long RPC line in time linear in its length", () => {
	timeLine(1); // warm-up
	const tenMb = timeLine(10);
	const thirtyMb = timeLine(30);
	reportBenchmark("rpc-framing", [
		{ name: "10 MB line", value: tenMb, unit: "ms" },
		{ name: "30 MB line", value: thirtyMb, unit: "ms" },
		{ name: "30 MB / 10 MB time", value: thirtyMb / tenMb, unit: "×", target: { max: 4 }, note: "3 when linear" },
	]);
});
