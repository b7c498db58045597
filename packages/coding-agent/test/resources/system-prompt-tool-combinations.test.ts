import { describe, expect, it } from "vitest";
import { buildSystemPrompt, type Skill } from "../../src/core/resources/index.js";
import { FIXED_PROMPT_INPUTS, readPromptFixture } from "../helpers/resources-prompt-fixtures.js";

const releaseNotesSkill: Skill = {
	name: "release-notes",
	description: `Write release notes & changelogs from <git log> ("conventional" commits, team's style)`,
	filePath: "/home/dev/.agent/skills/release-notes/SKILL.md",
	baseDir: "/home/dev/.agent/skills/release-notes",
	source: "user",
	disableModelInvocation: false,
};

const hiddenSkill: Skill = {
	name: "deploy-prod",
	description: "Deploy to production",
	filePath: "/home/dev/.agent/skills/deploy-prod/SKILL.md",
	baseDir: "/home/dev/.agent/skills/deploy-prod",
	source: "user",
	disableModelInvocation: true,
};

const contextFiles = [
	{ path: "/home/dev/AGENTS.md", content: "Use pnpm." },
	{ path: "/home/dev/project/AGENTS.md", content: "Run tests with vitest.\n" },
];

describe("default prompt for each tool combination", () => {
	it.each([
		["default-tools.txt", undefined],
		["all-tools.txt", ["read", "bash", "edit", "write", "grep", "find", "ls"]],
		["read-only-tools.txt", ["read", "grep", "find", "ls"]],
		["bash-only.txt", ["bash"]],
		["write-without-edit.txt", ["read", "write", "find"]],
		["no-tools.txt", []],
	])("%s matches the fixture byte for byte", (fixture, selectedTools) => {
		expect(buildSystemPrompt({ ...FIXED_PROMPT_INPUTS, selectedTools })).toBe(readPromptFixture(fixture));
	});

	it("lists custom tools with their snippets, adds their guidelines once, and appends text, context and skills in order", () => {
		const prompt = buildSystemPrompt({
			...FIXED_PROMPT_INPUTS,
			selectedTools: ["read", "bash", "ls", "deploy", "mystery"],
			toolSnippets: { deploy: "Deploy the app to staging" },
			promptGuidelines: ["  Use deploy only after tests pass  ", "", "   ", "Be concise in your responses"],
			appendSystemPrompt: "Always answer in English.",
			contextFiles,
			skills: [releaseNotesSkill, hiddenSkill],
		});
		expect(prompt).toBe(readPromptFixture("custom-tools-with-context-and-skills.txt"));
	});

	it("prefers a snippet over the built-in one-liner", () => {
		const prompt = buildSystemPrompt({
			...FIXED_PROMPT_INPUTS,
			selectedTools: ["read"],
			toolSnippets: { read: "Read files, images too" },
		});
		expect(prompt).toContain("\n- read: Read files, images too\n");
		expect(prompt).not.toContain("Read file contents");
	});
});

describe("custom prompt", () => {
	it("replaces identity, tools, guidelines and documentation but keeps appended text, context, skills, date and cwd", () => {
		const prompt = buildSystemPrompt({
			...FIXED_PROMPT_INPUTS,
			customPrompt: "You are a release bot.",
			appendSystemPrompt: "Always answer in English.",
			contextFiles,
			skills: [releaseNotesSkill],
		});
		expect(prompt).toBe(readPromptFixture("custom-prompt.txt"));
	});

	it("leaves the skills out when the selected tools do not include read", () => {
		const prompt = buildSystemPrompt({
			...FIXED_PROMPT_INPUTS,
			customPrompt: "You are a release bot.",
			selectedTools: ["bash"],
			contextFiles,
			skills: [releaseNotesSkill],
		});
		expect(prompt).toBe(readPromptFixture("custom-prompt-without-read.txt"));
	});

	it("treats an empty custom prompt as no custom prompt", () => {
		const prompt = buildSystemPrompt({ ...FIXED_PROMPT_INPUTS, customPrompt: "" });
		expect(prompt).toBe(readPromptFixture("default-tools.txt"));
	});
});

describe("skills block", () => {
	it("is left out of the default prompt when read is not active", () => {
		const prompt = buildSystemPrompt({
			...FIXED_PROMPT_INPUTS,
			selectedTools: ["bash"],
			skills: [releaseNotesSkill],
		});
		expect(prompt).not.toContain("<available_skills>");
	});

	it("is empty when every skill disables model invocation", () => {
		const withHidden = buildSystemPrompt({ ...FIXED_PROMPT_INPUTS, skills: [hiddenSkill] });
		expect(withHidden).toBe(readPromptFixture("default-tools.txt"));
	});
});

describe("date and working directory", () => {
	it("ends with today's UTC day, without a time of day, so the prompt stays cacheable", () => {
		const prompt = buildSystemPrompt({ cwd: "/work" });
		const today = new Date().toISOString().slice(0, 10);
		const lines = prompt.split("\n");
		expect(lines.at(-2)).toMatch(/^Current date: \d{4}-\d{2}-\d{2}$/);
		// Around midnight UTC the day may have just changed between the two calls.
		expect([today, new Date().toISOString().slice(0, 10)]).toContain(lines.at(-2)?.slice("Current date: ".length));
		expect(lines.at(-1)).toBe("Current working directory: /work");
	});

	it("writes a Windows working directory with forward slashes", () => {
		const prompt = buildSystemPrompt({ ...FIXED_PROMPT_INPUTS, cwd: "C:\\Users\\dev\\project" });
		expect(prompt.endsWith("\nCurrent working directory: C:/Users/dev/project")).toBe(true);
	});

	it("points at the README, docs and examples of the installed package by default", () => {
		const prompt = buildSystemPrompt({ date: "2025-03-14", cwd: "/x" });
		expect(prompt).toMatch(/\n- Overview: \/.*\/coding-agent\/README\.md\n/);
		expect(prompt).toMatch(/\n- Docs: \/.*\/coding-agent\/docs\n/);
		expect(prompt).toMatch(/\n- Examples: \/.*\/coding-agent\/examples\n/);
	});
});
