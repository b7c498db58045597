// The read tool pages a file from its bytes as they stream past (TextPageScanner) instead of decoding the
// whole file; the page must be exactly what the whole-text computation (formatTextPage) gives.
import { formatTextPage, truncateHead } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import { renderTextPage } from "../../src/core/tools/read.js";
import { TextPageScanner } from "../../src/core/tools/text-page-scanner.js";

/** Pages `bytes` fed in pieces at `cuts`, with a small budget so truncation paths are reached. */
function scan(bytes: Buffer, cuts: number[], offset: number | undefined, limit: number | undefined, budget: Budget) {
	const scanner = new TextPageScanner({ offset, limit, ...budget });
	let previous = 0;
	for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
		scanner.push(bytes.subarray(previous, cut));
		previous = cut;
	}
	scanner.push(bytes.subarray(previous));
	return scanner.end();
}

interface Budget {
	maxLines: number;
	maxBytes: number;
}

function outcome<T>(run: () => T): { value: T } | { error: string } {
	try {
		return { value: run() };
	} catch (error) {
		return { error: (error as Error).message };
	}
}

const piece = fc.oneof(
	fc.string({ unit: "grapheme", maxLength: 6 }),
	fc.constantFrom("\n", "\n\n", "é", "中文", "😀", "\r\n"),
	fc.uint8Array({ maxLength: 4 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
);
// Raw bytes: valid UTF-8 text mixed with arbitrary bytes (invalid sequences, split characters).
const fileBytes = fc
	.array(
		fc.oneof(
			piece.map((text) => Buffer.from(text, "utf8")),
			fc.uint8Array({ maxLength: 5 }).map(Buffer.from),
		),
		{
			maxLength: 30,
		},
	)
	.map((parts) => Buffer.concat(parts));

describe("paging a streamed file", () => {
	it("gives the same page, notice and details as paging the decoded text", () => {
		fc.assert(
			fc.property(
				fileBytes,
				fc.array(fc.nat(200), { maxLength: 6 }),
				fc.option(fc.integer({ min: -2, max: 40 }), { nil: undefined }),
				fc.option(fc.integer({ min: -1, max: 40 }), { nil: undefined }),
				fc.record({ maxLines: fc.integer({ min: 1, max: 8 }), maxBytes: fc.integer({ min: 1, max: 40 }) }),
				(bytes, cuts, offset, limit, budget) => {
					const streamed = outcome(() => scan(bytes, cuts, offset, limit, budget));
					// formatTextPage's computation on the decoded text, with the same small budget.
					const whole = outcome(() => referencePage(bytes.toString("utf8"), offset, limit, budget));
					if ("error" in whole) {
						expect(streamed).toEqual(whole);
						return;
					}
					expect("value" in streamed && streamed.value).toEqual(whole.value);
				},
			),
		);
	});

	it("renders exactly what formatTextPage renders with the default budget", () => {
		fc.assert(
			fc.property(
				fc.array(fc.oneof(fc.constantFrom("x".repeat(900), "é".repeat(700), "\n", "short"), piece), {
					maxLength: 200,
				}),
				fc.array(fc.nat(200_000), { maxLength: 8 }),
				fc.option(fc.integer({ min: 0, max: 150 }), { nil: undefined }),
				fc.option(fc.integer({ min: 0, max: 150 }), { nil: undefined }),
				(parts, cuts, offset, limit) => {
					const bytes = Buffer.from(parts.join(""), "utf8");
					const expected = outcome(() => formatTextPage(bytes.toString("utf8"), "f.txt", offset, limit));
					const actual = outcome(() =>
						renderTextPage(scan(bytes, cuts, offset, limit, { maxLines: 2000, maxBytes: 51200 }), "f.txt"),
					);
					expect(actual).toEqual(expected);
				},
			),
			{ numRuns: 60 },
		);
	});

	it("keeps a first line of 2 MB out of memory and reports its size", () => {
		const scanner = new TextPageScanner({});
		const chunk = Buffer.alloc(64 * 1024, "y");
		for (let i = 0; i < 32; i++) scanner.push(chunk);
		scanner.push(Buffer.from("\nsecond line"));
		const page = scanner.end();
		expect(page.truncation.firstLineExceedsLimit).toBe(true);
		expect(page.firstLineBytes).toBe(32 * 64 * 1024);
		expect(page.fileLines).toBe(2);
		expect(renderTextPage(page, "big.log").text).toBe(
			"[Line 1 is 2.0MB, exceeds 50.0KB limit. Use bash: sed -n '1p' big.log | head -c 51200]",
		);
	});
});

/** truncateHead-style paging of a decoded text with a given budget (formatTextPage's computation). */
function referencePage(text: string, offset: number | undefined, limit: number | undefined, budget: Budget) {
	const lines = text.split("\n");
	const startLine = offset ? Math.max(0, Math.floor(offset) - 1) : 0;
	if (startLine >= lines.length)
		throw new Error(`Offset ${offset} is beyond end of file (${lines.length} lines total)`);
	const endLine =
		limit !== undefined ? Math.min(startLine + Math.max(0, Math.floor(limit)), lines.length) : lines.length;
	return {
		fileLines: lines.length,
		startLine,
		endLine,
		truncation: truncateHead(lines.slice(startLine, endLine).join("\n"), budget),
		firstLineBytes: endLine > startLine ? Buffer.byteLength(lines[startLine], "utf8") : 0,
	};
}
