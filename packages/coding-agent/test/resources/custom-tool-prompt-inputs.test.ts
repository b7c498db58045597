import { describe, expect, it } from "vitest";
import { buildSystemPrompt, collectCustomToolPromptInputs } from "../../src/core/resources/index.js";
import { FIXED_PROMPT_INPUTS } from "../helpers/resources-prompt-fixtures.js";

describe("prompt inputs of custom tools", () => {
	it("collapses each snippet, or the description, to one line and leaves out empty ones", () => {
		const { toolSnippets } = collectCustomToolPromptInputs([
			{ name: "deploy", description: "Long description", promptSnippet: "  Deploy the app\n  to   staging \n" },
			{ name: "query", description: "Run a SQL query\n\tagainst the\n\ndatabase" },
			{ name: "silent", description: "   \n " },
		]);
		expect(toolSnippets).toEqual({
			deploy: "Deploy the app to staging",
			query: "Run a SQL query against the database",
		});
	});

	it("concatenates guidelines, trimmed, without empties or repeats within one tool", () => {
		const { promptGuidelines } = collectCustomToolPromptInputs([
			{ name: "a", description: "A", promptGuidelines: [" Use a first ", "", "Use a first", "Check a"] },
			{ name: "b", description: "B", promptGuidelines: ["Check a", "  "] },
			{ name: "c", description: "C" },
		]);
		expect(promptGuidelines).toEqual(["Use a first", "Check a", "Check a"]);
	});

	it("feed buildSystemPrompt, which lists the tool and keeps a guideline shared by two tools once", () => {
		const inputs = collectCustomToolPromptInputs([
			{ name: "deploy", description: "Deploy", promptGuidelines: ["Ask before deploying"] },
			{ name: "rollback", description: "Roll back", promptGuidelines: ["Ask before deploying"] },
		]);
		const prompt = buildSystemPrompt({
			...FIXED_PROMPT_INPUTS,
			selectedTools: ["read", "deploy", "rollback"],
			...inputs,
		});
		expect(prompt).toContain("\n- deploy: Deploy\n- rollback: Roll back\n");
		expect(prompt.split("- Ask before deploying")).toHaveLength(2);
	});
});
