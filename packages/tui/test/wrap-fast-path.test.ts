import { wrapTextWithAnsi } from "@agent/tui";
import { describe, expect, it } from "vitest";
import fc from "../../../scripts/fast-check.js";

describe("plain ASCII wrapping", () => {
	it("gives the same lines as the styled wrapping path", () => {
		// A zero-width style sequence at the start forces the general (styled) path for comparison.
		const reference = (text: string, width: number) =>
			wrapTextWithAnsi(`\x1b[39m${text}`, width).map((line) => line.replace("\x1b[39m", ""));
		fc.assert(
			fc.property(fc.stringMatching(/^[a-z ]{0,60}$/), fc.integer({ min: 1, max: 20 }), (text, width) => {
				expect(wrapTextWithAnsi(text, width)).toEqual(reference(text, width));
			}),
			{ numRuns: 500 },
		);
	});
});
