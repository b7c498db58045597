// `agent config`'s list: what packages, settings entries and auto-discovery offer, enabled or not, and what
// toggling one writes — checked against the resource loader, which must load exactly the enabled ones.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stripAnsi } from "@agent/tui";
import { afterEach, describe, expect, it } from "vitest";
import { SettingsManager } from "../../src/core/config/settings-manager.js";
import {
	type ConfigurableResource,
	listConfigurableResources,
	setResourceEnabled,
} from "../../src/core/packages/resource-inventory.js";
import { DefaultResourceLoader } from "../../src/core/resources/resource-loader.js";
import { ResourceConfigSelector } from "../../src/modes/interactive/selectors/resource-config-selector.js";
import { ThemeRegistry } from "../../src/modes/interactive/theme/theme-registry.js";
import { createTempTree, type TempTree } from "../helpers/resources-temp-tree.js";

const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\nBody\n`;

let tree: (TempTree & { remove(): void }) | undefined;
afterEach(() => tree?.remove());

function setup(userSettings: Record<string, unknown>) {
	tree = createTempTree("agent-config-");
	tree.writeAll({
		"pack/skills/alpha/SKILL.md": skill("alpha"),
		"pack/skills/beta/SKILL.md": skill("beta"),
		"pack/prompts/fix.md": "Fix it",
		"agent/prompts/mine.md": "Mine",
		"agent/settings.json": JSON.stringify(userSettings),
	});
	tree.mkdir("project");
	const cwd = tree.path("project");
	const agentDir = tree.path("agent");
	const homeDir = tree.path("home");
	const settingsManager = () => SettingsManager.create(cwd, agentDir);
	const list = (manager = settingsManager()) =>
		listConfigurableResources({ cwd, agentDir, homeDir, settingsManager: manager });
	const loaded = async () => {
		const loader = new DefaultResourceLoader({ cwd, agentDir, homeDir, settingsManager: settingsManager() });
		await loader.reload();
		return {
			skills: loader.getSkills().skills.map((s) => s.name),
			prompts: loader.getPrompts().prompts.map((p) => p.name),
		};
	};
	const userSettings_ = () => JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8"));
	return { cwd, agentDir, list, loaded, settingsManager, userSettings: userSettings_ };
}

const summary = (resources: ConfigurableResource[]) =>
	resources.map(
		(r) => `${r.group.origin}:${r.type}:${r.path.split("/").slice(-2).join("/")}:${r.enabled ? "on" : "off"}`,
	);

describe("the resources on offer", () => {
	it("lists a package's resources and the auto-discovered ones, with the filters applied", () => {
		const { list } = setup({ packages: [{ source: "../pack", skills: ["!beta"] }] });
		expect(summary(list())).toEqual([
			"package:skills:alpha/SKILL.md:on",
			"package:skills:beta/SKILL.md:off",
			"package:prompts:prompts/fix.md:on",
			"auto:prompts:prompts/mine.md:on",
		]);
	});
});

describe("toggling", () => {
	it("writes -path / +path to the package entry and the loader follows", async () => {
		const { list, loaded, settingsManager, userSettings } = setup({ packages: ["../pack"] });
		const manager = settingsManager();
		const beta = list(manager).find((r) => r.path.endsWith("beta/SKILL.md")) as ConfigurableResource;
		setResourceEnabled(manager, beta, false);
		await manager.flush();
		expect(userSettings().packages).toEqual([{ source: "../pack", skills: ["-skills/beta/SKILL.md"] }]);
		expect((await loaded()).skills).toEqual(["alpha"]);

		setResourceEnabled(manager, beta, true);
		await manager.flush();
		expect(userSettings().packages).toEqual([{ source: "../pack", skills: ["+skills/beta/SKILL.md"] }]);
		expect((await loaded()).skills).toEqual(["alpha", "beta"]);
	});

	it("turns on one resource of a kind the entry disabled, and only that one", async () => {
		const { list, loaded, settingsManager, userSettings } = setup({ packages: [{ source: "../pack", skills: [] }] });
		const manager = settingsManager();
		const alpha = list(manager).find((r) => r.path.endsWith("alpha/SKILL.md")) as ConfigurableResource;
		expect(alpha.enabled).toBe(false);
		setResourceEnabled(manager, alpha, true);
		await manager.flush();
		expect(userSettings().packages).toEqual([{ source: "../pack", skills: ["!**", "+skills/alpha/SKILL.md"] }]);
		expect((await loaded()).skills).toEqual(["alpha"]);
	});

	it("writes an auto-discovered file's -path to the scope's resource array", async () => {
		const { list, loaded, settingsManager, userSettings } = setup({});
		const manager = settingsManager();
		const mine = list(manager).find((r) => r.path.endsWith("mine.md")) as ConfigurableResource;
		setResourceEnabled(manager, mine, false);
		await manager.flush();
		expect(userSettings().prompts).toEqual(["-prompts/mine.md"]);
		expect((await loaded()).prompts).toEqual([]);
	});
});

describe("the selector", () => {
	it("groups by origin, moves over items only, toggles with space and filters as you type", () => {
		const { list } = setup({ packages: ["../pack"] });
		const theme = new ThemeRegistry([], "none").resolve("dark").theme;
		const toggled: string[] = [];
		let closed = false;
		const selector = new ResourceConfigSelector({
			theme,
			resources: list(),
			onToggle: (resource, enabled) => toggled.push(`${resource.path.split("/").at(-2)}:${enabled}`),
			onClose: () => {
				closed = true;
			},
		});
		const screen = () => stripAnsi(selector.render(80).join("\n"));
		expect(screen()).toContain("Resource Configuration");
		expect(screen()).toContain(
			"  ../pack (user)\n    Skills\n>     [x] alpha\n      [x] beta\n    Prompts\n      [x] fix.md",
		);
		selector.handleInput("\x1b[B");
		selector.handleInput(" ");
		expect(toggled).toEqual(["beta:false"]);
		expect(screen()).toContain(">     [ ] beta");
		for (const char of "mine") selector.handleInput(char);
		expect(screen()).toContain("  User (~/.agent/)\n    Prompts\n>     [x] mine.md");
		expect(screen()).not.toContain("alpha");
		selector.handleInput("\x1b");
		expect(closed).toBe(true);
	});
});
