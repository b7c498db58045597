import { readFileSync, statSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatSettingsWarning, SettingsManager } from "../../src/core/config/index.js";
import { useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

const BROKEN = '{\n  "theme": "light",\n  "defaultModel": "claude",\n}\n';

function setup(userText: string) {
	const tree = newTree();
	const cwd = tree.mkdir("project");
	const agentDir = tree.path("agent");
	const path = tree.write("agent/settings.json", userText);
	return { tree, cwd, agentDir, path };
}

describe("a settings file that is not valid JSON", () => {
	it("is reported with its path, line and column, and its settings are not used", () => {
		const { cwd, agentDir, path } = setup(BROKEN);
		const settings = SettingsManager.create(cwd, agentDir);
		expect(settings.getTheme()).toBe("dark");
		expect(settings.drainErrors()).toMatchObject([
			{
				scope: "global",
				path,
				message: `Invalid JSON in ${path} at line 4, column 1: Expected double-quoted property name (settings in this file are ignored and it will not be written)`,
			},
		]);
	});

	it("is printed at startup as a warning naming the scope", () => {
		const { cwd, agentDir, path } = setup(BROKEN);
		const [error] = SettingsManager.create(cwd, agentDir).drainErrors();
		expect(error && formatSettingsWarning(error)).toMatch(
			new RegExp(
				`^Warning \\(startup, global settings\\): Invalid JSON in ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} at line 4`,
			),
		);
	});

	it("also comes as an Error, as the reference's `{ scope, error }` has it", () => {
		const { cwd, agentDir } = setup(BROKEN);
		const [problem] = SettingsManager.create(cwd, agentDir).drainErrors();
		expect(problem?.error).toBeInstanceOf(Error);
		expect(problem?.error.message).toBe(problem?.message);
	});

	it("is left byte for byte as it was, even when settings change", async () => {
		const { cwd, agentDir, path } = setup(BROKEN);
		const before = statSync(path);
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setTheme("solarized");
		settings.setCompactionEnabled(false);
		settings.setDefaultModelAndProvider("openai", "gpt-5");
		await settings.flush();
		expect(readFileSync(path, "utf8")).toBe(BROKEN);
		expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
		// The change still applies to this process.
		expect(settings.getTheme()).toBe("solarized");
	});

	it.each([
		['{"a": tru}', 1, 10, "Unexpected token '}'"],
		['{\n  "a": 1', 2, 9, "Expected ',' or '}' after property value"],
		['{"a": 1}}', 1, 9, "Unexpected non-whitespace character after JSON"],
		["{\n\n  oops\n}", 3, 3, "Expected property name or '}'"],
	])("names the position of %j: line %i, column %i", (text, line, column, reason) => {
		const { cwd, agentDir, path } = setup(text);
		const [error] = SettingsManager.create(cwd, agentDir).drainErrors();
		expect(error?.message).toContain(`Invalid JSON in ${path} at line ${line}, column ${column}: ${reason}`);
	});

	it("that is valid JSON but not an object is reported and never written", async () => {
		const { cwd, agentDir, path } = setup('["theme", "light"]');
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setTheme("light");
		await settings.flush();
		expect(settings.drainErrors().map((error) => error.message)).toEqual([
			`Invalid settings in ${path}: expected a JSON object at the top level (settings in this file are ignored and it will not be written)`,
		]);
		expect(readFileSync(path, "utf8")).toBe('["theme", "light"]');
	});

	it("does not stop the project settings from loading or being written", async () => {
		const { tree, cwd, agentDir } = setup(BROKEN);
		const projectPath = tree.write("project/.agent/settings.json", '{"theme": "light"}');
		const settings = SettingsManager.create(cwd, agentDir);
		expect(settings.getTheme()).toBe("light");
		settings.setProjectPackages(["./local-pkg"]);
		await settings.flush();
		expect(JSON.parse(readFileSync(projectPath, "utf8"))).toEqual({ theme: "light", packages: ["./local-pkg"] });
	});

	it("is treated as empty when it holds only whitespace, and may then be written", async () => {
		const { cwd, agentDir, path } = setup("  \n");
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setTheme("light");
		await settings.flush();
		expect(settings.drainErrors()).toEqual([]);
		expect(readFileSync(path, "utf8")).toBe('{\n  "theme": "light"\n}');
	});
});

describe("a settings file broken by hand while the program runs", () => {
	it("is not overwritten; the change is written once the file is fixed", async () => {
		const { cwd, agentDir, path } = setup('{"theme": "dark"}');
		const settings = SettingsManager.create(cwd, agentDir);
		writeFileSync(path, '{"theme": "dark", "quietStartup": tr');
		settings.setHideThinkingBlock(true);
		await settings.flush();
		expect(readFileSync(path, "utf8")).toBe('{"theme": "dark", "quietStartup": tr');
		expect(settings.drainErrors()).toMatchObject([
			{
				scope: "global",
				path,
				message: `Invalid JSON in ${path} at line 1, column 37: Unexpected end of input (not written, to keep the file as it is)`,
			},
		]);

		writeFileSync(path, '{"theme": "dark", "quietStartup": true}');
		settings.setCollapseChangelog(true);
		await settings.flush();
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
			theme: "dark",
			quietStartup: true,
			hideThinkingBlock: true,
			collapseChangelog: true,
		});
	});
});
