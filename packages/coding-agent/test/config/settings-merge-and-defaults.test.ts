import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mergeSettings, SettingsManager } from "../../src/core/config/index.js";
import { useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

function setup(files: { user?: unknown; project?: unknown } = {}, env: NodeJS.ProcessEnv = {}) {
	const tree = newTree();
	const cwd = tree.mkdir("project");
	const agentDir = tree.path("agent");
	if (files.user !== undefined) tree.write("agent/settings.json", JSON.stringify(files.user, null, 2));
	if (files.project !== undefined) tree.write("project/.agent/settings.json", JSON.stringify(files.project, null, 2));
	return { tree, settings: SettingsManager.create(cwd, agentDir, { env }) };
}

describe("defaults", () => {
	it("gives every key its documented default when there are no files", () => {
		const { settings } = setup();
		expect({
			defaultProvider: settings.getDefaultProvider(),
			defaultModel: settings.getDefaultModel(),
			defaultThinkingLevel: settings.getDefaultThinkingLevel(),
			hideThinkingBlock: settings.getHideThinkingBlock(),
			thinkingBudgets: settings.getThinkingBudgets(),
			transport: settings.getTransport(),
			steeringMode: settings.getSteeringMode(),
			followUpMode: settings.getFollowUpMode(),
			theme: settings.getTheme(),
			quietStartup: settings.getQuietStartup(),
			collapseChangelog: settings.getCollapseChangelog(),
			lastChangelogVersion: settings.getLastChangelogVersion(),
			doubleEscapeAction: settings.getDoubleEscapeAction(),
			treeFilterMode: settings.getTreeFilterMode(),
			editorPaddingX: settings.getEditorPaddingX(),
			autocompleteMaxVisible: settings.getAutocompleteMaxVisible(),
			showHardwareCursor: settings.getShowHardwareCursor(),
			compaction: settings.getCompactionSettings(),
			branchSummary: settings.getBranchSummarySettings(),
			retry: settings.getRetrySettings(),
			showImages: settings.getShowImages(),
			clearOnShrink: settings.getClearOnShrink(),
			autoResize: settings.getImageAutoResize(),
			blockImages: settings.getBlockImages(),
			shellPath: settings.getShellPath(),
			shellCommandPrefix: settings.getShellCommandPrefix(),
			npmCommand: settings.getNpmCommand(),
			enabledModels: settings.getEnabledModels(),
			enableSkillCommands: settings.getEnableSkillCommands(),
			packages: settings.getPackages(),
			extensions: settings.getResourcePaths("extensions"),
			skills: settings.getResourcePaths("skills"),
			prompts: settings.getResourcePaths("prompts"),
			themes: settings.getResourcePaths("themes"),
			codeBlockIndent: settings.getCodeBlockIndent(),
		}).toEqual({
			defaultProvider: undefined,
			defaultModel: undefined,
			defaultThinkingLevel: undefined,
			hideThinkingBlock: false,
			thinkingBudgets: undefined,
			transport: "sse",
			steeringMode: "one-at-a-time",
			followUpMode: "one-at-a-time",
			theme: "dark",
			quietStartup: false,
			collapseChangelog: false,
			lastChangelogVersion: undefined,
			doubleEscapeAction: "tree",
			treeFilterMode: "default",
			editorPaddingX: 0,
			autocompleteMaxVisible: 5,
			showHardwareCursor: false,
			compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
			branchSummary: { reserveTokens: 16384, skipPrompt: false },
			retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60000 },
			showImages: true,
			clearOnShrink: false,
			autoResize: true,
			blockImages: false,
			shellPath: undefined,
			shellCommandPrefix: undefined,
			npmCommand: undefined,
			enabledModels: undefined,
			enableSkillCommands: true,
			packages: [],
			extensions: [],
			skills: [],
			prompts: [],
			themes: [],
			codeBlockIndent: "  ",
		});
		expect(settings.drainErrors()).toEqual([]);
	});

	it.each([
		["15;0", "dark"],
		["0;15", "light"],
		["0;7", "dark"],
		["0;default;8", "light"],
		["garbage", "dark"],
	])("picks the theme from COLORFGBG=%j: %s", (colorfgbg, theme) => {
		expect(setup({}, { COLORFGBG: colorfgbg }).settings.getTheme()).toBe(theme);
	});

	it("turns the hardware cursor and clear-on-shrink on from the environment unless set", () => {
		const env = { AGENT_HARDWARE_CURSOR: "1", AGENT_CLEAR_ON_SHRINK: "1" };
		expect(setup({}, env).settings.getShowHardwareCursor()).toBe(true);
		expect(setup({}, env).settings.getClearOnShrink()).toBe(true);
		const explicit = setup({ user: { showHardwareCursor: false, terminal: { clearOnShrink: false } } }, env).settings;
		expect([explicit.getShowHardwareCursor(), explicit.getClearOnShrink()]).toEqual([false, false]);
	});
});

describe("merging user and project settings", () => {
	it("lets project values win, merges objects one level deep and replaces arrays", () => {
		const { settings } = setup({
			user: {
				theme: "dark",
				defaultModel: "user-model",
				compaction: { enabled: false, reserveTokens: 1000 },
				enabledModels: ["a", "b"],
			},
			project: { theme: "light", compaction: { reserveTokens: 5000 }, enabledModels: ["c"] },
		});
		expect(settings.getSettings()).toEqual({
			theme: "light",
			defaultModel: "user-model",
			compaction: { enabled: false, reserveTokens: 5000 },
			enabledModels: ["c"],
		});
	});

	it.each([
		[{ a: 1 }, { a: 2 }, { a: 2 }],
		[{ a: { x: 1, y: 1 } }, { a: { y: 2 } }, { a: { x: 1, y: 2 } }],
		[{ a: { deep: { x: 1 } } }, { a: { deep: { y: 2 } } }, { a: { deep: { y: 2 } } }],
		[{ a: [1, 2] }, { a: [3] }, { a: [3] }],
		[{ a: { x: 1 } }, { a: "text" }, { a: "text" }],
		[{ a: 1 }, { a: undefined }, { a: 1 }],
	])("mergeSettings(%j, %j) is %j", (base, override, expected) => {
		expect(mergeSettings(base as never, override as never)).toEqual(expected);
	});

	it("applies overrides on top of both files without writing them", async () => {
		const { tree, settings } = setup({ user: { theme: "dark" } });
		settings.applyOverrides({ theme: "solarized" });
		settings.setQuietStartup(true);
		await settings.flush();
		expect(settings.getTheme()).toBe("solarized");
		expect(JSON.parse(readFileSync(tree.path("agent/settings.json"), "utf8"))).toEqual({
			theme: "dark",
			quietStartup: true,
		});
	});
});

describe("legacy settings", () => {
	it("are migrated in memory, and reach the file only with the next write", async () => {
		const legacy = {
			queueMode: "all",
			websockets: true,
			skills: { enableSkillCommands: false, customDirectories: ["~/my-skills"] },
		};
		const { tree, settings } = setup({ user: legacy });
		expect(settings.getSteeringMode()).toBe("all");
		expect(settings.getTransport()).toBe("websocket");
		expect(settings.getEnableSkillCommands()).toBe(false);
		expect(settings.getResourcePaths("skills")).toEqual(["~/my-skills"]);
		const path = tree.path("agent/settings.json");
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(legacy);

		settings.setTheme("light");
		await settings.flush();
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
			steeringMode: "all",
			transport: "websocket",
			enableSkillCommands: false,
			skills: ["~/my-skills"],
			theme: "light",
		});
	});

	it("keep an explicit new key over the legacy one", () => {
		const { settings } = setup({
			user: { queueMode: "all", steeringMode: "one-at-a-time", websockets: true, transport: "auto" },
		});
		expect([settings.getSteeringMode(), settings.getTransport()]).toEqual(["one-at-a-time", "auto"]);
	});

	it("drop an old skills object without directories", () => {
		const { settings } = setup({ user: { skills: { enableSkillCommands: true, customDirectories: [] } } });
		expect(settings.getGlobalSettings()).toEqual({ enableSkillCommands: true });
	});
});

describe("values of the wrong type", () => {
	it("are reported with the key and the file, and the default is used", () => {
		const { tree, settings } = setup({
			user: {
				hideThinkingBlock: "yes",
				transport: "carrier-pigeon",
				compaction: { enabled: "no", reserveTokens: 1000 },
				enabledModels: "claude-*",
				retry: [],
			},
		});
		expect(settings.getHideThinkingBlock()).toBe(false);
		expect(settings.getTransport()).toBe("sse");
		expect(settings.getCompactionSettings()).toEqual({ enabled: true, reserveTokens: 1000, keepRecentTokens: 20000 });
		expect(settings.getEnabledModels()).toBeUndefined();
		const path = tree.path("agent/settings.json");
		expect(settings.drainErrors()).toMatchObject([
			{
				scope: "global",
				path,
				message: `Invalid setting in ${path}: "hideThinkingBlock": expected true or false, got "yes" (ignored)`,
			},
			{
				scope: "global",
				path,
				message: `Invalid setting in ${path}: "transport": expected one of "sse", "websocket", "auto", got "carrier-pigeon" (ignored)`,
			},
			{
				scope: "global",
				path,
				message: `Invalid setting in ${path}: "compaction.enabled": expected true or false, got "no" (ignored)`,
			},
			{
				scope: "global",
				path,
				message: `Invalid setting in ${path}: "enabledModels": expected a list of strings, got "claude-*" (ignored)`,
			},
			{
				scope: "global",
				path,
				message: `Invalid setting in ${path}: "retry": expected an object, got [] (ignored)`,
			},
		]);
	});

	it("stay in the file untouched when other keys are written", async () => {
		const { tree, settings } = setup({ user: { hideThinkingBlock: "yes" } });
		settings.setTheme("light");
		await settings.flush();
		expect(JSON.parse(readFileSync(tree.path("agent/settings.json"), "utf8"))).toEqual({
			hideThinkingBlock: "yes",
			theme: "light",
		});
	});
});
