import { readFileSync } from "node:fs";

/** An expected system prompt from test/fixtures/prompts/ (the file's final newline is not part of the prompt). */
export function readPromptFixture(name: string): string {
	const text = readFileSync(new URL(`../fixtures/prompts/${name}`, import.meta.url), "utf8");
	return text.endsWith("\n") ? text.slice(0, -1) : text;
}

/** Fixed inputs that make a built prompt deterministic. */
export const FIXED_PROMPT_INPUTS = {
	date: "2025-03-14",
	cwd: "/home/dev/project",
	documentation: {
		readmePath: "/opt/agent/README.md",
		docsPath: "/opt/agent/docs",
		examplesPath: "/opt/agent/examples",
	},
} as const;
