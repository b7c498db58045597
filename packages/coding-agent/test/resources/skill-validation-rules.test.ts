import { describe, expect, it } from "vitest";
import { loadSkillFromFile } from "../../src/core/resources/index.js";
import { skillMarkdown, useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

/** Writes `<dir>/SKILL.md` and loads it. */
function loadSkill(dir: string, content: string) {
	const tree = newTree();
	const path = tree.write(`${dir}/SKILL.md`, content);
	return { path, ...loadSkillFromFile(path, "user") };
}

const messagesOf = (diagnostics: Array<{ message: string }>) => diagnostics.map((diagnostic) => diagnostic.message);

describe("description", () => {
	it("is required: a skill without one is reported and not loaded", () => {
		const { skill, diagnostics, path } = loadSkill("pdf", skillMarkdown({ name: "pdf" }));
		expect(skill).toBeUndefined();
		expect(diagnostics).toEqual([{ type: "warning", message: "description is required", path }]);
	});

	it("is required: a blank one counts as missing", () => {
		const { skill, diagnostics } = loadSkill("pdf", skillMarkdown({ name: "pdf", description: '"   "' }));
		expect(skill).toBeUndefined();
		expect(messagesOf(diagnostics)).toEqual(["description is required"]);
	});

	it("over 1024 characters is reported but the skill still loads", () => {
		const description = "x".repeat(1025);
		const { skill, diagnostics } = loadSkill("pdf", skillMarkdown({ name: "pdf", description }));
		expect(skill?.description).toBe(description);
		expect(messagesOf(diagnostics)).toEqual(["description exceeds 1024 characters (1025)"]);
	});

	it("of exactly 1024 characters is fine", () => {
		const { skill, diagnostics } = loadSkill("pdf", skillMarkdown({ name: "pdf", description: "y".repeat(1024) }));
		expect(skill).toBeDefined();
		expect(diagnostics).toEqual([]);
	});

	it("that is not a string is reported and the skill is not loaded", () => {
		const { skill, diagnostics } = loadSkill("pdf", skillMarkdown({ name: "pdf", description: "[a, b]" }));
		expect(skill).toBeUndefined();
		expect(messagesOf(diagnostics)).toEqual(["description must be a string"]);
	});
});

describe("name", () => {
	it("defaults to the parent directory's name", () => {
		const { skill, diagnostics } = loadSkill("pdf-tools", skillMarkdown({ description: "Work with PDFs" }));
		expect(skill?.name).toBe("pdf-tools");
		expect(diagnostics).toEqual([]);
	});

	it.each([
		["pdf-tools", "pdf", ['name "pdf" does not match parent directory "pdf-tools"']],
		["a".repeat(65), "a".repeat(65), ["name exceeds 64 characters (65)"]],
		["PDF_Tools", "PDF_Tools", ["name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)"]],
		["-pdf", "-pdf", ["name must not start or end with a hyphen"]],
		["pdf-", "pdf-", ["name must not start or end with a hyphen"]],
		["pdf--tools", "pdf--tools", ["name must not contain consecutive hyphens"]],
	])("in directory %j named %j is reported and the skill still loads", (dir, name, expected) => {
		const { skill, diagnostics } = loadSkill(dir, skillMarkdown({ name, description: "Some skill" }));
		expect(skill?.name).toBe(name);
		expect(messagesOf(diagnostics)).toEqual(expected);
	});

	it("can break several rules at once", () => {
		const { diagnostics } = loadSkill("x", skillMarkdown({ name: "-Bad--Name-", description: "d" }));
		expect(messagesOf(diagnostics)).toEqual([
			'name "-Bad--Name-" does not match parent directory "x"',
			"name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)",
			"name must not start or end with a hyphen",
			"name must not contain consecutive hyphens",
		]);
	});

	it("of a loose markdown file defaults to the file's name and is checked against it", () => {
		const tree = newTree();
		const loose = tree.write("skills/commit-message.md", skillMarkdown({ description: "Write commit messages" }));
		expect(loadSkillFromFile(loose, "user")).toEqual({
			skill: expect.objectContaining({ name: "commit-message", baseDir: tree.path("skills") }),
			diagnostics: [],
		});
		const renamed = tree.write("skills/other.md", skillMarkdown({ name: "commits", description: "d" }));
		expect(messagesOf(loadSkillFromFile(renamed, "user").diagnostics)).toEqual([
			'name "commits" does not match file name "other"',
		]);
	});
});

describe("frontmatter", () => {
	it("that is malformed YAML is reported with its line, and the skill is skipped", () => {
		const { skill, diagnostics, path } = loadSkill(
			"pdf",
			"---\nname: pdf\ndescription: [unclosed\nother: 1\n---\nbody\n",
		);
		expect(skill).toBeUndefined();
		expect(diagnostics).toHaveLength(1);
		expect(diagnostics[0]).toMatchObject({ type: "warning", path });
		expect(diagnostics[0]?.message).toMatch(/^invalid YAML frontmatter at line \d+: /);
	});

	it("reads disable-model-invocation, and reports a value that is not a boolean", () => {
		expect(loadSkill("a", skillMarkdown({ description: "d", "disable-model-invocation": true })).skill).toMatchObject(
			{ disableModelInvocation: true },
		);
		const { skill, diagnostics } = loadSkill(
			"b",
			skillMarkdown({ description: "d", "disable-model-invocation": '"yes"' }),
		);
		expect(skill?.disableModelInvocation).toBe(false);
		expect(messagesOf(diagnostics)).toEqual(["disable-model-invocation must be true or false"]);
	});

	it("with CRLF line endings parses like LF", () => {
		const { skill, diagnostics } = loadSkill(
			"pdf",
			"---\r\nname: pdf\r\ndescription: Work with PDFs\r\n---\r\nbody\r\n",
		);
		expect(diagnostics).toEqual([]);
		expect(skill).toMatchObject({ name: "pdf", description: "Work with PDFs" });
	});

	it("missing altogether means the description is missing", () => {
		const { skill, diagnostics } = loadSkill("pdf", "# Just a heading\n");
		expect(skill).toBeUndefined();
		expect(messagesOf(diagnostics)).toEqual(["description is required"]);
	});
});
