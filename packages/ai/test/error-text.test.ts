import { describe, expect, it } from "vitest";
import { messageWithCauses, retryAfterSeconds, retryAfterSuffix } from "../src/providers/error-text.js";

describe("retryAfterSeconds", () => {
	const now = Date.parse("2026-11-21T10:00:00Z");
	it.each([
		["retry-after-ms wins over retry-after", { "retry-after-ms": "250", "retry-after": "30" }, 0.25],
		["retry-after in seconds", { "retry-after": "30" }, 30],
		["retry-after as an HTTP date in the future", { "retry-after": "Sat, 21 Nov 2026 10:00:45 GMT" }, 45],
		["an HTTP date in the past is no hint", { "retry-after": "Sat, 21 Nov 2026 09:59:00 GMT" }, undefined],
		["zero is no hint", { "retry-after": "0" }, undefined],
		["garbage is no hint", { "retry-after": "soon" }, undefined],
		["no headers", undefined, undefined],
	])("%s", (_name, headers, expected) => {
		expect(retryAfterSeconds(headers, now)).toBe(expected);
	});

	it("reads a fetch Headers object", () => {
		expect(retryAfterSeconds(new Headers({ "Retry-After": "7" }), now)).toBe(7);
	});
});

describe("retryAfterSuffix", () => {
	it("rounds up to whole seconds and is empty without a hint", () => {
		expect(retryAfterSuffix(0.25)).toBe(" (retry after 1s)");
		expect(retryAfterSuffix(20)).toBe(" (retry after 20s)");
		expect(retryAfterSuffix(undefined)).toBe("");
	});
});

describe("messageWithCauses", () => {
	it("appends distinct cause messages in order", () => {
		const error = new Error("terminated", {
			cause: new Error("other side closed", { cause: new Error("ECONNRESET") }),
		});
		expect(messageWithCauses(error)).toBe("terminated (other side closed: ECONNRESET)");
	});
});
