// extractRetryDelay: how long Google asked us to wait, in milliseconds, from the response's headers or its error text.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { extractRetryDelay } from "../src/index.js";

describe("from the error text", () => {
	it("reads 'Your quota will reset after' in seconds and in hours, minutes and seconds", () => {
		expect(extractRetryDelay("Your quota will reset after 39s.")).toBe(39_000);
		expect(extractRetryDelay("Your quota will reset after 18h31m10s.")).toBe((18 * 3600 + 31 * 60 + 10) * 1000);
		expect(extractRetryDelay("quota will reset after 2m")).toBe(120_000);
	});

	it("reads 'Please retry in' given in seconds or milliseconds", () => {
		expect(extractRetryDelay("Please retry in 12.5s")).toBe(12_500);
		expect(extractRetryDelay("Please retry in 250ms")).toBe(250);
	});

	it("reads a RetryInfo retryDelay field, rounding up to whole milliseconds", () => {
		const body = JSON.stringify({ error: { details: [{ retryDelay: "34.074824224s" }] } });
		expect(extractRetryDelay(body)).toBe(34_075);
	});

	it("is undefined when the text holds no hint", () => {
		expect(extractRetryDelay("429 Resource has been exhausted")).toBeUndefined();
		expect(extractRetryDelay("")).toBeUndefined();
	});
});

describe("from the headers", () => {
	beforeEach(() => {
		vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z") });
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it("prefers Retry-After (seconds or an HTTP date) over the body", () => {
		expect(extractRetryDelay("Please retry in 99s", new Headers({ "retry-after": "7" }))).toBe(7000);
		const date = new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" });
		expect(extractRetryDelay("", date)).toBe(30_000);
	});

	it("reads x-ratelimit-reset-after in seconds and x-ratelimit-reset as an epoch time", () => {
		expect(extractRetryDelay("", new Headers({ "x-ratelimit-reset-after": "3" }))).toBe(3000);
		const epoch = Date.parse("2026-01-01T00:01:00Z") / 1000;
		expect(extractRetryDelay("", new Headers({ "x-ratelimit-reset": String(epoch) }))).toBe(60_000);
	});

	it("takes a Response's headers, and falls back to the body when they hold no hint", () => {
		const response = new Response("", { status: 429, headers: { "retry-after": "5" } });
		expect(extractRetryDelay("", response)).toBe(5000);
		const bare = new Response("", { status: 429 });
		expect(extractRetryDelay("Please retry in 2s", bare)).toBe(2000);
	});
});
