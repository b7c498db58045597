// The reference's dialogs, constructed as programs written for it construct them, show our panels and answer
// through the reference's callbacks: each is rendered to lines and driven with keys.
import type { ThinkingLevel } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import {
	AuthStorage,
	ExtensionEditorComponent,
	ExtensionInputComponent,
	ExtensionSelectorComponent,
	LoginDialogComponent,
	ModelSelectorComponent,
	OAuthSelectorComponent,
	SessionManager,
	SessionSelectorComponent,
	type SettingsCallbacks,
	type SettingsConfig,
	SettingsSelectorComponent,
	ShowImagesSelectorComponent,
	SkillInvocationMessageComponent,
	ThemeSelectorComponent,
	ThinkingSelectorComponent,
	TreeSelectorComponent,
	UserMessageSelectorComponent,
} from "@agent/coding-agent";
import { stripAnsi, type TUI } from "@agent/tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionInfo } from "../../src/core/session/entries.js";
import { assistantMessage, userMessage } from "../helpers/session-fixtures.js";

const ENTER = "\r";
const ESC = "\x1b";
const DOWN = "\x1b[B";

const plain = (lines: string[]) => stripAnsi(lines.join("\n"));
const type = (component: { handleInput(data: string): void }, text: string) => {
	for (const char of text) component.handleInput(char);
};
// What the dialogs ask of a TUI: a render now and then, the terminal's size (the editor), stop/start (Ctrl+G).
function fakeTui(): TUI & { renders: number } {
	const tui = {
		renders: 0,
		terminal: { rows: 40, columns: 100 },
		requestRender() {
			tui.renders += 1;
		},
		stop() {},
		start() {},
	};
	return tui as unknown as TUI & { renders: number };
}

describe("selection dialogs", () => {
	const models = [
		{ provider: "anthropic", id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5" },
		{ provider: "openai", id: "gpt-5", name: "GPT-5" },
	] as Model[];

	it("ThinkingSelectorComponent starts at the current level and selects the one moved to", () => {
		const chosen: ThinkingLevel[] = [];
		let cancelled = 0;
		const selector = new ThinkingSelectorComponent(
			"low",
			["off", "low", "high"],
			(level) => chosen.push(level),
			() => cancelled++,
		);
		const text = plain(selector.render(60));
		expect(text).toContain("Thinking level");
		expect(text).toMatch(/off[\s\S]*low[\s\S]*high/);
		selector.handleInput(DOWN);
		selector.handleInput(ENTER);
		expect(chosen).toEqual(["high"]);
		selector.handleInput(ESC);
		expect(cancelled).toBe(1);
		expect(selector.getSelectList().getSelectedItem()?.value).toBe("high");
	});

	it("ShowImagesSelectorComponent answers yes or no", () => {
		const chosen: boolean[] = [];
		const selector = new ShowImagesSelectorComponent(
			true,
			(show) => chosen.push(show),
			() => {},
		);
		expect(plain(selector.render(60))).toMatch(/Yes[\s\S]*No/);
		selector.handleInput(DOWN);
		selector.handleInput(ENTER);
		expect(chosen).toEqual([false]);
	});

	it("ThemeSelectorComponent previews the theme moved to and selects it", () => {
		const previewed: string[] = [];
		const chosen: string[] = [];
		let cancelled = 0;
		const selector = new ThemeSelectorComponent(
			"dark",
			(name) => chosen.push(name),
			() => cancelled++,
			(name) => previewed.push(name),
		);
		expect(plain(selector.render(60))).toMatch(/dark[\s\S]*light/);
		selector.handleInput(DOWN);
		expect(previewed).toEqual(["light"]);
		selector.handleInput(ENTER);
		expect(chosen).toEqual(["light"]);
		selector.handleInput(ESC);
		expect(cancelled).toBe(1);
	});

	it("ModelSelectorComponent lists the available models, filters as typed and saves the choice as default", () => {
		const defaults: string[] = [];
		const chosen: string[] = [];
		let cancelled = 0;
		const selector = new ModelSelectorComponent(
			fakeTui(),
			models[0],
			{ setDefaultModelAndProvider: (provider, id) => defaults.push(`${provider}/${id}`) },
			{ refresh: () => {}, getAvailable: () => models },
			[],
			(model) => chosen.push(model.id),
			() => cancelled++,
		);
		const text = plain(selector.render(80));
		expect(text).toContain("claude-sonnet-4-5 ✓");
		expect(text).toContain("gpt-5");
		type(selector, "gpt");
		expect(selector.getSearchInput().getValue()).toBe("gpt");
		selector.handleInput(ENTER);
		expect(chosen).toEqual(["gpt-5"]);
		expect(defaults).toEqual(["openai/gpt-5"]);
		selector.handleInput(ESC);
		expect(cancelled).toBe(1);
	});

	it("ModelSelectorComponent's search input is its search: setting or typing into it filters the list", () => {
		const chosen: string[] = [];
		const selector = new ModelSelectorComponent(
			fakeTui(),
			undefined,
			{ setDefaultModelAndProvider: () => {} },
			{ refresh: () => {}, getAvailable: () => models },
			[],
			(model) => chosen.push(model.id),
			() => {},
		);
		const search = selector.getSearchInput();
		expect(selector.getSearchInput()).toBe(search);
		search.setValue("claude");
		expect(plain(selector.render(80))).not.toContain("gpt-5");
		for (let i = 0; i < "claude".length; i++) search.handleInput("\x7f");
		type(search, "gpt");
		expect(search.getValue()).toBe("gpt");
		type(selector, "-5");
		expect(search.getValue()).toBe("gpt-5");
		selector.handleInput(ENTER);
		expect(chosen).toEqual(["gpt-5"]);
	});

	it("ModelSelectorComponent lists only the scoped models when given some, and starts from the search given", () => {
		const scoped = [{ model: { provider: "openai", id: "gpt-5", name: "GPT-5" } as Model }];
		const chosen: string[] = [];
		const selector = new ModelSelectorComponent(
			fakeTui(),
			undefined,
			{ setDefaultModelAndProvider: () => {} },
			{
				refresh: () => {},
				getAvailable: () => {
					throw new Error("the registry is not asked when models are scoped");
				},
			},
			scoped,
			(model) => chosen.push(model.id),
			() => {},
			"gp",
		);
		expect(plain(selector.render(80))).toContain("Select model (scoped)");
		selector.handleInput(ENTER);
		expect(chosen).toEqual(["gpt-5"]);
	});

	it("UserMessageSelectorComponent lists the messages newest first and selects an entry id", () => {
		const chosen: string[] = [];
		let cancelled = 0;
		const selector = new UserMessageSelectorComponent(
			[
				{ id: "m1", text: "first question" },
				{ id: "m2", text: "second\nquestion" },
			],
			(id) => chosen.push(id),
			() => cancelled++,
		);
		expect(plain(selector.render(60))).toMatch(/second question[\s\S]*first question/);
		selector.handleInput(DOWN);
		selector.handleInput(ENTER);
		expect(chosen).toEqual(["m1"]);
		selector.handleInput(ESC);
		expect(cancelled).toBe(1);
	});

	it("UserMessageSelectorComponent's message list is driven like the dialog", () => {
		const chosen: string[] = [];
		const selector = new UserMessageSelectorComponent(
			[
				{ id: "m1", text: "first question" },
				{ id: "m2", text: "second question" },
			],
			(id) => chosen.push(id),
			() => {},
		);
		const list = selector.getMessageList();
		expect(plain(list.render(60))).toMatch(/second question[\s\S]*first question/);
		type(list, "first");
		expect(plain(list.render(60))).not.toContain("second question");
		list.handleInput(ENTER);
		expect(chosen).toEqual(["m1"]);
	});

	it("OAuthSelectorComponent offers every provider to log in to, and only the signed-in ones to log out of", () => {
		const auth = AuthStorage.inMemory(
			{ "github-copilot": { type: "oauth", access: "a", refresh: "r", expires: Date.now() + 60_000 } },
			{},
		);
		const chosen: string[] = [];
		const login = new OAuthSelectorComponent(
			"login",
			auth,
			(id) => chosen.push(id),
			() => {},
		);
		const loginText = plain(login.render(80));
		expect(loginText).toContain("GitHub Copilot ✓ logged in");
		expect(loginText.split("\n").length).toBeGreaterThan(4);
		login.handleInput(ENTER);
		expect(chosen).toHaveLength(1);

		let cancelled = 0;
		const logout = new OAuthSelectorComponent(
			"logout",
			auth,
			(id) => chosen.push(id),
			() => cancelled++,
		);
		expect(plain(logout.render(80))).toContain("GitHub Copilot");
		logout.handleInput(ENTER);
		expect(chosen.at(-1)).toBe("github-copilot");
		logout.handleInput(ESC);
		expect(cancelled).toBe(1);
	});
});

describe("TreeSelectorComponent", () => {
	function sessionTree() {
		const manager = SessionManager.inMemory("/tmp/project");
		const first = manager.appendMessage(userMessage("first question"));
		manager.appendMessage(assistantMessage("first answer"));
		const second = manager.appendMessage(userMessage("second question"));
		const leaf = manager.appendMessage(assistantMessage("second answer"));
		return { tree: manager.getTree(), first, second, leaf };
	}

	it("shows the tree with the leaf active and selects the entry moved to", () => {
		const { tree, leaf, second } = sessionTree();
		const chosen: string[] = [];
		let cancelled = 0;
		const selector = new TreeSelectorComponent(
			tree,
			leaf,
			40,
			(id) => chosen.push(id),
			() => cancelled++,
		);
		const text = plain(selector.render(100));
		expect(text).toContain("first question");
		expect(text).toContain("second answer ← active");
		selector.handleInput("\x1b[A");
		selector.handleInput(ENTER);
		expect(chosen).toEqual([second]);
		selector.handleInput(ESC);
		expect(cancelled).toBe(1);
	});

	it("starts at the entry and filter given, and reports an edited label", () => {
		const { tree, leaf, first } = sessionTree();
		const labels: [string, string | undefined][] = [];
		const chosen: string[] = [];
		const selector = new TreeSelectorComponent(
			tree,
			leaf,
			40,
			(id) => chosen.push(id),
			() => {},
			(id, label) => labels.push([id, label]),
			first,
			"user-only",
		);
		expect(plain(selector.render(100))).toContain("filter: user-only");
		selector.handleInput("L");
		type(selector, "start");
		selector.handleInput(ENTER);
		expect(labels).toEqual([[first, "start"]]);
		expect(plain(selector.render(100))).toContain("[start]");
		selector.handleInput(ENTER);
		expect(chosen).toEqual([first]);
	});

	it("its tree list answers the search, the selected node, and shows a label set through it", () => {
		const { tree, leaf, second } = sessionTree();
		const labels: string[] = [];
		const selector = new TreeSelectorComponent(
			tree,
			leaf,
			40,
			() => {},
			() => {},
			(id) => labels.push(id),
		);
		const list = selector.getTreeList();
		expect(list.getSelectedNode()?.entry.id).toBe(leaf);
		list.handleInput("\x1b[A");
		expect(list.getSelectedNode()?.entry.id).toBe(second);
		type(list, "second");
		expect(list.getSearchQuery()).toBe("second");
		list.updateNodeLabel(second, "checkpoint");
		expect(plain(list.render(100))).toContain("[checkpoint]");
		expect(list.getSelectedNode()?.label).toBe("checkpoint");
		list.updateNodeLabel(second, undefined);
		expect(plain(selector.render(100))).not.toContain("[checkpoint]");
		expect(labels).toEqual([]);
	});
});

describe("SessionSelectorComponent", () => {
	function info(path: string, name: string): SessionInfo {
		return {
			path,
			id: path,
			cwd: "/work/project",
			name,
			created: new Date(0),
			modified: new Date(1_000),
			messageCount: 2,
			firstMessage: name,
			allMessagesText: name,
		};
	}

	it("lists the current folder's sessions, Tab switches to all, Enter selects a path", async () => {
		const chosen: string[] = [];
		let cancelled = 0;
		const selector = new SessionSelectorComponent(
			async () => [info("/s/current.jsonl", "current work")],
			async () => [info("/s/current.jsonl", "current work"), info("/s/other.jsonl", "other project")],
			(path) => chosen.push(path),
			() => cancelled++,
			() => {},
			() => {},
		);
		await selector.ready();
		expect(plain(selector.render(100))).toContain("current work");
		expect(plain(selector.render(100))).not.toContain("other project");
		selector.handleInput("\t");
		await selector.ready();
		expect(plain(selector.render(100))).toContain("other project");
		type(selector, "other");
		selector.handleInput(ENTER);
		expect(chosen).toEqual(["/s/other.jsonl"]);
		selector.handleInput(ESC);
		expect(cancelled).toBe(1);
	});

	it("its session list answers the selected path and takes the sort and the name filter", async () => {
		const unnamed = { ...info("/s/unnamed.jsonl", ""), name: undefined, firstMessage: "an unnamed session" };
		const selector = new SessionSelectorComponent(
			async () => [info("/s/named.jsonl", "named work"), unnamed],
			async () => [],
			() => {},
			() => {},
			() => {},
			() => {},
		);
		await selector.ready();
		const list = selector.getSessionList();
		expect(plain(list.render(100))).toContain("an unnamed session");
		list.setNameFilter("named");
		expect(plain(list.render(100))).not.toContain("an unnamed session");
		expect(list.getSelectedSessionPath()).toBe("/s/named.jsonl");
		list.setSortMode("relevance");
		expect(plain(list.render(100))).toContain("sort: fuzzy");
		list.setNameFilter("all");
		list.setSortMode("recent");
		expect(plain(list.render(100))).toContain("sort: recent");
		expect(plain(list.render(100))).toContain("an unnamed session");
	});

	it("renames a session through options.renameSession", async () => {
		const renamed: [string, string][] = [];
		const selector = new SessionSelectorComponent(
			async () => [info("/s/a.jsonl", "alpha")],
			async () => [],
			() => {},
			() => {},
			() => {},
			() => {},
			{
				renameSession: async (path, name) => {
					renamed.push([path, name]);
				},
			},
		);
		await selector.ready();
		selector.handleInput("\x12");
		type(selector, "-2");
		selector.handleInput(ENTER);
		await vi.waitFor(() => expect(renamed).toEqual([["/s/a.jsonl", "alpha-2"]]));
	});
});

describe("SettingsSelectorComponent", () => {
	function config(): SettingsConfig {
		return {
			autoCompact: true,
			showImages: true,
			autoResizeImages: true,
			blockImages: false,
			enableSkillCommands: true,
			steeringMode: "one-at-a-time",
			followUpMode: "one-at-a-time",
			transport: "sse",
			thinkingLevel: "off",
			availableThinkingLevels: ["off", "low"],
			currentTheme: "dark",
			availableThemes: ["dark", "light"],
			hideThinkingBlock: false,
			collapseChangelog: false,
			doubleEscapeAction: "tree",
			treeFilterMode: "default",
			showHardwareCursor: false,
			editorPaddingX: 0,
			autocompleteMaxVisible: 5,
			quietStartup: false,
			clearOnShrink: false,
		};
	}

	it("lists the settings and sends a changed value to its callback", () => {
		const calls: string[] = [];
		const record =
			(name: string) =>
			(value: unknown): void => {
				calls.push(`${name}:${String(value)}`);
			};
		let cancelled = 0;
		const callbacks: SettingsCallbacks = {
			onAutoCompactChange: record("autoCompact"),
			onShowImagesChange: record("showImages"),
			onAutoResizeImagesChange: record("autoResizeImages"),
			onBlockImagesChange: record("blockImages"),
			onEnableSkillCommandsChange: record("skillCommands"),
			onSteeringModeChange: record("steeringMode"),
			onFollowUpModeChange: record("followUpMode"),
			onTransportChange: record("transport"),
			onThinkingLevelChange: record("thinking"),
			onThemeChange: record("theme"),
			onHideThinkingBlockChange: record("hideThinking"),
			onCollapseChangelogChange: record("collapseChangelog"),
			onDoubleEscapeActionChange: record("doubleEscape"),
			onTreeFilterModeChange: record("treeFilter"),
			onShowHardwareCursorChange: record("hardwareCursor"),
			onEditorPaddingXChange: record("padding"),
			onAutocompleteMaxVisibleChange: record("autocompleteMax"),
			onQuietStartupChange: record("quietStartup"),
			onClearOnShrinkChange: record("clearOnShrink"),
			onCancel: () => cancelled++,
		};
		const selector = new SettingsSelectorComponent(config(), callbacks);
		const text = plain(selector.render(100));
		expect(text).toContain("Settings");
		expect(text).toContain("Auto-compact");
		expect(text).not.toContain("TUI mode");
		selector.handleInput(ENTER);
		selector.handleInput(DOWN);
		selector.handleInput(ENTER);
		expect(calls).toEqual(["autoCompact:false", "steeringMode:all"]);
		expect(selector.getSettingsList()).toBeDefined();
		selector.handleInput(ESC);
		expect(cancelled).toBe(1);
	});
});

describe("extension dialogs", () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it("ExtensionSelectorComponent selects an option, and cancels itself when its timeout runs out", () => {
		const chosen: string[] = [];
		let cancelled = 0;
		const selector = new ExtensionSelectorComponent(
			"Deploy to?",
			["staging", "production"],
			(option) => chosen.push(option),
			() => cancelled++,
		);
		expect(plain(selector.render(60))).toMatch(/Deploy to\?[\s\S]*staging[\s\S]*production/);
		selector.handleInput(DOWN);
		selector.handleInput(ENTER);
		expect(chosen).toEqual(["production"]);

		const tui = fakeTui();
		const timed = new ExtensionSelectorComponent(
			"Continue?",
			["yes", "no"],
			() => {},
			() => cancelled++,
			{
				tui,
				timeout: 2_000,
			},
		);
		expect(plain(timed.render(60))).toContain("Continue? (2s)");
		vi.advanceTimersByTime(1_000);
		expect(plain(timed.render(60))).toContain("Continue? (1s)");
		vi.advanceTimersByTime(1_000);
		expect(cancelled).toBe(1);
		expect(tui.renders).toBeGreaterThan(0);
		vi.advanceTimersByTime(5_000);
		expect(cancelled).toBe(1);
		timed.dispose();
	});

	it("ExtensionInputComponent submits the typed line, and cancels on Esc", () => {
		const submitted: string[] = [];
		let cancelled = 0;
		const input = new ExtensionInputComponent(
			"Branch name",
			"feature/…",
			(value) => submitted.push(value),
			() => cancelled++,
		);
		expect(plain(input.render(60))).toContain("Branch name");
		type(input, "fix-tabs");
		input.handleInput(ENTER);
		expect(submitted).toEqual(["fix-tabs"]);
		input.handleInput(ESC);
		expect(cancelled).toBe(1);
		input.dispose();
	});

	it("ExtensionEditorComponent submits the edited text, and cancels on Esc", () => {
		const submitted: string[] = [];
		let cancelled = 0;
		const editor = new ExtensionEditorComponent(
			fakeTui(),
			{ matches: () => false },
			"Commit message",
			"Fix: ",
			(value) => submitted.push(value),
			() => cancelled++,
		);
		expect(plain(editor.render(60))).toContain("Commit message");
		type(editor, "tabs");
		editor.handleInput(ENTER);
		expect(submitted).toEqual(["Fix: tabs"]);
		editor.handleInput(ESC);
		expect(cancelled).toBe(1);
	});
});

describe("LoginDialogComponent", () => {
	it("shows the page to open and answers a prompt with the typed text", async () => {
		const completed: [boolean, string | undefined][] = [];
		const dialog = new LoginDialogComponent(fakeTui(), "github-copilot", (success, message) =>
			completed.push([success, message]),
		);
		dialog.showAuth("https://github.com/login/device", "Enter code ABCD-1234");
		dialog.showProgress("Waiting for authorization");
		const answer = dialog.showPrompt("Enterprise domain", "leave empty for github.com");
		const text = plain(dialog.render(80));
		expect(text).toContain("Login to GitHub Copilot");
		expect(text).toContain("https://github.com/login/device");
		expect(text).toContain("Enter code ABCD-1234");
		expect(text).toContain("Enterprise domain");
		type(dialog, "example.com");
		dialog.handleInput(ENTER);
		await expect(answer).resolves.toBe("example.com");
		expect(completed).toEqual([]);
	});

	it("Esc aborts the signal, rejects the pending answer and reports the cancel", async () => {
		const completed: [boolean, string | undefined][] = [];
		const dialog = new LoginDialogComponent(fakeTui(), "openai-codex", (success, message) =>
			completed.push([success, message]),
		);
		const answer = dialog.showManualInput("Paste the redirect URL");
		dialog.handleInput(ESC);
		await expect(answer).rejects.toThrow("Login cancelled");
		expect(dialog.signal.aborted).toBe(true);
		expect(completed).toEqual([[false, "Login cancelled"]]);
	});
});

describe("SkillInvocationMessageComponent", () => {
	it("shows the skill's name until expanded, then its instructions", () => {
		const skill = new SkillInvocationMessageComponent({
			name: "release",
			location: "/skills/release/SKILL.md",
			content: "Bump the version, then tag it.",
		});
		const collapsed = plain(skill.render(80));
		expect(collapsed).toContain("[skill]");
		expect(collapsed).toContain("release");
		expect(collapsed).not.toContain("Bump the version");
		skill.setExpanded(true);
		expect(plain(skill.render(80))).toContain("Bump the version, then tag it.");
	});
});
