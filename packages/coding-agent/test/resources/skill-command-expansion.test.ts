import { describe, expect, it } from "vitest";
import { expandSkillCommand, parseSkillBlock, type Skill } from "../../src/core/resources/index.js";
import { useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

function skillAt(filePath: string, baseDir: string, name = "pdf"): Skill {
	return { name, description: "PDF tools", filePath, baseDir, source: "user", disableModelInvocation: true };
}

describe("/skill:name expansion", () => {
	it("replaces the command with the skill body, without frontmatter, in a skill block", () => {
		const tree = newTree();
		const file = tree.write(
			"skills/pdf/SKILL.md",
			"---\nname: pdf\ndescription: PDF tools\n---\n\n  Use scripts/extract.py.\n\n",
		);
		const skills = [skillAt(file, tree.path("skills/pdf"))];
		expect(expandSkillCommand("/skill:pdf", skills)).toEqual({
			kind: "expanded",
			skill: skills[0],
			text: `<skill name="pdf" location="${file}">\nReferences are relative to ${tree.path("skills/pdf")}.\n\nUse scripts/extract.py.\n</skill>`,
		});
	});

	it("adds the trimmed arguments after a blank line", () => {
		const tree = newTree();
		const file = tree.write("pdf/SKILL.md", "Body");
		const result = expandSkillCommand("/skill:pdf   report.pdf  page 3  ", [skillAt(file, tree.path("pdf"))]);
		expect(result.text).toBe(
			`<skill name="pdf" location="${file}">\nReferences are relative to ${tree.path("pdf")}.\n\nBody\n</skill>\n\nreport.pdf  page 3`,
		);
	});

	it("ends the name at a newline too", () => {
		const tree = newTree();
		const file = tree.write("pdf/SKILL.md", "Body");
		const result = expandSkillCommand("/skill:pdf\nsummarise it", [skillAt(file, tree.path("pdf"))]);
		expect(result.kind).toBe("expanded");
		expect(result.text.endsWith("</skill>\n\nsummarise it")).toBe(true);
	});

	it("leaves other text and unknown skills unchanged", () => {
		const skills = [skillAt("/nowhere/SKILL.md", "/nowhere")];
		expect(expandSkillCommand("/skill:other args", skills)).toEqual({ kind: "unchanged", text: "/skill:other args" });
		expect(expandSkillCommand("please /skill:pdf", skills)).toEqual({ kind: "unchanged", text: "please /skill:pdf" });
		expect(expandSkillCommand("/pdf", skills)).toEqual({ kind: "unchanged", text: "/pdf" });
	});

	it("reports a skill file that can't be read and keeps the original text", () => {
		const skill = skillAt("/nowhere/pdf/SKILL.md", "/nowhere/pdf");
		const result = expandSkillCommand("/skill:pdf go", [skill]);
		expect(result).toMatchObject({ kind: "failed", text: "/skill:pdf go", skill });
		expect(result.kind === "failed" && result.error).toMatch(/ENOENT/);
	});

	it("produces a block the UI pattern parses back", () => {
		const tree = newTree();
		const file = tree.write("pdf/SKILL.md", "Line one\n\nLine two");
		const expanded = expandSkillCommand("/skill:pdf a b", [skillAt(file, tree.path("pdf"))]).text;
		expect(parseSkillBlock(expanded)).toEqual({
			name: "pdf",
			location: file,
			content: `References are relative to ${tree.path("pdf")}.\n\nLine one\n\nLine two`,
			args: "a b",
		});
		expect(parseSkillBlock("plain text")).toBeUndefined();
	});
});
