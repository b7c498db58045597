// The reply guard's check of Bedrock's AWS event stream (src/providers/wire-formats.ts): frames are validated as
// their bytes pass, however the body is cut into chunks.

import { describe, expect, it } from "vitest";
import fc from "../../../scripts/fast-check.js";
import { MAX_FRAME_BYTES, WIRE_FORMATS } from "../src/providers/wire-formats.js";
import { bedrockEvent, framePrelude, messageStart, textDelta } from "./helpers/bedrock-eventstream.js";

const rules = WIRE_FORMATS["aws-eventstream"];

/** Feeds `body` cut at `cuts` (positions, any order) and returns the first problem reported. */
function feedInChunks(body: Buffer, cuts: number[]): string | undefined {
	const monitor = rules.createMonitor();
	const points = [...new Set(cuts.map((cut) => cut % (body.length + 1)))].sort((a, b) => a - b);
	let start = 0;
	for (const point of [...points, body.length]) {
		const problem = monitor.feed(body.subarray(start, point));
		if (problem) return problem;
		start = point;
	}
	return undefined;
}

const frames = fc
	.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 6 })
	.map((texts) => Buffer.concat([messageStart(), ...texts.map((text) => textDelta(0, text))]));

describe("AWS event-stream frames", () => {
	it("accepts valid frames however the body is chunked", () => {
		fc.assert(
			fc.property(frames, fc.array(fc.nat(), { maxLength: 20 }), (body, cuts) => {
				expect(feedInChunks(body, cuts)).toBeUndefined();
			}),
		);
	});

	it("reports any flipped byte in a frame's length, headers or payload, however the body is chunked", () => {
		fc.assert(
			fc.property(
				frames,
				fc.nat(),
				fc.integer({ min: 1, max: 255 }),
				fc.array(fc.nat(), { maxLength: 20 }),
				(body, at, mask, cuts) => {
					const corrupt = Buffer.from(body);
					corrupt[at % corrupt.length] ^= mask;
					expect(feedInChunks(corrupt, cuts)).toMatch(/^a frame (whose|with|longer)/);
				},
			),
		);
	});

	it("refuses a frame that declares more than the frame limit from its prelude alone", () => {
		expect(rules.createMonitor().feed(framePrelude(MAX_FRAME_BYTES + 1))).toBe(
			`a frame longer than 8 MiB (${MAX_FRAME_BYTES + 1} bytes)`,
		);
		expect(rules.createMonitor().feed(framePrelude(MAX_FRAME_BYTES - 1))).toBeUndefined();
	});

	it("tells frames from anything else by the first prelude", () => {
		expect(rules.sniff(bedrockEvent("ping", {}).subarray(0, 12), false)).toBe("event-stream");
		expect(rules.sniff(Buffer.from("<!doctype html>"), false)).toBe("not-event-stream");
		expect(rules.sniff(Buffer.from("{}"), false)).toBe("undecided");
		expect(rules.sniff(Buffer.from("{}"), true)).toBe("not-event-stream");
	});
});
