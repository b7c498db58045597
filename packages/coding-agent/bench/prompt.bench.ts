// What every request pays before the conversation starts: the default system prompt and the JSON schemas
// of the tools, in characters, in the chars/4 estimate used for context accounting, and in real tokens
// (o200k_base, the GPT-4o/GPT-5 tokenizer of gpt-tokenizer; other providers' tokenizers land within ~10%).
import { countTokens } from "gpt-tokenizer";
import { expect, it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";
import { buildSystemPrompt } from "../src/core/resources/index.js";
import { createAllTools, createCodingTools } from "../src/core/tools/index.js";

interface ToolLike {
	name: string;
	description: string;
	parameters: unknown;
}

/** A tool as the provider layer sends it: name, description and parameter schema. */
function serializeTools(tools: readonly ToolLike[]): string {
	return JSON.stringify(tools.map(({ name, description, parameters }) => ({ name, description, parameters })));
}

function measure(name: string, text: string, target?: number) {
	const tokens = countTokens(text);
	return [
		{ name: `${name}: characters`, value: text.length, unit: "chars" },
		{ name: `${name}: estimate (chars/4)`, value: Math.ceil(text.length / 4), unit: "tokens" },
		{
			name: `${name}: o200k tokens`,
			value: tokens,
			unit: "tokens",
			...(target !== undefined ? { target: { max: target } } : {}),
		},
	];
}

it("measures the default system prompt and the tool schemas", () => {
	const cwd = "/home/user/projects/my-app";
	const prompt = buildSystemPrompt({ cwd, date: "2025-06-01" });
	const defaultTools = serializeTools(createCodingTools(cwd));
	const allTools = serializeTools(Object.values(createAllTools(cwd)));

	reportBenchmark("prompt-size", [
		...measure("default system prompt", prompt, 1000),
		...measure("default tools (read, bash, edit, write) schemas", defaultTools),
		...measure("all seven tools schemas", allTools),
		{
			name: "default prompt + default tools",
			value: countTokens(prompt) + countTokens(defaultTools),
			unit: "tokens",
		},
	]);
	expect(countTokens(prompt)).toBeLessThan(1000);
});
