import type { Model } from "@agent/ai";
import { describe, expect, it } from "vitest";
import { formatModelList, formatTokenCount, matchesModelSearch } from "../../src/cli/list-models.js";

function model(
	provider: string,
	id: string,
	contextWindow: number,
	maxTokens: number,
	extra: Partial<Model> = {},
): Model {
	return {
		id,
		name: id,
		api: "openai-completions",
		provider,
		baseUrl: "http://127.0.0.1",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow,
		maxTokens,
		...extra,
	};
}

describe("token counts", () => {
	it.each([
		[200000, "200K"],
		[1000000, "1M"],
		[1048576, "1.0M"],
		[16384, "16.4K"],
		[8192, "8.2K"],
		[999, "999"],
		[2000000, "2M"],
	])("%d is shown as %s", (count, shown) => {
		expect(formatTokenCount(count)).toBe(shown);
	});
});

describe("the table", () => {
	const models = [
		model("openai", "gpt-4o", 128000, 16384, { input: ["text", "image"] }),
		model("anthropic", "claude-sonnet-4-5", 200000, 64000, { reasoning: true, input: ["text", "image"] }),
		model("anthropic", "claude-haiku", 200000, 8192),
	];

	it("sorts by provider then id, pads columns to the widest cell with two spaces between", () => {
		expect(formatModelList(models)).toBe(
			[
				"provider   model              context  max-out  thinking  images",
				"anthropic  claude-haiku       200K     8.2K     no        no    ",
				"anthropic  claude-sonnet-4-5  200K     64K      yes       yes   ",
				"openai     gpt-4o             128K     16.4K    no        yes   ",
				"",
			].join("\n"),
		);
	});

	it("filters with every search token as a case-insensitive subsequence of 'provider id'", () => {
		expect(matchesModelSearch(models[1] as Model, "anth snt")).toBe(true);
		expect(matchesModelSearch(models[1] as Model, "OPENAI")).toBe(false);
		expect(formatModelList(models, "gpt").split("\n")).toHaveLength(3);
	});

	it("says so when nothing matches or nothing is available", () => {
		expect(formatModelList(models, "zzz")).toBe('No models matching "zzz"\n');
		expect(formatModelList([])).toBe("No models available. Set API keys in environment variables.\n");
	});
});
