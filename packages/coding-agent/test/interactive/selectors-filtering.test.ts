import type { Model } from "@agent/ai";
import { describe, expect, it } from "vitest";
import type { SessionInfo } from "../../src/core/session/entries.js";
import { AppKeybindings } from "../../src/modes/interactive/keybindings.js";
import { findExactModel } from "../../src/modes/interactive/selectors/model-selector.js";
import { ScopedModelsSelector } from "../../src/modes/interactive/selectors/scoped-models-selector.js";
import { SelectPanel } from "../../src/modes/interactive/selectors/select-panel.js";
import { buildSessionRows } from "../../src/modes/interactive/selectors/session-list-model.js";
import { SessionPicker } from "../../src/modes/interactive/selectors/session-picker.js";
import { createDisplayState } from "../helpers/interactive-display.js";
import { renderComponents } from "../helpers/interactive-terminal.js";

function session(path: string, overrides: Partial<SessionInfo> & { text?: string } = {}): SessionInfo {
	const { text, ...rest } = overrides;
	return {
		path,
		id: path,
		cwd: "/work/project",
		created: new Date(0),
		modified: new Date(1_000),
		messageCount: 2,
		firstMessage: "hello",
		allMessagesText: text ?? overrides.firstMessage ?? "hello",
		...rest,
	};
}

function model(provider: string, id: string): Model {
	return { provider, id, name: id } as Model;
}

describe("select panel", () => {
	it("filters as you type, Enter choosing the best match", async () => {
		let chosen: string | undefined;
		const panel = new SelectPanel(createDisplayState(), {
			title: "Select model",
			items: ["claude-sonnet-4", "gpt-4o", "gemini-2.5-pro"].map((id) => ({ value: id, label: id })),
			onSelect: (item) => {
				chosen = item.value;
			},
			onCancel: () => {},
		});
		for (const char of "gem") panel.handleInput(char);
		const { lines } = await renderComponents([panel]);
		const all = lines.join("\n");
		expect(all).toContain("> gem");
		expect(all).toContain("gemini-2.5-pro");
		expect(all).not.toContain("gpt-4o");
		panel.handleInput("\r");
		expect(chosen).toBe("gemini-2.5-pro");
	});

	it("edits the filter with Backspace and cancels with Esc", () => {
		let cancelled = false;
		const panel = new SelectPanel(createDisplayState(), {
			title: "t",
			items: [{ value: "a", label: "alpha" }],
			onSelect: () => {},
			onCancel: () => {
				cancelled = true;
			},
		});
		panel.handleInput("x");
		panel.handleInput("\x7f");
		expect(panel.getFilter()).toBe("");
		panel.handleInput("\x1b");
		expect(cancelled).toBe(true);
	});
});

describe("model lookup for /model <search>", () => {
	const models = [model("anthropic", "claude-sonnet-4"), model("openai", "gpt-4o"), model("openrouter", "gpt-4o")];

	it("switches directly on a unique id or provider/id, case-insensitive", () => {
		expect(findExactModel(models, "CLAUDE-sonnet-4")?.provider).toBe("anthropic");
		expect(findExactModel(models, "openrouter/gpt-4o")?.provider).toBe("openrouter");
	});

	it("opens the selector (no direct match) for an ambiguous or partial search", () => {
		expect(findExactModel(models, "gpt-4o")).toBeUndefined();
		expect(findExactModel(models, "sonnet")).toBeUndefined();
	});
});

describe("session list", () => {
	const sessions = [
		session("/s/a.jsonl", {
			firstMessage: "fix the parser",
			modified: new Date(3_000),
			text: "fix the parser tokens",
		}),
		session("/s/b.jsonl", { firstMessage: "write docs", name: "Docs day", modified: new Date(2_000) }),
		session("/s/c.jsonl", {
			firstMessage: "parser fork",
			parentSessionPath: "/s/a.jsonl",
			modified: new Date(4_000),
		}),
	];

	it("threads forks under the session they came from", () => {
		const { rows } = buildSessionRows(sessions, { query: "", sort: "threaded", namedOnly: false });
		expect(rows.map((row) => [row.session.path, row.depth])).toEqual([
			["/s/a.jsonl", 0],
			["/s/c.jsonl", 1],
			["/s/b.jsonl", 0],
		]);
	});

	it("orders by last activity in recent mode and keeps named sessions only when asked", () => {
		expect(
			buildSessionRows(sessions, { query: "", sort: "recent", namedOnly: false }).rows.map((r) => r.session.path),
		).toEqual(["/s/c.jsonl", "/s/a.jsonl", "/s/b.jsonl"]);
		expect(
			buildSessionRows(sessions, { query: "", sort: "recent", namedOnly: true }).rows.map((r) => r.session.path),
		).toEqual(["/s/b.jsonl"]);
	});

	it('searches with re:<regex>, "exact phrase" and fuzzy words', () => {
		const search = (query: string) =>
			buildSessionRows(sessions, { query, sort: "recent", namedOnly: false }).rows.map((row) => row.session.path);
		expect(search("re:^write")).toEqual(["/s/b.jsonl"]);
		expect(search('"parser tokens"')).toEqual(["/s/a.jsonl"]);
		expect(search("docs")).toEqual(["/s/b.jsonl"]);
		expect(buildSessionRows(sessions, { query: "re:(", sort: "recent", namedOnly: false }).error).toBeDefined();
	});

	it("picker: Tab switches to all projects, Ctrl+N named only, Enter opens", async () => {
		const loaded: string[] = [];
		let opened: string | undefined;
		const picker = new SessionPicker({
			state: createDisplayState(),
			keybindings: new AppKeybindings({}, { env: {} }),
			loadSessions: async (scope) => {
				loaded.push(scope);
				return scope === "current"
					? sessions
					: [...sessions, session("/other/d.jsonl", { firstMessage: "elsewhere" })];
			},
			onSelect: (info) => {
				opened = info.path;
			},
			onCancel: () => {},
			rename: async () => {},
			remove: async () => {},
			requestRender: () => {},
		});
		await picker.ready();
		expect(picker.getRows()).toHaveLength(3);
		picker.handleInput("\t");
		await picker.ready();
		expect(loaded).toEqual(["current", "all"]);
		expect(picker.getRows()).toHaveLength(4);
		picker.handleInput("\x0e");
		expect(picker.getRows().map((row) => row.session.path)).toEqual(["/s/b.jsonl"]);
		const { lines } = await renderComponents([picker]);
		expect(lines.join("\n")).toContain("Docs day");
		picker.handleInput("\r");
		expect(opened).toBe("/s/b.jsonl");
	});

	it("picker: refuses to delete the open session and asks before deleting another", async () => {
		const removed: string[] = [];
		const picker = new SessionPicker({
			state: createDisplayState(),
			keybindings: new AppKeybindings({}, { env: {} }),
			loadSessions: async () => sessions,
			currentSessionPath: "/s/a.jsonl",
			onSelect: () => {},
			onCancel: () => {},
			rename: async () => {},
			remove: async (info) => {
				removed.push(info.path);
			},
			requestRender: () => {},
		});
		await picker.ready();
		picker.handleInput("\x04");
		const { lines } = await renderComponents([picker]);
		expect(lines.join("\n")).toContain("The current session cannot be deleted.");
		picker.handleInput("\x1b[B");
		picker.handleInput("\x04");
		picker.handleInput("y");
		await picker.ready();
		expect(removed).toEqual(["/s/c.jsonl"]);
	});
});

describe("scoped models", () => {
	const models = [
		model("anthropic", "claude-sonnet-4"),
		model("anthropic", "claude-opus-4"),
		model("openai", "gpt-4o"),
	];

	it("toggles with Enter, a whole provider with Ctrl+P, all with Ctrl+A, and saves with Ctrl+S", () => {
		const changes: string[][] = [];
		const saved: string[][] = [];
		const selector = new ScopedModelsSelector({
			state: createDisplayState(),
			models,
			enabled: ["openai/gpt-4o"],
			onChange: (enabled) => changes.push(enabled.map((m) => m.id)),
			onSave: (enabled) => saved.push(enabled.map((m) => m.id)),
			onClose: () => {},
		});
		expect(selector.getEnabled().map((m) => m.id)).toEqual(["gpt-4o"]);
		selector.handleInput("\x1b[B");
		selector.handleInput("\r");
		expect(selector.getEnabled().map((m) => m.id)).toEqual(["gpt-4o", "claude-sonnet-4"]);
		// Ctrl+P on an Anthropic model enables the rest of Anthropic: now every model is enabled, which means
		// no scope at all.
		selector.handleInput("\x10");
		expect(selector.getEnabled()).toEqual([]);
		selector.handleInput("\x10");
		expect(selector.getEnabled().map((m) => m.id)).toEqual(["gpt-4o"]);
		selector.handleInput("\x01");
		selector.handleInput("\x13");
		expect(saved).toEqual([[]]);
		expect(changes).toEqual([["gpt-4o", "claude-sonnet-4"], [], ["gpt-4o"], []]);
	});

	it("reorders with Alt+Up", () => {
		const selector = new ScopedModelsSelector({
			state: createDisplayState(),
			models,
			enabled: ["anthropic/claude-sonnet-4", "openai/gpt-4o"],
			onChange: () => {},
			onSave: () => {},
			onClose: () => {},
		});
		selector.handleInput("\x1b[B");
		selector.handleInput("\x1b[1;3A");
		expect(selector.getEnabled().map((m) => m.id)).toEqual(["gpt-4o", "claude-sonnet-4"]);
	});
});
