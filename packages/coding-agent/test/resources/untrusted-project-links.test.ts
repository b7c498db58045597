// An untrusted project's context and prompt files that lead out of it (a symbolic link to ~/.ssh/id_rsa, say)
// are not used until the project is trusted; the user's own files and links inside the project are.
import { describe, expect, it } from "vitest";
import { SettingsManager } from "../../src/core/config/index.js";
import { resolveProjectTrust } from "../../src/core/extensions/trust.js";
import { DefaultResourceLoader } from "../../src/core/resources/index.js";
import { skillMarkdown, type TempTree, useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

/**
 * `<root>/secret/` stands for the rest of the machine; `<root>/repo/` is a cloned repository (with `.git`) whose
 * files link into it; the agent runs in `repo/app`.
 */
function layout(tree: TempTree): { cwd: string; agentDir: string } {
	tree.writeAll({
		"secret/notes.md": "SECRET NOTES",
		"secret/prompt.md": "SECRET PROMPT",
		"secret/skill/SKILL.md": skillMarkdown({ name: "leak", description: "SECRET SKILL" }),
		"secret/system.md": "SECRET SYSTEM",
		"secret/append.md": "SECRET APPEND",
		"secret/user-rules.md": "the user's own rules",
		"repo/docs/RULES.md": "inside the repository",
		"repo/app/.agent/prompts/fine.md": "a prompt of the project",
		"agent/SYSTEM.md": "the user's own system prompt",
	});
	tree.mkdir("repo/.git");
	tree.symlink("secret/notes.md", "repo/AGENTS.md");
	tree.symlink("repo/docs/RULES.md", "repo/app/AGENTS.md");
	tree.symlink("secret/prompt.md", "repo/app/.agent/prompts/leak.md");
	tree.symlink("secret/skill", "repo/app/.agent/skills/leak");
	tree.symlink("secret/system.md", "repo/app/.agent/SYSTEM.md");
	tree.symlink("secret/append.md", "repo/app/.agent/APPEND_SYSTEM.md");
	tree.symlink("secret/user-rules.md", "agent/AGENTS.md");
	return { cwd: tree.path("repo/app"), agentDir: tree.path("agent") };
}

async function load(tree: TempTree, projectTrusted: boolean) {
	const { cwd, agentDir } = layout(tree);
	const settingsManager = SettingsManager.create(cwd, agentDir, { projectTrusted });
	const loader = new DefaultResourceLoader({ cwd, agentDir, homeDir: tree.path("home"), settingsManager });
	await loader.reload();
	return { loader, settingsManager, cwd, agentDir };
}

function everythingRead(loader: DefaultResourceLoader): string {
	return JSON.stringify({
		context: loader.getContextFiles().contextFiles,
		prompts: loader.getPrompts().prompts,
		skills: loader.getSkills().skills,
		system: loader.getSystemPrompt(),
		append: loader.getAppendSystemPrompt(),
	});
}

describe("an untrusted project's files that lead out of it", () => {
	it("are left out: AGENTS.md, prompt templates, skills, SYSTEM.md and APPEND_SYSTEM.md", async () => {
		const tree = newTree();
		const { loader } = await load(tree, false);
		expect(everythingRead(loader)).not.toContain("SECRET");
		expect(loader.getFilesOutsideUntrustedProject()).toEqual(
			expect.arrayContaining([
				{ path: tree.path("repo/AGENTS.md"), target: tree.path("secret/notes.md") },
				{ path: tree.path("repo/app/.agent/prompts/leak.md"), target: tree.path("secret/prompt.md") },
				{ path: tree.path("repo/app/.agent/skills/leak/SKILL.md"), target: tree.path("secret/skill/SKILL.md") },
				{ path: tree.path("repo/app/.agent/SYSTEM.md"), target: tree.path("secret/system.md") },
				{ path: tree.path("repo/app/.agent/APPEND_SYSTEM.md"), target: tree.path("secret/append.md") },
			]),
		);
		expect(loader.getFilesOutsideUntrustedProject()).toHaveLength(5);
	});

	it("do not stop the rest: links inside the project, the user's own files and links, the user's SYSTEM.md", async () => {
		const tree = newTree();
		const { loader } = await load(tree, false);
		expect(loader.getContextFiles().contextFiles.map((file) => file.content)).toEqual([
			"the user's own rules",
			"inside the repository",
		]);
		expect(loader.getPrompts().prompts.map((prompt) => prompt.name)).toEqual(["fine"]);
		expect(loader.getSystemPrompt()).toBe("the user's own system prompt");
	});

	it("are read in a trusted project", async () => {
		const tree = newTree();
		const { loader } = await load(tree, true);
		const read = everythingRead(loader);
		for (const secret of ["SECRET NOTES", "SECRET PROMPT", "SECRET SKILL", "SECRET SYSTEM", "SECRET APPEND"]) {
			expect(read).toContain(secret);
		}
		expect(loader.getFilesOutsideUntrustedProject()).toEqual([]);
	});

	it("are named by the trust notice, and trusting the project reads them at once", async () => {
		const tree = newTree();
		const { loader, settingsManager, cwd, agentDir } = await load(tree, false);
		const untrusted = await resolveProjectTrust({ cwd, agentDir, settingsManager, resourceLoader: loader });
		expect(untrusted.notice).toContain(
			`  project file ${tree.path("repo/AGENTS.md")} (leads to ${tree.path("secret/notes.md")})\n`,
		);
		expect(untrusted.notice).toContain(
			`  project file .agent/SYSTEM.md (leads to ${tree.path("secret/system.md")})\n`,
		);
		const trusted = await resolveProjectTrust({
			cwd,
			agentDir,
			settingsManager,
			resourceLoader: loader,
			trustProjectFlag: true,
		});
		expect(trusted.trusted).toBe(true);
		expect(everythingRead(loader)).toContain("SECRET NOTES");
	});
});
