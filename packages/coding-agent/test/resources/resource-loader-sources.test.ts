import { describe, expect, it } from "vitest";
import { SettingsManager } from "../../src/core/config/index.js";
import { DefaultResourceLoader, type DefaultResourceLoaderOptions } from "../../src/core/resources/index.js";
import { skillMarkdown, type TempTree, useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

const skill = (name: string, description = `The ${name} skill`) => skillMarkdown({ name, description });

/**
 * A project (cwd), a user directory and a home directory in one temp tree; settings written as given. The
 * project is trusted unless `projectTrusted: false` (its `packages` and `extensions` settings wait for trust).
 */
function setup(
	files: Record<string, string>,
	settings: { user?: object; project?: object } = {},
	{ projectTrusted = true } = {},
) {
	const tree = newTree();
	tree.mkdir("project/.git");
	tree.writeAll(files);
	if (settings.user) tree.write("home/.agent/settings.json", JSON.stringify(settings.user));
	if (settings.project) tree.write("project/.agent/settings.json", JSON.stringify(settings.project));
	const cwd = tree.path("project");
	const agentDir = tree.path("home/.agent");
	const load = async (options: DefaultResourceLoaderOptions = {}) => {
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			homeDir: tree.path("home"),
			settingsManager: SettingsManager.create(cwd, agentDir, { projectTrusted }),
			...options,
		});
		await loader.reload();
		return loader;
	};
	return { tree, cwd, agentDir, load };
}

const skillNames = (loader: DefaultResourceLoader) => loader.getSkills().skills.map((s) => s.name);

describe("skill sources in priority order", () => {
	it("goes packages, settings (project, user), project, user, -e packages, --skill", async () => {
		const { tree, load } = setup(
			{
				"pkgs/team/skills/from-package/SKILL.md": skill("from-package"),
				"project/.agent/listed/from-project-settings/SKILL.md": skill("from-project-settings"),
				"home/.agent/listed/from-user-settings/SKILL.md": skill("from-user-settings"),
				"project/.agent/skills/from-project/SKILL.md": skill("from-project"),
				"home/.agent/skills/from-user/SKILL.md": skill("from-user"),
				"cli-pkg/skills/from-cli-package/SKILL.md": skill("from-cli-package"),
				"cli/from-cli/SKILL.md": skill("from-cli"),
			},
			{
				user: { skills: ["listed"], packages: ["../../pkgs/team"] },
				project: { skills: ["listed"] },
			},
		);
		const loader = await load({
			additionalExtensionPaths: [tree.path("cli-pkg")],
			additionalSkillPaths: [tree.path("cli/from-cli")],
		});
		expect(loader.getDiagnostics()).toEqual([]);
		expect(skillNames(loader)).toEqual([
			"from-package",
			"from-project-settings",
			"from-user-settings",
			"from-project",
			"from-user",
			"from-cli-package",
			"from-cli",
		]);
	});

	it("lets the earlier source win a name collision and reports the later one", async () => {
		const { tree, load } = setup({
			"project/.agent/skills/review/SKILL.md": skill("review", "project"),
			"home/.agent/skills/review/SKILL.md": skill("review", "user"),
			"cli/review/SKILL.md": skill("review", "cli"),
		});
		const loader = await load({ additionalSkillPaths: [tree.path("cli/review")] });
		const { skills, diagnostics } = loader.getSkills();
		expect(skills.map((s) => s.description)).toEqual(["project"]);
		expect(diagnostics.map((d) => [d.type, d.path])).toEqual([
			["collision", tree.path("home/.agent/skills/review/SKILL.md")],
			["collision", tree.path("cli/review/SKILL.md")],
		]);
	});

	it("drops packages, settings and auto-discovery with noSkills but keeps -e packages and --skill", async () => {
		const { tree, load } = setup(
			{
				"home/.agent/skills/auto/SKILL.md": skill("auto"),
				"home/.agent/listed/SKILL.md": skill("listed"),
				"cli-pkg/skills/packaged/SKILL.md": skill("packaged"),
				"cli/manual/SKILL.md": skill("manual"),
			},
			{ user: { skills: ["listed"] } },
		);
		const loader = await load({
			noSkills: true,
			additionalExtensionPaths: [tree.path("cli-pkg")],
			additionalSkillPaths: [tree.path("cli/manual")],
		});
		expect(skillNames(loader)).toEqual(["packaged", "manual"]);
	});

	it("reports a settings entry that does not exist, relative to the settings file's directory", async () => {
		const { tree, load } = setup({}, { project: { skills: ["missing-dir"] } });
		const loader = await load();
		expect(loader.getSkills().diagnostics).toEqual([
			{ type: "warning", message: "skill path does not exist", path: tree.path("project/.agent/missing-dir") },
		]);
	});
});

describe("settings patterns", () => {
	it("disables auto-discovered skills with !glob and re-enables exact paths with +path", async () => {
		const { load } = setup(
			{
				"home/.agent/skills/keep/SKILL.md": skill("keep"),
				"home/.agent/skills/experimental-a/SKILL.md": skill("experimental-a"),
				"home/.agent/skills/experimental-b/SKILL.md": skill("experimental-b"),
			},
			{ user: { skills: ["!experimental-*", "+skills/experimental-b"] } },
		);
		expect(skillNames(await load())).toEqual(["experimental-b", "keep"]);
	});

	it("force-disables an exact path with -path, over everything else", async () => {
		const { load } = setup(
			{ "project/.agent/skills/one/SKILL.md": skill("one"), "project/.agent/skills/two/SKILL.md": skill("two") },
			{ project: { skills: ["+skills/two", "-skills/two"] } },
		);
		expect(skillNames(await load())).toEqual(["one"]);
	});

	it("applies a scope's patterns to that scope only", async () => {
		const { load } = setup(
			{
				"home/.agent/skills/shared-a/SKILL.md": skill("shared-a"),
				"project/.agent/skills/shared-b/SKILL.md": skill("shared-b"),
			},
			{ project: { skills: ["!shared-*"] } },
		);
		expect(skillNames(await load())).toEqual(["shared-a"]);
	});

	it("filters listed directories with plain globs", async () => {
		const { load } = setup(
			{
				"home/.agent/library/pdf/SKILL.md": skill("pdf"),
				"home/.agent/library/docx/SKILL.md": skill("docx"),
			},
			{ user: { skills: ["library", "library/pdf*"] } },
		);
		expect(skillNames(await load())).toEqual(["pdf"]);
	});
});

describe("packages", () => {
	function packageTree(tree: TempTree) {
		tree.writeAll({
			"pkg/package.json": JSON.stringify({
				name: "team",
				agent: { skills: ["./tools"], prompts: ["./templates/fix.md"] },
			}),
			"pkg/tools/alpha/SKILL.md": skill("alpha"),
			"pkg/tools/beta/SKILL.md": skill("beta"),
			"pkg/templates/fix.md": "Fix $1",
			"pkg/themes/ocean.json": JSON.stringify({ name: "ocean" }),
			"pkg/extensions/hello.ts": "export default () => {}",
		});
	}

	it("reads a package's package.json entries, else its conventional directories", async () => {
		const { tree, load } = setup({}, { project: { packages: ["../../pkg"] } });
		packageTree(tree);
		const loader = await load();
		expect(loader.getDiagnostics()).toEqual([]);
		expect(skillNames(loader)).toEqual(["alpha", "beta"]);
		expect(loader.getPrompts().prompts.map((p) => [p.name, p.description])).toEqual([["fix", "Fix $1 (path:fix)"]]);
		expect(loader.getThemes().themes.map((t) => t.name)).toEqual(["ocean"]);
		expect(loader.getExtensionPaths().extensions).toEqual([
			{ path: tree.path("pkg/extensions/hello.ts"), source: "path", scope: "project" },
		]);
	});

	it("filters a package's resources with an object entry; an empty list disables a kind", async () => {
		const { tree, load } = setup(
			{},
			{ user: { packages: [{ source: "../../pkg", skills: ["beta"], prompts: [] }] } },
		);
		packageTree(tree);
		const loader = await load();
		expect(skillNames(loader)).toEqual(["beta"]);
		expect(loader.getPrompts().prompts).toEqual([]);
		expect(loader.getThemes().themes.map((t) => t.name)).toEqual(["ocean"]);
	});

	it('reads the reference program\'s "pi" manifest key when there is no "agent" key', async () => {
		const { tree, load } = setup({}, { project: { packages: ["../../pi-pkg"] } });
		tree.writeAll({
			"pi-pkg/package.json": JSON.stringify({ name: "x", pi: { skills: ["lib"] } }),
			"pi-pkg/lib/legacy/SKILL.md": skill("legacy"),
		});
		expect(skillNames(await load())).toEqual(["legacy"]);
	});

	it("reports a package that is not installed or does not exist, and loads everything else", async () => {
		const { tree, load } = setup(
			{ "home/.agent/skills/fine/SKILL.md": skill("fine") },
			{ user: { packages: ["npm:@team/missing-skills@1.0.0", "./nowhere", "git:github.com/team/skills@v1"] } },
		);
		const loader = await load({
			locatePackage: (source) => (source.type === "local" ? tree.path("nowhere") : undefined),
		});
		expect(skillNames(loader)).toEqual(["fine"]);
		expect(loader.getDiagnostics().map((d) => d.message)).toEqual([
			'package "npm:@team/missing-skills@1.0.0" is not installed (run: agent install npm:@team/missing-skills@1.0.0)',
			'package path "./nowhere" does not exist',
			'package "git:github.com/team/skills@v1" is not installed (run: agent install git:github.com/team/skills@v1)',
		]);
	});

	it("loads a package listed in both scopes once, from the project", async () => {
		// Both entries resolve to <tree>/pkg: the project's relative to project/.agent, the user's to home/.agent.
		const { tree, load } = setup(
			{ "pkg/skills/only/SKILL.md": skill("only") },
			{ project: { packages: ["../../pkg"] }, user: { packages: [{ source: "../../pkg", skills: [] }] } },
		);
		const loader = await load();
		expect(loader.getDiagnostics()).toEqual([]);
		expect(loader.getSkills().skills).toEqual([
			expect.objectContaining({ name: "only", filePath: tree.path("pkg/skills/only/SKILL.md") }),
		]);
	});
});

describe("an untrusted project", () => {
	it("has its packages and extensions settings ignored; its own skills directory still loads", async () => {
		const files = {
			"pkg/skills/from-package/SKILL.md": skill("from-package"),
			"pkg/extensions/run.ts": "export default () => {}",
			"shared/ext.ts": "export default () => {}",
			"project/.agent/skills/local/SKILL.md": skill("local"),
		};
		const project = { packages: ["../../pkg"], extensions: ["../../shared/ext.ts"] };
		const untrusted = await setup(files, { project }, { projectTrusted: false }).load();
		expect(skillNames(untrusted)).toEqual(["local"]);
		expect(untrusted.getExtensionPaths().extensions).toEqual([]);

		const { tree, load } = setup(files, { project });
		const trusted = await load();
		expect(skillNames(trusted)).toEqual(["from-package", "local"]);
		expect(trusted.getExtensionPaths().extensions.map((extension) => extension.path)).toEqual([
			tree.path("pkg/extensions/run.ts"),
			tree.path("shared/ext.ts"),
		]);
	});
});

describe("extension discovery", () => {
	it("finds modules, index files and package.json entries; -e first; each path once", async () => {
		const { tree, load } = setup(
			{
				"project/.agent/extensions/alpha.ts": "",
				"project/.agent/extensions/types.d.ts": "",
				"project/.agent/extensions/beta/index.ts": "",
				"project/.agent/extensions/gamma/package.json": JSON.stringify({
					agent: { extensions: ["./src/main.ts"] },
				}),
				"project/.agent/extensions/gamma/src/main.ts": "",
				"home/.agent/extensions/user.js": "",
				"cli/tool.ts": "",
			},
			{ user: { extensions: ["../../project/.agent/extensions/alpha.ts"] } },
		);
		const loader = await load({ additionalExtensionPaths: [tree.path("cli/tool.ts")] });
		expect(loader.getExtensionPaths()).toEqual({
			extensions: [
				{ path: tree.path("cli/tool.ts"), source: "path", scope: "temporary" },
				{ path: tree.path("project/.agent/extensions/alpha.ts"), source: "path", scope: "user" },
				{ path: tree.path("project/.agent/extensions/beta/index.ts"), source: "project", scope: "project" },
				{ path: tree.path("project/.agent/extensions/gamma/src/main.ts"), source: "project", scope: "project" },
				{ path: tree.path("home/.agent/extensions/user.js"), source: "user", scope: "user" },
			],
			diagnostics: [],
		});
	});

	it("treats an extensions directory that is itself a package as one extension", async () => {
		const { tree, load } = setup({
			"home/.agent/extensions/index.ts": "",
			"home/.agent/extensions/helper.ts": "",
		});
		expect((await load()).getExtensionPaths().extensions).toEqual([
			{ path: tree.path("home/.agent/extensions/index.ts"), source: "user", scope: "user" },
		]);
	});

	it("reports a subdirectory that is not an extension and a listed entry that does not exist", async () => {
		const { tree, load } = setup({
			"home/.agent/extensions/lib/util.ts": "",
			"home/.agent/extensions/broken/package.json": JSON.stringify({ agent: { extensions: ["./gone.ts"] } }),
		});
		expect((await load()).getExtensionPaths().diagnostics.map((d) => [d.message.split(" (")[0], d.path])).toEqual([
			["extension listed in package.json does not exist", tree.path("home/.agent/extensions/broken/gone.ts")],
			[
				"extension directory has no index.ts, index.js or package.json extensions entry",
				tree.path("home/.agent/extensions/broken"),
			],
			[
				"extension directory has no index.ts, index.js or package.json extensions entry",
				tree.path("home/.agent/extensions/lib"),
			],
		]);
	});

	it("keeps -e with noExtensions and drops the rest", async () => {
		const { tree, load } = setup({ "home/.agent/extensions/auto.ts": "", "cli/tool.ts": "" });
		const loader = await load({ noExtensions: true, additionalExtensionPaths: [tree.path("cli/tool.ts")] });
		expect(loader.getExtensionPaths().extensions.map((e) => e.path)).toEqual([tree.path("cli/tool.ts")]);
	});
});

describe("themes", () => {
	it("discovers theme files, reports invalid JSON with its line and a name collision", async () => {
		const { tree, load } = setup({
			"project/.agent/themes/ocean.json": JSON.stringify({ name: "ocean", colors: {} }),
			"home/.agent/themes/also-ocean.json": JSON.stringify({ name: "ocean" }),
			"home/.agent/themes/unnamed.json": "{}",
			"home/.agent/themes/broken.json": '{\n  "name": "broken",\n}',
		});
		const { themes, diagnostics } = (await load()).getThemes();
		expect(themes.map((t) => [t.name, t.source])).toEqual([
			["ocean", "project"],
			["unnamed", "user"],
		]);
		expect(diagnostics.map((d) => [d.type, d.message])).toEqual([
			["collision", 'name "ocean" collision'],
			[
				"warning",
				`Invalid JSON in ${tree.path("home/.agent/themes/broken.json")} at line 3, column 1: Expected double-quoted property name`,
			],
		]);
	});
});

describe("reloading", () => {
	it("picks up added and removed files, and gathers context files and SYSTEM.md", async () => {
		const { tree, load } = setup({
			"project/AGENTS.md": "Project rules",
			"project/.agent/SYSTEM.md": "Custom prompt",
			"home/.agent/APPEND_SYSTEM.md": "Extra",
			"home/.agent/skills/first/SKILL.md": skill("first"),
		});
		const loader = await load();
		expect(loader.getSystemPrompt()).toBe("Custom prompt");
		expect(loader.getAppendSystemPrompt()).toEqual(["Extra"]);
		expect(loader.getContextFiles().contextFiles.at(-1)).toEqual({
			path: tree.path("project/AGENTS.md"),
			content: "Project rules",
		});

		tree.write("home/.agent/skills/second/SKILL.md", skill("second"));
		tree.write("project/AGENTS.md", "New rules");
		await loader.reload();
		expect(skillNames(loader)).toEqual(["first", "second"]);
		expect(loader.getContextFiles().contextFiles.at(-1)?.content).toBe("New rules");
	});

	it("adds runtime paths with extendResources until the next reload", async () => {
		const { tree, load } = setup({
			"home/.agent/skills/base/SKILL.md": skill("base"),
			"ext/skills/contributed/SKILL.md": skill("contributed"),
			"ext/prompts/ship.md": "Ship it",
		});
		const loader = await load();
		loader.extendResources(
			{ skillPaths: [tree.path("ext/skills/contributed")], promptPaths: [tree.path("ext/prompts")] },
			"extension:release",
		);
		expect(loader.getSkills().skills.map((s) => [s.name, s.source])).toEqual([
			["base", "user"],
			["contributed", "extension:release"],
		]);
		expect(loader.getPrompts().prompts.map((p) => p.name)).toEqual(["ship"]);
		await loader.reload();
		expect(skillNames(loader)).toEqual(["base"]);
	});
});
