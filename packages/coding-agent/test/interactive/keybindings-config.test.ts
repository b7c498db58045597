import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	AppKeybindings,
	conflictKeyOf,
	DEFAULT_KEYBINDINGS,
	defaultAppKeybindingsFor,
} from "../../src/modes/interactive/keybindings.js";
import { loadKeybindings, parseKeybindingsFile } from "../../src/modes/interactive/keybindings-file.js";

const CTRL_P = "\x10";
const ALT_M = "\x1bm";
const ESC = "\x1b";
const ALT_ENTER = "\x1b\r";

describe("default key bindings", () => {
	it("match the reference's application table", () => {
		expect(defaultAppKeybindingsFor("linux")).toEqual({
			interrupt: ["escape"],
			clear: ["ctrl+c"],
			exit: ["ctrl+d"],
			suspend: ["ctrl+z"],
			cycleThinkingLevel: ["shift+tab"],
			cycleModelForward: ["ctrl+p"],
			cycleModelBackward: ["shift+ctrl+p"],
			selectModel: ["ctrl+l"],
			expandTools: ["ctrl+o"],
			toggleThinking: ["ctrl+t"],
			toggleSessionNamedFilter: ["ctrl+n"],
			externalEditor: ["ctrl+g"],
			followUp: ["alt+enter"],
			dequeue: ["alt+up"],
			pasteImage: ["ctrl+v"],
			newSession: [],
			tree: [],
			fork: [],
			resume: [],
			// Ours: the full-screen mode's scrolling and search.
			scrollUp: ["pageUp"],
			scrollDown: ["pageDown"],
			searchTranscript: ["ctrl+s"],
			cyclePermissionMode: ["alt+p"],
		});
	});

	it("paste images with Alt+V on Windows", () => {
		expect(defaultAppKeybindingsFor("win32").pasteImage).toEqual(["alt+v"]);
	});

	it("include the editor actions in DEFAULT_KEYBINDINGS", () => {
		expect(DEFAULT_KEYBINDINGS.cursorWordLeft).toEqual(["alt+left", "ctrl+left", "alt+b"]);
		expect(DEFAULT_KEYBINDINGS.deleteSessionNoninvasive).toEqual(["ctrl+backspace"]);
		expect(DEFAULT_KEYBINDINGS.interrupt).toEqual(["escape"]);
	});

	it("find the action for raw input", () => {
		const keys = new AppKeybindings({}, { platform: "linux", env: {} });
		expect(keys.actionFor(CTRL_P)).toBe("cycleModelForward");
		expect(keys.actionFor(ESC)).toBe("interrupt");
		expect(keys.actionFor(ALT_ENTER)).toBe("followUp");
		expect(keys.actionFor("a")).toBeUndefined();
	});
});

describe("keybindings.json", () => {
	it("replaces an action's keys, accepting a single key id or an array", () => {
		const { keybindings, warnings } = parseKeybindingsFile(
			JSON.stringify({ cycleModelForward: "alt+m", cursorUp: ["up", "ctrl+k"] }),
			"keybindings.json",
			{ platform: "linux", env: {} },
		);
		expect(warnings).toEqual([]);
		expect(keybindings.actionFor(ALT_M)).toBe("cycleModelForward");
		expect(keybindings.actionFor(CTRL_P)).toBeUndefined();
		expect(keybindings.getKeys("cursorUp")).toEqual(["up", "ctrl+k"]);
		// Actions not mentioned keep their defaults.
		expect(keybindings.getKeys("selectModel")).toEqual(["ctrl+l"]);
	});

	it("unbinds an action with []", () => {
		const { keybindings } = parseKeybindingsFile(JSON.stringify({ interrupt: [] }), "k.json", { env: {} });
		expect(keybindings.actionFor(ESC)).toBeUndefined();
		expect(keybindings.describe("interrupt")).toBe("");
	});

	it("binds actions that have no default key", () => {
		const { keybindings } = parseKeybindingsFile(JSON.stringify({ tree: "ctrl+shift+t" }), "k.json", { env: {} });
		expect(keybindings.getKeys("tree")).toEqual(["ctrl+shift+t"]);
	});

	it("falls back to the defaults on invalid JSON, saying so", () => {
		const { keybindings, warnings } = parseKeybindingsFile("{ not json", "/a/keybindings.json", { env: {} });
		expect(keybindings.actionFor(CTRL_P)).toBe("cycleModelForward");
		expect(warnings[0]).toMatch(/^\/a\/keybindings\.json: invalid JSON/);
	});

	it("reports unknown actions and key ids", () => {
		const { warnings } = parseKeybindingsFile(
			JSON.stringify({ launchRocket: "ctrl+r", clear: "ctrl+nope" }),
			"k.json",
			{ env: {} },
		);
		expect(warnings).toContain('k.json: unknown action "launchRocket"');
		expect(warnings.some((warning) => warning.includes("ctrl+nope"))).toBe(true);
	});

	it("reports two application actions bound to the same key", () => {
		const { warnings } = parseKeybindingsFile(JSON.stringify({ tree: "ctrl+p" }), "k.json", { env: {} });
		expect(warnings).toEqual(['k.json: "ctrl+p" is bound to cycleModelForward and tree; cycleModelForward takes it']);
	});

	it("treats modifier order and aliases as the same key", () => {
		expect(conflictKeyOf("Shift+Ctrl+P")).toBe(conflictKeyOf("ctrl+shift+p"));
		expect(conflictKeyOf("esc")).toBe("escape");
		expect(conflictKeyOf("ctrl++")).toBe("ctrl++");
	});

	it("loads <agentDir>/keybindings.json, and the defaults when there is none", () => {
		const dir = mkdtempSync(join(tmpdir(), "agent-keys-"));
		expect(loadKeybindings(dir, { env: {} }).keybindings.getKeys("exit")).toEqual(["ctrl+d"]);
		writeFileSync(join(dir, "keybindings.json"), JSON.stringify({ exit: "ctrl+q" }));
		const loaded = loadKeybindings(dir, { env: {} });
		expect(loaded.warnings).toEqual([]);
		expect(loaded.keybindings.getKeys("exit")).toEqual(["ctrl+q"]);
	});
});
