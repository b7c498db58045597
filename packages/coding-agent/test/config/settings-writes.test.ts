import {
	chmodSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { describe, expect, it } from "vitest";
import { SettingsManager } from "../../src/core/config/index.js";
import { useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

function setup(userText?: string) {
	const tree = newTree();
	const cwd = tree.mkdir("project");
	const agentDir = tree.path("agent");
	if (userText !== undefined) tree.write("agent/settings.json", userText);
	return { tree, cwd, agentDir, path: tree.path("agent/settings.json") };
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

describe("what a write changes", () => {
	it("writes only the keys changed in this process, over what is on disk now", async () => {
		const { cwd, agentDir, path } = setup('{"theme": "dark", "quietStartup": false}');
		const settings = SettingsManager.create(cwd, agentDir);
		// Another program (or the user) edits the file after we loaded it.
		writeFileSync(path, '{"theme": "solarized", "quietStartup": true, "defaultModel": "by-hand"}');
		settings.setCollapseChangelog(true);
		await settings.flush();
		expect(readJson(path)).toEqual({
			theme: "solarized",
			quietStartup: true,
			defaultModel: "by-hand",
			collapseChangelog: true,
		});
	});

	it("keeps keys this version does not know, at the top level and inside known objects", async () => {
		const original = { someFutureKey: { nested: [1, 2] }, compaction: { futureKnob: 7, enabled: true } };
		const { cwd, agentDir, path } = setup(JSON.stringify(original));
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setCompactionEnabled(false);
		await settings.flush();
		expect(readJson(path)).toEqual({
			someFutureKey: { nested: [1, 2] },
			compaction: { futureKnob: 7, enabled: false },
		});
	});

	it("merges only the changed nested keys of an object setting", async () => {
		const { cwd, agentDir, path } = setup('{"terminal": {"showImages": true}}');
		const settings = SettingsManager.create(cwd, agentDir);
		writeFileSync(path, '{"terminal": {"showImages": true, "clearOnShrink": true}}');
		settings.setShowImages(false);
		await settings.flush();
		expect(readJson(path)).toEqual({ terminal: { showImages: false, clearOnShrink: true } });
	});

	it("removes a key set to undefined", async () => {
		const { cwd, agentDir, path } = setup('{"enabledModels": ["a"], "theme": "dark"}');
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setEnabledModels(undefined);
		await settings.flush();
		expect(readJson(path)).toEqual({ theme: "dark" });
	});

	it("does not rewrite a key again once written, so a later change by another program stays", async () => {
		const { cwd, agentDir, path } = setup("{}");
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setTheme("light");
		await settings.flush();
		writeFileSync(path, '{"theme": "by-hand"}');
		settings.setQuietStartup(true);
		await settings.flush();
		expect(readJson(path)).toEqual({ theme: "by-hand", quietStartup: true });
	});

	it("writes the project file for project setters only", async () => {
		const { tree, cwd, agentDir, path } = setup();
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setProjectResourcePaths("skills", ["../team-skills"]);
		await settings.flush();
		expect(readJson(tree.path("project/.agent/settings.json"))).toEqual({ skills: ["../team-skills"] });
		expect(() => statSync(path)).toThrow();
	});

	it("clamps the editor padding and the autocomplete rows", async () => {
		const { cwd, agentDir, path } = setup();
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setEditorPaddingX(9);
		settings.setAutocompleteMaxVisible(1);
		await settings.flush();
		expect(readJson(path)).toEqual({ editorPaddingX: 3, autocompleteMaxVisible: 3 });
	});
});

describe("how a file is written", () => {
	it("uses 2-space JSON without a trailing newline, and creates the directory", async () => {
		const { cwd, agentDir, path } = setup();
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setDefaultModelAndProvider("anthropic", "claude-sonnet-4-5");
		await settings.flush();
		expect(readFileSync(path, "utf8")).toBe(
			'{\n  "defaultProvider": "anthropic",\n  "defaultModel": "claude-sonnet-4-5"\n}',
		);
	});

	it("leaves no temporary or lock files behind", async () => {
		const { cwd, agentDir } = setup("{}");
		const settings = SettingsManager.create(cwd, agentDir);
		for (let i = 0; i < 5; i++) settings.setEditorPaddingX(i % 3);
		await settings.flush();
		expect(readdirSync(agentDir)).toEqual(["settings.json"]);
	});

	it("writes through a symbolic link, keeping the link", async () => {
		const { tree, cwd, agentDir, path } = setup();
		const target = tree.write("dotfiles/agent-settings.json", '{"theme": "dark"}');
		tree.symlink("dotfiles/agent-settings.json", "agent/settings.json");
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setQuietStartup(true);
		await settings.flush();
		expect(lstatSync(path).isSymbolicLink()).toBe(true);
		expect(readJson(target)).toEqual({ theme: "dark", quietStartup: true });
	});

	it("keeps the file's permissions", async () => {
		const { cwd, agentDir, path } = setup("{}");
		chmodSync(path, 0o600);
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setQuietStartup(true);
		await settings.flush();
		expect(statSync(path).mode & 0o777).toBe(0o600);
	});

	it("takes over a lock left behind by a crashed process", async () => {
		const { cwd, agentDir, path } = setup("{}");
		const lock = `${path}.lock`;
		mkdirSync(lock);
		const aMinuteAgo = new Date(Date.now() - 60_000);
		utimesSync(lock, aMinuteAgo, aMinuteAgo);
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setQuietStartup(true);
		await settings.flush();
		expect(readJson(path)).toEqual({ quietStartup: true });
		expect(settings.drainErrors()).toEqual([]);
		expect(readdirSync(agentDir)).toEqual(["settings.json"]);
	});

	it("never creates a file just by reading settings", () => {
		const { tree, cwd, agentDir } = setup();
		const settings = SettingsManager.create(cwd, agentDir);
		settings.getTheme();
		expect(readdirSync(tree.root).sort()).toEqual(["project"]);
	});
});

describe("flushing", () => {
	it("waits for writes queued while it waits", async () => {
		const { cwd, agentDir, path } = setup("{}");
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setTheme("light");
		const flushed = settings.flush();
		settings.setQuietStartup(true);
		await flushed;
		expect(readJson(path)).toEqual({ theme: "light", quietStartup: true });
	});
});

describe("reloading", () => {
	it("re-reads both files after pending writes finish", async () => {
		const { tree, cwd, agentDir, path } = setup('{"theme": "dark"}');
		const settings = SettingsManager.create(cwd, agentDir);
		settings.setQuietStartup(true);
		writeFileSync(tree.write("project/.agent/settings.json", "{}"), '{"theme": "light"}');
		await settings.reload();
		expect(settings.getTheme()).toBe("light");
		expect(readJson(path)).toEqual({ theme: "dark", quietStartup: true });
	});
});

describe("in-memory settings", () => {
	it("never touch the file system", async () => {
		const settings = SettingsManager.inMemory({ theme: "light" });
		settings.setQuietStartup(true);
		await settings.flush();
		expect([settings.getTheme(), settings.getQuietStartup()]).toEqual(["light", true]);
		expect(settings.getGlobalSettings()).toEqual({ theme: "light", quietStartup: true });
	});
});
