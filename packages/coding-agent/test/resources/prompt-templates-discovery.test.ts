import { describe, expect, it } from "vitest";
import { loadPromptTemplates } from "../../src/core/resources/index.js";
import { useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

function layout() {
	const tree = newTree();
	return { tree, cwd: tree.mkdir("project"), agentDir: tree.mkdir("agent") };
}

describe("discovery", () => {
	it("finds project templates, then user templates, then explicit paths", () => {
		const { tree, cwd, agentDir } = layout();
		tree.writeAll({
			"project/.agent/prompts/fix.md": "Fix $1",
			"agent/prompts/review.md": "Review $@",
			"extra/tests.md": "Write tests for $1",
		});
		const { prompts, diagnostics } = loadPromptTemplates({
			cwd,
			agentDir,
			promptPaths: [tree.path("extra/tests.md")],
		});
		expect(diagnostics).toEqual([]);
		expect(prompts.map((p) => [p.name, p.source, p.filePath])).toEqual([
			["fix", "project", tree.path("project/.agent/prompts/fix.md")],
			["review", "user", tree.path("agent/prompts/review.md")],
			["tests", "path", tree.path("extra/tests.md")],
		]);
	});

	it("reads only the direct markdown files of a directory, following symbolic links to files", () => {
		const { tree, cwd, agentDir } = layout();
		tree.writeAll({
			"agent/prompts/top.md": "Top",
			"agent/prompts/nested/deep.md": "Deep",
			"agent/prompts/readme.txt": "Not a template",
			"shared/linked.md": "Linked",
		});
		tree.symlink("shared/linked.md", "agent/prompts/linked.md");
		expect(loadPromptTemplates({ cwd, agentDir }).prompts.map((p) => p.name)).toEqual(["linked", "top"]);
	});

	it("keeps the first template of a name and reports the later one as a collision", () => {
		const { tree, cwd, agentDir } = layout();
		const project = tree.write("project/.agent/prompts/review.md", "Project review");
		const user = tree.write("agent/prompts/review.md", "User review");
		const { prompts, diagnostics } = loadPromptTemplates({ cwd, agentDir });
		expect(prompts.map((p) => p.content)).toEqual(["Project review"]);
		expect(diagnostics).toEqual([
			{
				type: "collision",
				message: 'name "/review" collision',
				path: user,
				collision: { resourceType: "prompt", name: "review", winnerPath: project, loserPath: user },
			},
		]);
	});

	it("reports a template whose frontmatter does not parse, names its line, and loads the rest", () => {
		const { tree, cwd, agentDir } = layout();
		const broken = tree.write("agent/prompts/broken.md", "---\ndescription: ok\nbad: [\n---\nBody");
		tree.write("agent/prompts/fine.md", "Fine");
		const { prompts, diagnostics } = loadPromptTemplates({ cwd, agentDir });
		expect(prompts.map((p) => p.name)).toEqual(["fine"]);
		expect(diagnostics).toEqual([
			{ type: "warning", message: expect.stringMatching(/^invalid YAML frontmatter at line [34]: /), path: broken },
		]);
	});

	it("reports missing explicit paths and files that are not markdown", () => {
		const { tree, cwd, agentDir } = layout();
		const text = tree.write("notes.txt", "x");
		const { diagnostics } = loadPromptTemplates({ cwd, agentDir, promptPaths: ["missing.md", text] });
		expect(diagnostics).toEqual([
			{ type: "warning", message: "prompt template path does not exist", path: tree.path("project/missing.md") },
			{ type: "warning", message: "prompt template path is not a markdown file", path: text },
		]);
	});

	it("reports a template name with whitespace, which cannot be typed as a command", () => {
		const { tree, cwd, agentDir } = layout();
		const path = tree.write("agent/prompts/my review.md", "Review");
		expect(loadPromptTemplates({ cwd, agentDir }).diagnostics).toEqual([
			{
				type: "warning",
				message: 'template name "my review" contains whitespace, so /my review cannot be typed',
				path,
			},
		]);
	});
});

describe("template model", () => {
	it("takes the description from frontmatter and appends the source label", () => {
		const { tree, cwd, agentDir } = layout();
		tree.write("agent/prompts/review.md", "---\ndescription: Review staged git changes\n---\n\nReview $@\n");
		const [template] = loadPromptTemplates({ cwd, agentDir }).prompts;
		expect(template).toMatchObject({ description: "Review staged git changes (user)", content: "Review $@" });
	});

	it("falls back to the first non-empty body line, cut to 60 characters", () => {
		const { tree, cwd, agentDir } = layout();
		const long = "x".repeat(61);
		tree.writeAll({
			"project/.agent/prompts/short.md": "\n\n  Explain this code  \nMore",
			"project/.agent/prompts/long.md": `${long}\n`,
			"project/.agent/prompts/exact.md": "y".repeat(60),
		});
		const byName = new Map(loadPromptTemplates({ cwd, agentDir }).prompts.map((p) => [p.name, p.description]));
		expect(byName.get("short")).toBe("Explain this code (project)");
		expect(byName.get("long")).toBe(`${"x".repeat(60)}... (project)`);
		expect(byName.get("exact")).toBe(`${"y".repeat(60)} (project)`);
	});

	it("labels explicit paths with the file or directory they were named by", () => {
		const { tree, cwd, agentDir } = layout();
		tree.writeAll({ "team/one.md": "One", "single/two.md": "Two" });
		const { prompts } = loadPromptTemplates({
			cwd,
			agentDir,
			includeDefaults: false,
			promptPaths: [tree.path("team"), tree.path("single/two.md")],
		});
		expect(prompts.map((p) => p.description)).toEqual(["One (path:team)", "Two (path:two)"]);
	});

	it("trims the content only when there was frontmatter", () => {
		const { tree, cwd, agentDir } = layout();
		tree.writeAll({
			"agent/prompts/plain.md": "\n  Keep my spacing  \n",
			"agent/prompts/fronted.md": "---\ndescription: d\n---\n\n  Trim me  \n",
		});
		const byName = new Map(loadPromptTemplates({ cwd, agentDir }).prompts.map((p) => [p.name, p.content]));
		expect(byName.get("plain")).toBe("\n  Keep my spacing  \n");
		expect(byName.get("fronted")).toBe("Trim me");
	});
});
