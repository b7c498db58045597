// Text of the common scripts and symbols is split into grapheme clusters without Intl.Segmenter (whose first
// instance costs ~20 ms at start-up); the split must be the one ICU's segmenter gives, for any code point next to
// any other.
import { splitGraphemes, visibleWidth } from "@agent/tui";
import { afterEach, describe, expect, it, vi } from "vitest";

const icu = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const icuSplit = (text: string) => Array.from(icu.segment(text), ({ segment }) => segment);

describe("splitting text into grapheme clusters", () => {
	it("splits as ICU does, every BMP code point before, after and beside itself", () => {
		const mismatches: string[] = [];
		for (let codePoint = 0; codePoint <= 0xffff; codePoint++) {
			const char = String.fromCharCode(codePoint);
			for (const text of [`${char}a`, `a${char}`, char + char]) {
				const ours = splitGraphemes(text);
				const expected = icuSplit(text);
				if (ours.join("\u0000") !== expected.join("\u0000"))
					mismatches.push(`U+${codePoint.toString(16)} in ${JSON.stringify(text)}`);
			}
		}
		expect(mismatches.slice(0, 10)).toEqual([]);
	});

	it("splits clusters that join code points with the segmenter", () => {
		expect(splitGraphemes("a👨‍👩‍👧─e\u0301🇯🇵")).toEqual(["a", "👨‍👩‍👧", "─", "e\u0301", "🇯🇵"]);
		expect(visibleWidth("─👍🏽│")).toBe(4);
	});
});

describe("the editor's kind of text", () => {
	const Segmenter = Intl.Segmenter;
	// TypeScript declares it read-only; at run time it is an ordinary writable property.
	const setSegmenter = (value: typeof Intl.Segmenter) => Object.defineProperty(Intl, "Segmenter", { value });
	afterEach(() => {
		setSegmenter(Segmenter);
		vi.resetModules();
	});

	it("is measured without creating a segmenter", async () => {
		let created = 0;
		setSegmenter(
			class extends Segmenter {
				constructor(...args: ConstructorParameters<typeof Intl.Segmenter>) {
					super(...args);
					created++;
				}
			},
		);
		vi.resetModules();
		const tui = await import("@agent/tui");
		const frame = "╭─ agent ─╮ │ › écrire → ⏎ • 漢字 ｱｲｳ ✔ ┃ ▌ …";
		const width = icuSplit(frame).reduce((sum, grapheme) => sum + tui.graphemeWidth(grapheme), 0);
		expect(tui.visibleWidth(`\x1b[1m${frame}\x1b[0m`)).toBe(width);
		expect(tui.splitGraphemes(frame)).toHaveLength(frame.length);
		expect(created).toBe(0);
		expect(tui.visibleWidth("e\u0301")).toBe(1);
		expect(created).toBe(1);
	});
});
