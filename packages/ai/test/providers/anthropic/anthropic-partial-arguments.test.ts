import { describe, expect, it } from "vitest";
import { REPARSE_EVERY_DELTA_UP_TO, StreamedArguments } from "../../../src/providers/anthropic/partial-arguments.js";
import { splitText } from "../../helpers/split-text.js";

describe("small arguments", () => {
	it("are re-parsed after every delta", () => {
		const args = new StreamedArguments();
		expect(args.append('{"path": "a.t')).toEqual({ path: "a.t" });
		expect(args.append('xt", "limit": 1')).toEqual({ path: "a.txt", limit: 1 });
		expect(args.append("0}")).toEqual({ path: "a.txt", limit: 10 });
		expect(args.json).toBe('{"path": "a.txt", "limit": 10}');
	});
});

describe("large arguments", () => {
	const content = "x".repeat(REPARSE_EVERY_DELTA_UP_TO * 4);
	const json = JSON.stringify({ path: "big.txt", content });

	it("skip re-parsing until nine times the last parse's duration has passed, and keep the whole text", () => {
		// A clock that advances 1 ms per reading: every parse "takes" 1 ms.
		let clock = 0;
		const args = new StreamedArguments(() => clock++);
		const results = splitText(json, 16).map((piece) => args.append(piece));
		const reparsed = results.filter((result) => result !== undefined);
		const largeAppends = results.length - Math.floor(REPARSE_EVERY_DELTA_UP_TO / 16);
		expect(reparsed.length).toBeLessThan(results.length);
		// Each re-parse is followed by skipped deltas while the clock catches up.
		expect(reparsed.length).toBeLessThan(Math.floor(REPARSE_EVERY_DELTA_UP_TO / 16) + largeAppends / 4);
		const lengths = reparsed.map((result) => String(result?.content ?? "").length);
		expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
		expect(args.json).toBe(json);
	});

	it("are re-parsed after every delta when deltas arrive slower than parsing", () => {
		// Parses "take" 1 ms; deltas arrive 100 ms apart, as at model speed.
		let clock = 0;
		const args = new StreamedArguments(() => clock++);
		const results = splitText(json, 16).map((piece) => {
			clock += 100;
			return args.append(piece);
		});
		expect(results.every((result) => result !== undefined)).toBe(true);
	});
});
