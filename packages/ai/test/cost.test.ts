import { describe, expect, it } from "vitest";
import fc from "../../../scripts/fast-check.js";
import { calculateCost, emptyUsage, getModel, type Usage } from "../src/index.js";

const sonnetPrices = { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };

function usage(tokens: Partial<Omit<Usage, "cost" | "totalTokens">>): Usage {
	return { ...emptyUsage(), ...tokens };
}

describe("calculateCost per component", () => {
	it("prices each token kind at its per-million rate", () => {
		const cost = calculateCost(
			sonnetPrices,
			usage({ input: 1_000_000, output: 2_000_000, cacheRead: 500_000, cacheWrite: 4_000 }),
		);
		expect(cost.input).toBeCloseTo(3, 12);
		expect(cost.output).toBeCloseTo(30, 12);
		expect(cost.cacheRead).toBeCloseTo(0.15, 12);
		expect(cost.cacheWrite).toBeCloseTo(0.015, 12);
		expect(cost.total).toBeCloseTo(33.165, 12);
	});

	it("prices a typical single turn in fractions of a cent", () => {
		const cost = calculateCost(sonnetPrices, usage({ input: 1234, output: 567 }));
		expect(cost.input).toBeCloseTo(0.003702, 12);
		expect(cost.output).toBeCloseTo(0.008505, 12);
		expect(cost.total).toBeCloseTo(0.012207, 12);
	});

	it("is zero for a free model", () => {
		const free = getModel("opencode", "big-pickle");
		expect(free).toBeDefined();
		if (!free) return;
		expect(calculateCost(free, usage({ input: 10_000, output: 10_000 })).total).toBe(0);
	});

	it("fills and returns the usage's own cost object", () => {
		const tokens = usage({ input: 10 });
		expect(calculateCost(sonnetPrices, tokens)).toBe(tokens.cost);
		expect(tokens.cost.input).toBeGreaterThan(0);
	});

	it("overwrites a previous calculation instead of adding to it", () => {
		const tokens = usage({ input: 1_000_000 });
		calculateCost(sonnetPrices, tokens);
		tokens.input = 2_000_000;
		expect(calculateCost(sonnetPrices, tokens).input).toBeCloseTo(6, 12);
	});
});

describe("calculateCost totals", () => {
	const tokenCount = fc.nat({ max: 10_000_000 });
	const price = fc.double({ min: 0, max: 200, noNaN: true });

	it("is the sum of the four components and never negative", () => {
		fc.assert(
			fc.property(
				fc.record({ input: price, output: price, cacheRead: price, cacheWrite: price }),
				fc.record({ input: tokenCount, output: tokenCount, cacheRead: tokenCount, cacheWrite: tokenCount }),
				(prices, tokens) => {
					const cost = calculateCost({ cost: prices }, usage(tokens));
					expect(cost.total).toBe(cost.input + cost.output + cost.cacheRead + cost.cacheWrite);
					expect(cost.total).toBeGreaterThanOrEqual(0);
					expect(cost.cacheWrite).toBeCloseTo((prices.cacheWrite / 1_000_000) * tokens.cacheWrite, 9);
				},
			),
		);
	});
});
