// Memory of a reply that never ends: a local server streams text deltas as fast as each adapter reads, and
// the default reply size limit (DEFAULT_MAX_REPLY_BYTES, 64 MiB) must cut it; one endless line without a
// newline is cut at 8 MiB by the line limit (the SDKs' line decoders are quadratic in a line's length).
// Before the limits, an endless Anthropic stream reached 2.2 GB in 33 s. The figure is the peak resident-set
// growth during one cut reply (events consumed as the agent does), sampled every 10 ms.
import { expect, it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";
import { DEFAULT_MAX_REPLY_BYTES, stream } from "../src/index.js";
import type { Context } from "../src/types.js";
import { encodeChunks, formatSseChunk } from "../test/helpers/fake-server.js";
import { PROVIDER_DIALECTS, type ProviderDialect } from "../test/helpers/provider-dialects.js";
import { useFakeServer } from "../test/helpers/provider-test-harness.js";

const server = useFakeServer();
const context: Context = { messages: [{ role: "user", content: "never stop", timestamp: 1 }] };
const MB = 1024 * 1024;
/** Peak growth allowed at the 64 MiB limit: the body buffered as text a few times over, never unbounded. */
const PEAK_GROWTH_TARGET_MB = 1024;

async function measure(
	dialect: ProviderDialect,
	head: string | Buffer,
	chunk: string | Buffer,
	expected: RegExp,
): Promise<{ peakMb: number; ms: number }> {
	globalThis.gc?.();
	const base = process.memoryUsage.rss();
	let peak = base;
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage.rss());
	}, 10);
	const started = performance.now();
	server.enqueue({ kind: "endless", head, chunk, headers: { "content-type": dialect.contentType } });
	const events = stream(dialect.model(server.url), context, { apiKey: "k" });
	for await (const _event of events) {
		// consumed, as the agent loop does
	}
	const reply = await events.result();
	const ms = performance.now() - started;
	clearInterval(sampler);
	peak = Math.max(peak, process.memoryUsage.rss());
	expect(reply.stopReason).toBe("error");
	expect(reply.errorMessage).toMatch(expected);
	return { peakMb: (peak - base) / MB, ms };
}

it("an endless reply is cut at the default limit with bounded memory, for every API", async () => {
	const figures = [];
	for (const dialect of PROVIDER_DIALECTS) {
		const start = encodeChunks(dialect.textStart("Hello"));
		// Deltas of a few hundred characters: per-event SDK work (Gemini's is ~0.3 ms) stays a small share.
		const delta = Buffer.from(
			formatSseChunk(dialect.textDelta("All work and no play makes Jack a dull boy. ".repeat(10))),
		);
		const deltas = Buffer.concat(Array(40).fill(delta));
		const events = await measure(dialect, start, deltas, /reply size limit of 64 MiB/);
		const runs: [string, { peakMb: number; ms: number }, string][] = [
			["text deltas", events, `${DEFAULT_MAX_REPLY_BYTES / MB} MiB`],
		];
		// The line limit is SSE's; an AWS event stream declares each frame's length up front instead.
		if (dialect.contentType === "text/event-stream") {
			const head = Buffer.concat([start, Buffer.from("data: ")]);
			const line = await measure(dialect, head, "x".repeat(64 * 1024), /a line longer than 8 MiB/);
			runs.push(["one endless line", line, "8 MiB (line limit)"]);
		}
		for (const [label, result, limit] of runs) {
			figures.push({
				name: `${dialect.api}, ${label}: peak RSS growth`,
				value: result.peakMb,
				unit: "MB",
				target: { max: PEAK_GROWTH_TARGET_MB },
				note: `cut after ${(result.ms / 1000).toFixed(1)} s at ${limit}`,
			});
		}
	}
	reportBenchmark("ai-endless-reply", figures);
	for (const figure of figures) expect(figure.value).toBeLessThan(PEAK_GROWTH_TARGET_MB);
});
