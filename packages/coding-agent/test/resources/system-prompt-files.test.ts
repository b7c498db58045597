import { describe, expect, it } from "vitest";
import { resolveSystemPromptSources } from "../../src/core/resources/index.js";
import { useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

function layout() {
	const tree = newTree();
	return { tree, cwd: tree.mkdir("project"), agentDir: tree.mkdir("agent") };
}

describe("SYSTEM.md", () => {
	it("uses the project's .agent/SYSTEM.md over the user's", () => {
		const { tree, cwd, agentDir } = layout();
		tree.write("project/.agent/SYSTEM.md", "project prompt");
		tree.write("agent/SYSTEM.md", "user prompt");
		expect(resolveSystemPromptSources({ cwd, agentDir }).customPrompt).toBe("project prompt");
	});

	it("uses the user's SYSTEM.md when the project has none", () => {
		const { tree, cwd, agentDir } = layout();
		tree.write("agent/SYSTEM.md", "user prompt");
		expect(resolveSystemPromptSources({ cwd, agentDir }).customPrompt).toBe("user prompt");
	});

	it("has no custom prompt without SYSTEM.md or flag", () => {
		const { cwd, agentDir } = layout();
		expect(resolveSystemPromptSources({ cwd, agentDir })).toEqual({ appendSystemPrompt: [], diagnostics: [] });
	});

	it("takes --system-prompt over both files, reading it when it names a file relative to the cwd", () => {
		const { tree, cwd, agentDir } = layout();
		tree.write("project/.agent/SYSTEM.md", "project prompt");
		tree.write("project/prompts/review.md", "from file");
		expect(resolveSystemPromptSources({ cwd, agentDir, systemPrompt: "prompts/review.md" }).customPrompt).toBe(
			"from file",
		);
		expect(resolveSystemPromptSources({ cwd, agentDir, systemPrompt: "Be brief." }).customPrompt).toBe("Be brief.");
	});

	it("uses the default prompt for an empty --system-prompt, even with a SYSTEM.md", () => {
		const { tree, cwd, agentDir } = layout();
		tree.write("project/.agent/SYSTEM.md", "project prompt");
		expect(resolveSystemPromptSources({ cwd, agentDir, systemPrompt: "" }).customPrompt).toBeUndefined();
	});
});

describe("APPEND_SYSTEM.md", () => {
	it("appends the project's file over the user's, and only one", () => {
		const { tree, cwd, agentDir } = layout();
		tree.write("project/.agent/APPEND_SYSTEM.md", "project extra");
		tree.write("agent/APPEND_SYSTEM.md", "user extra");
		expect(resolveSystemPromptSources({ cwd, agentDir }).appendSystemPrompt).toEqual(["project extra"]);
	});

	it("takes --append-system-prompt over the files, as text or as a file", () => {
		const { tree, cwd, agentDir } = layout();
		tree.write("agent/APPEND_SYSTEM.md", "user extra");
		const file = tree.write("notes.md", "from file");
		expect(resolveSystemPromptSources({ cwd, agentDir, appendSystemPrompt: file }).appendSystemPrompt).toEqual([
			"from file",
		]);
		expect(
			resolveSystemPromptSources({ cwd, agentDir, appendSystemPrompt: "Cite sources." }).appendSystemPrompt,
		).toEqual(["Cite sources."]);
	});

	it("is independent of SYSTEM.md", () => {
		const { tree, cwd, agentDir } = layout();
		tree.write("agent/SYSTEM.md", "user prompt");
		tree.write("project/.agent/APPEND_SYSTEM.md", "project extra");
		expect(resolveSystemPromptSources({ cwd, agentDir })).toEqual({
			customPrompt: "user prompt",
			appendSystemPrompt: ["project extra"],
			diagnostics: [],
		});
	});
});
