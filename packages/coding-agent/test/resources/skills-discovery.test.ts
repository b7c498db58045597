import { describe, expect, it } from "vitest";
import { formatSkillsForPrompt, loadSkills, loadSkillsFromDir } from "../../src/core/resources/index.js";
import { skillMarkdown, useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

const skill = (name: string, description = `The ${name} skill`) => skillMarkdown({ name, description });

/** A project inside a git repository, a user directory and a home directory, all in one temp tree. */
function layout() {
	const tree = newTree();
	tree.mkdir("repo/.git");
	const cwd = tree.mkdir("repo/app");
	return { tree, cwd, agentDir: tree.path("home/.agent"), homeDir: tree.path("home") };
}

describe("locations", () => {
	it("finds project skills before user skills, in the reference's order", () => {
		const { tree, cwd, agentDir, homeDir } = layout();
		tree.writeAll({
			"repo/app/.agent/skills/a-project/SKILL.md": skill("a-project"),
			"repo/app/.agents/skills/b-cwd/SKILL.md": skill("b-cwd"),
			"repo/.agents/skills/c-repo-root/SKILL.md": skill("c-repo-root"),
			"home/.agent/skills/d-user/SKILL.md": skill("d-user"),
			"home/.agents/skills/e-home/SKILL.md": skill("e-home"),
		});
		const { skills, diagnostics } = loadSkills({ cwd, agentDir, homeDir });
		expect(diagnostics).toEqual([]);
		expect(skills.map((s) => [s.name, s.source])).toEqual([
			["a-project", "project"],
			["b-cwd", "project"],
			["c-repo-root", "project"],
			["d-user", "user"],
			["e-home", "user"],
		]);
	});

	it("stops looking for .agents/skills at the git repository root", () => {
		const { tree, cwd, agentDir, homeDir } = layout();
		tree.write(".agents/skills/outside/SKILL.md", skill("outside"));
		tree.write("repo/.agents/skills/inside/SKILL.md", skill("inside"));
		expect(loadSkills({ cwd, agentDir, homeDir }).skills.map((s) => s.name)).toEqual(["inside"]);
	});

	it("counts ~/.agents/skills as a user directory even when the home directory is an ancestor of the cwd", () => {
		const tree = newTree();
		tree.write("home/.agents/skills/mine/SKILL.md", skill("mine"));
		const cwd = tree.mkdir("home/work/project");
		const { skills } = loadSkills({ cwd, agentDir: tree.path("home/.agent"), homeDir: tree.path("home") });
		expect(skills.map((s) => [s.name, s.source])).toEqual([["mine", "user"]]);
	});

	it("takes root markdown files and SKILL.md files at any depth, nothing else", () => {
		const { tree, cwd, agentDir, homeDir } = layout();
		tree.writeAll({
			"home/.agent/skills/loose.md": skill("loose"),
			"home/.agent/skills/notes.txt": "not a skill",
			"home/.agent/skills/group/README.md": "not a skill either",
			"home/.agent/skills/group/nested/SKILL.md": skill("nested"),
			"home/.agent/skills/nested/child/SKILL.md": skill("child"),
		});
		const names = loadSkills({ cwd, agentDir, homeDir }).skills.map((s) => s.name);
		expect(names.sort()).toEqual(["child", "loose", "nested"]);
	});

	it("skips hidden entries and node_modules", () => {
		const { tree, cwd, agentDir, homeDir } = layout();
		tree.writeAll({
			"home/.agent/skills/.hidden/SKILL.md": skill("hidden"),
			"home/.agent/skills/node_modules/dep/SKILL.md": skill("dep"),
			"home/.agent/skills/.draft.md": skill("draft"),
			"home/.agent/skills/visible/SKILL.md": skill("visible"),
		});
		expect(loadSkills({ cwd, agentDir, homeDir }).skills.map((s) => s.name)).toEqual(["visible"]);
	});

	it("honours .gitignore, .ignore and .fdignore files, relative to where they are", () => {
		const { tree, cwd, agentDir, homeDir } = layout();
		tree.writeAll({
			"home/.agent/skills/.gitignore": "wip/\n",
			"home/.agent/skills/.ignore": "old.md\n",
			"home/.agent/skills/team/.fdignore": "draft-*\n",
			"home/.agent/skills/wip/SKILL.md": skill("wip"),
			"home/.agent/skills/old.md": skill("old"),
			"home/.agent/skills/team/draft-one/SKILL.md": skill("draft-one"),
			"home/.agent/skills/team/deep/draft-two/SKILL.md": skill("draft-two"),
			"home/.agent/skills/team/ready/SKILL.md": skill("ready"),
			"home/.agent/skills/draft-root/SKILL.md": skill("draft-root"),
		});
		const names = loadSkills({ cwd, agentDir, homeDir }).skills.map((s) => s.name);
		expect(names.sort()).toEqual(["draft-root", "ready"]);
	});

	it("can be switched off, keeping explicit paths", () => {
		const { tree, cwd, agentDir, homeDir } = layout();
		tree.write("home/.agent/skills/auto/SKILL.md", skill("auto"));
		const explicit = tree.write("extra/manual/SKILL.md", skill("manual"));
		const { skills } = loadSkills({ cwd, agentDir, homeDir, includeDefaults: false, skillPaths: [explicit] });
		expect(skills.map((s) => [s.name, s.source])).toEqual([["manual", "path"]]);
	});
});

describe("explicit paths", () => {
	it("treats a directory with SKILL.md as one skill and does not look further", () => {
		const tree = newTree();
		tree.writeAll({
			"pdf/SKILL.md": skill("pdf"),
			"pdf/reference.md": "Reference notes",
			"pdf/sub/SKILL.md": skill("sub"),
		});
		expect(loadSkillsFromDir({ dir: tree.path("pdf"), source: "path" }).skills.map((s) => s.name)).toEqual(["pdf"]);
	});

	it("scans a directory without SKILL.md: root markdown files, then SKILL.md in subdirectories", () => {
		const tree = newTree();
		tree.writeAll({
			"lib/quick.md": skill("quick"),
			"lib/pdf/SKILL.md": skill("pdf"),
			"lib/pdf/deep/SKILL.md": skill("deep"),
		});
		const names = loadSkillsFromDir({ dir: tree.path("lib"), source: "path" }).skills.map((s) => s.name);
		expect(names.sort()).toEqual(["pdf", "quick"]);
	});

	it("reports a missing path and a file that is not markdown", () => {
		const tree = newTree();
		const text = tree.write("notes.txt", "x");
		const missing = tree.path("missing");
		const { diagnostics } = loadSkills({
			cwd: tree.root,
			agentDir: tree.path("a"),
			homeDir: tree.path("h"),
			skillPaths: [missing, text],
		});
		expect(diagnostics).toEqual([
			{ type: "warning", message: "skill path does not exist", path: missing },
			{ type: "warning", message: "skill path is not a markdown file", path: text },
		]);
	});
});

describe("collisions and duplicates", () => {
	it("keeps the first skill of a name and reports the later one as a collision", () => {
		const { tree, cwd, agentDir, homeDir } = layout();
		const projectFile = tree.write("repo/app/.agent/skills/review/SKILL.md", skill("review", "Project review"));
		const userFile = tree.write("home/.agent/skills/review/SKILL.md", skill("review", "User review"));
		const { skills, diagnostics } = loadSkills({ cwd, agentDir, homeDir });
		expect(skills.map((s) => s.description)).toEqual(["Project review"]);
		expect(diagnostics).toEqual([
			{
				type: "collision",
				message: 'name "review" collision',
				path: userFile,
				collision: { resourceType: "skill", name: "review", winnerPath: projectFile, loserPath: userFile },
			},
		]);
	});

	it("loads a file reached twice through a symbolic link once and reports the second path", () => {
		const { tree, cwd, agentDir, homeDir } = layout();
		const real = tree.write("home/.agents/skills/shared/SKILL.md", skill("shared"));
		const link = tree.symlink("home/.agents/skills/shared", "home/.agent/skills/shared");
		const { skills, diagnostics } = loadSkills({ cwd, agentDir, homeDir });
		expect(skills.map((s) => s.filePath)).toEqual([`${link}/SKILL.md`]);
		expect(diagnostics).toEqual([{ type: "duplicate", message: `same file as ${link}/SKILL.md`, path: real }]);
	});

	it("does not report the same path listed twice", () => {
		const { tree, cwd, agentDir, homeDir } = layout();
		const file = tree.write("home/.agent/skills/one/SKILL.md", skill("one"));
		const { skills, diagnostics } = loadSkills({ cwd, agentDir, homeDir, skillPaths: [file] });
		expect(skills).toHaveLength(1);
		expect(diagnostics).toEqual([]);
	});

	it("reports a broken symbolic link and survives a link loop", () => {
		const { tree, cwd, agentDir, homeDir } = layout();
		const broken = tree.symlink(tree.path("nowhere"), "home/.agent/skills/broken");
		tree.write("home/.agent/skills/loop/SKILL.md", skill("loop"));
		tree.symlink("home/.agent/skills", "home/.agent/skills/loop/again");
		const { skills, diagnostics } = loadSkills({ cwd, agentDir, homeDir });
		expect(skills.map((s) => s.name)).toEqual(["loop"]);
		expect(diagnostics).toEqual([{ type: "warning", message: "broken symbolic link", path: broken }]);
	});
});

describe("prompt block", () => {
	it("escapes XML in names, descriptions and paths, and leaves out skills the model must not invoke", () => {
		const block = formatSkillsForPrompt([
			{
				name: "a&b",
				description: `Use <tags> & "quotes" 'here'`,
				filePath: "/s/a&b/SKILL.md",
				baseDir: "/s/a&b",
				source: "user",
				disableModelInvocation: false,
			},
			{
				name: "manual",
				description: "Manual only",
				filePath: "/s/m/SKILL.md",
				baseDir: "/s/m",
				source: "user",
				disableModelInvocation: true,
			},
		]);
		expect(block.startsWith("\n\nThe following skills provide specialized instructions for specific tasks.\n")).toBe(
			true,
		);
		expect(block).toContain(
			"  <skill>\n    <name>a&amp;b</name>\n    <description>Use &lt;tags&gt; &amp; &quot;quotes&quot; &apos;here&apos;</description>\n    <location>/s/a&amp;b/SKILL.md</location>\n  </skill>\n</available_skills>",
		);
		expect(block).not.toContain("manual");
		expect(block.endsWith("</available_skills>")).toBe(true);
	});

	it("is empty without visible skills", () => {
		expect(formatSkillsForPrompt([])).toBe("");
	});
});
