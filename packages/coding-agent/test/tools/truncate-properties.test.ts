import { truncateHead, truncateTail } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";

// Multi-byte characters and newlines mixed, so cuts land inside characters and lines.
const text = fc
	.array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 8 }), fc.constantFrom("中文", "😀", "é", "\n", "\n\n")), {
		maxLength: 60,
	})
	.map((parts) => parts.join(""));
const content = fc
	.array(fc.string({ unit: "grapheme", maxLength: 30 }), { maxLength: 60 })
	.map((parts) => parts.join("\n"));
const limits = fc.record({ maxLines: fc.integer({ min: 1, max: 30 }), maxBytes: fc.integer({ min: 1, max: 400 }) });

const isWellFormed = (value: string) => Buffer.from(value, "utf8").toString("utf8") === value;

describe("truncation properties", () => {
	it("truncateHead honours both limits, keeps a line prefix and valid UTF-8", () => {
		fc.assert(
			fc.property(fc.oneof(content, text), limits, (input, options) => {
				const result = truncateHead(input, options);
				expect(result.outputLines).toBeLessThanOrEqual(options.maxLines);
				expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(options.maxBytes);
				expect(result.outputBytes).toBe(Buffer.byteLength(result.content));
				expect(isWellFormed(result.content)).toBe(true);
				if (result.outputLines > 0) {
					expect(input.split("\n").slice(0, result.outputLines).join("\n")).toBe(result.content);
				}
			}),
		);
	});

	it("truncateTail honours both limits, keeps a suffix and valid UTF-8", () => {
		fc.assert(
			fc.property(fc.oneof(content, text), limits, (input, options) => {
				const result = truncateTail(input, options);
				expect(result.outputLines).toBeLessThanOrEqual(options.maxLines);
				expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(options.maxBytes);
				expect(isWellFormed(result.content)).toBe(true);
				expect(input.endsWith(result.content)).toBe(true);
				if (!result.lastLinePartial && result.outputLines > 0) {
					expect(input.split("\n").slice(-result.outputLines).join("\n")).toBe(result.content);
				}
			}),
		);
	});

	it("returns input within the limits unchanged (round trip)", () => {
		fc.assert(
			fc.property(fc.oneof(content, text), (input) => {
				const options = { maxLines: input.split("\n").length, maxBytes: Buffer.byteLength(input) };
				for (const result of [truncateHead(input, options), truncateTail(input, options)]) {
					expect(result.truncated).toBe(false);
					expect(result.content).toBe(input);
				}
			}),
		);
	});

	it("marks a result truncated exactly when the input exceeds a limit", () => {
		fc.assert(
			fc.property(fc.oneof(content, text), limits, (input, options) => {
				const over = input.split("\n").length > options.maxLines || Buffer.byteLength(input) > options.maxBytes;
				expect(truncateHead(input, options).truncated).toBe(over);
				expect(truncateTail(input, options).truncated).toBe(over);
			}),
		);
	});
});
