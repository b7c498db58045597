// Resource discovery honours .gitignore, .ignore and .fdignore files in and below a resource directory, matching
// regardless of case; the tools' walker reads only .gitignore and .ignore, case-sensitively (test/tools/).
import { execFileSync } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import { loadPromptTemplates, loadSkills } from "../../src/core/resources/index.js";
import { loadIgnore } from "../../src/core/tools/pattern-libraries.js";
import { skillMarkdown, useTempTrees } from "../helpers/resources-temp-tree.js";

vi.mock("../../src/core/tools/pattern-libraries.js", async (importOriginal) => {
	const original = await importOriginal<typeof import("../../src/core/tools/pattern-libraries.js")>();
	return { ...original, loadIgnore: vi.fn(original.loadIgnore) };
});

const newTree = useTempTrees();

const skill = (name: string) => skillMarkdown({ name, description: `The ${name} skill` });

/** Writes `files` below a user skills directory and returns the names of the skills discovered there. */
function discoveredSkills(files: Record<string, string>): string[] {
	const tree = newTree();
	tree.mkdir("repo/.git");
	const prefixed = Object.entries(files).map(([path, content]) => [`home/.agent/skills/${path}`, content]);
	tree.writeAll(Object.fromEntries(prefixed));
	const { skills } = loadSkills({
		cwd: tree.mkdir("repo"),
		agentDir: tree.path("home/.agent"),
		homeDir: tree.path("home"),
	});
	return skills.map((s) => s.name).sort();
}

describe("ignore files in resource directories", () => {
	it("match regardless of case", () => {
		expect(
			discoveredSkills({
				".gitignore": "SKILLS-OLD/\n",
				"skills-old/SKILL.md": skill("old"),
				"new/SKILL.md": skill("new"),
			}),
		).toEqual(["new"]);
	});

	it("include .fdignore", () => {
		expect(
			discoveredSkills({
				".fdignore": "draft\n",
				"draft/SKILL.md": skill("draft"),
				"ready/SKILL.md": skill("ready"),
			}),
		).toEqual(["ready"]);
	});

	it("let a deeper file's !pattern re-include a file a shallower one ignores", () => {
		expect(
			discoveredSkills({
				".gitignore": "SKILL.md\n",
				"keep/.gitignore": "!SKILL.md\n",
				"keep/SKILL.md": skill("keep"),
				"other/SKILL.md": skill("other"),
			}),
		).toEqual(["keep"]);
	});

	it("let a deeper file re-include a directory, whose contents the shallower file's other rules still see", () => {
		expect(
			discoveredSkills({
				".gitignore": "drafts/\nwip-*/\n",
				"team/.gitignore": "!drafts/\n",
				"drafts/a/SKILL.md": skill("root-draft"),
				"team/drafts/b/SKILL.md": skill("team-draft"),
				"team/drafts/wip-c/SKILL.md": skill("team-wip"),
			}),
		).toEqual(["team-draft"]);
	});

	it("keep a directory ignored by a shallower file closed, whatever files inside it say", () => {
		expect(
			discoveredSkills({
				".gitignore": "old/\n",
				"old/.gitignore": "!*\n",
				"old/a/SKILL.md": skill("old-a"),
				"new/SKILL.md": skill("new"),
			}),
		).toEqual(["new"]);
	});

	it("apply to prompt templates too", () => {
		const tree = newTree();
		tree.writeAll({ "prompts/.ignore": "WIP.md\n", "prompts/wip.md": "Draft", "prompts/review.md": "Review" });
		const { prompts } = loadPromptTemplates({ promptPaths: [tree.path("prompts")], includeDefaults: false });
		expect(prompts.map((p) => p.name)).toEqual(["review"]);
	});

	it.skipIf(process.platform === "win32")("skip an ignore file that is a FIFO instead of waiting for a writer", () => {
		const tree = newTree();
		tree.mkdir("repo/.git");
		tree.write("home/.agent/skills/deploy/SKILL.md", skill("deploy"));
		execFileSync("mkfifo", [tree.path("home/.agent/skills/.gitignore")]);
		execFileSync("mkfifo", [tree.path("home/.agent/skills/deploy/.fdignore")]);
		const { skills } = loadSkills({
			cwd: tree.mkdir("repo"),
			agentDir: tree.path("home/.agent"),
			homeDir: tree.path("home"),
		});
		expect(skills.map((s) => s.name)).toEqual(["deploy"]);
	});

	it("do not load the ignore-file matcher when there are none", () => {
		vi.mocked(loadIgnore).mockClear();
		expect(discoveredSkills({ "a/SKILL.md": skill("a"), "b/nested/SKILL.md": skill("b") })).toEqual(["a", "b"]);
		expect(loadIgnore).not.toHaveBeenCalled();
		expect(discoveredSkills({ ".ignore": "b/\n", "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") })).toEqual([
			"a",
		]);
		expect(loadIgnore).toHaveBeenCalled();
	});
});
