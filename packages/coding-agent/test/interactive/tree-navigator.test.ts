import { describe, expect, it } from "vitest";
import type { TreeFilterMode } from "../../src/core/config/settings-schema.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { buildTreeRows, describeToolCall, searchTreeRows } from "../../src/modes/interactive/selectors/tree-model.js";
import { TreeSelector } from "../../src/modes/interactive/selectors/tree-selector.js";
import { createDisplayState } from "../helpers/interactive-display.js";
import { renderComponents } from "../helpers/interactive-terminal.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/session-fixtures.js";

/**
 * u1 → a1 → u2 → a2 (a bash call `ls -la` and its result between) → leaf, and a second branch from a1: u3 → a3.
 */
function forkedSession() {
	const manager = SessionManager.inMemory("/work/project");
	manager.appendModelChange("faux", "faux-1");
	const u1 = manager.appendMessage(userMessage("first question"));
	const a1 = manager.appendMessage(assistantMessage("first answer"));
	const u2 = manager.appendMessage(userMessage("second question"));
	const call = assistantMessage("");
	call.content = [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "ls -la" } }];
	manager.appendMessage(call);
	manager.appendMessage(toolResultMessage("total 36\ndrwxr-xr-x tool output"));
	const a2 = manager.appendMessage(assistantMessage("second answer"));
	manager.branch(a1);
	const u3 = manager.appendMessage(userMessage("other direction"));
	const a3 = manager.appendMessage(assistantMessage("other answer"));
	manager.branch(a2);
	return { manager, ids: { u1, a1, u2, a2, u3, a3 } };
}

function rows(manager: SessionManager, filter: TreeFilterMode = "default", folded: string[] = []) {
	return buildTreeRows(manager.getTree(), {
		filter,
		activePath: new Set(manager.getBranch().map((entry) => entry.id)),
		leafId: manager.getLeafId(),
		folded: new Set(folded),
	});
}

describe("tool results in the tree", () => {
	it("are named by their call, as the reference names them", () => {
		const call = (name: string, args: Record<string, unknown>) => describeToolCall({ name, arguments: args });
		expect(call("bash", { command: "ls -la" })).toBe("[bash: ls -la]");
		expect(call("bash", { command: `echo ${"x".repeat(60)}\nnext` })).toBe(`[bash: echo ${"x".repeat(45)}...]`);
		expect(call("read", { path: "src/a.ts", offset: 10, limit: 20 })).toBe("[read: src/a.ts:10-29]");
		expect(call("read", { path: "src/a.ts" })).toBe("[read: src/a.ts]");
		expect(call("edit", { path: "calc.py", oldText: "a", newText: "b" })).toBe("[edit: calc.py]");
		expect(call("grep", { pattern: "TODO", path: "src" })).toBe("[grep: /TODO/ in src]");
		expect(call("find", { pattern: "*.ts" })).toBe("[find: *.ts in .]");
		expect(call("ls", {})).toBe("[ls: .]");
		expect(call("deploy", { target: "staging", dryRun: true, note: "a long note here" })).toBe(
			'[deploy: {"target":"staging","dryRun":true,"note"...]',
		);
	});
});

describe("tree rows", () => {
	it("keep a chain at one indent and draw each branch of a fork with ├─ / └─", () => {
		const { manager } = forkedSession();
		const drawn = rows(manager).map((row) => `${row.prefix}${row.text}`);
		expect(drawn).toEqual([
			"user: first question",
			"assistant: first answer",
			"├─ user: second question",
			"│  [bash: ls -la]",
			"│  assistant: second answer",
			"└─ user: other direction",
			"   assistant: other answer",
		]);
	});

	it("mark the active path and the current leaf", () => {
		const { manager, ids } = forkedSession();
		const all = rows(manager);
		expect(all.find((row) => row.entry.id === ids.a2)?.isActiveLeaf).toBe(true);
		expect(all.find((row) => row.entry.id === ids.u2)?.isOnActivePath).toBe(true);
		expect(all.find((row) => row.entry.id === ids.u3)?.isOnActivePath).toBe(false);
	});

	it("filter by kind: no-tools drops tool results, user-only keeps user messages, all shows model changes", () => {
		const { manager } = forkedSession();
		expect(rows(manager, "no-tools").some((row) => row.text.startsWith("[bash"))).toBe(false);
		expect(rows(manager, "user-only").map((row) => row.prefix + row.text)).toEqual([
			"user: first question",
			"├─ user: second question",
			"└─ user: other direction",
		]);
		expect(rows(manager, "all")[0]?.text).toBe("[model: faux/faux-1]");
		expect(rows(manager, "default").some((row) => row.text.startsWith("[model"))).toBe(false);
	});

	it("show labelled entries only with labeled-only, with their label", () => {
		const { manager, ids } = forkedSession();
		manager.appendLabelChange(ids.u2, "checkpoint");
		const labelled = rows(manager, "labeled-only");
		expect(labelled.map((row) => [row.text, row.label])).toEqual([["user: second question", "checkpoint"]]);
	});

	it("hide what is under a folded branch start", () => {
		const { manager, ids } = forkedSession();
		const folded = rows(manager, "default", [ids.u2]);
		expect(folded.find((row) => row.entry.id === ids.u2)).toMatchObject({ isFoldable: true, isFolded: true });
		expect(folded.some((row) => row.text === "assistant: second answer")).toBe(false);
		expect(folded.some((row) => row.text === "user: other direction")).toBe(true);
	});

	it("search keeps rows containing every word", () => {
		const { manager } = forkedSession();
		expect(searchTreeRows(rows(manager), "other ANSWER").map((row) => row.text)).toEqual(["assistant: other answer"]);
	});

	it("handle a 5,000-entry chain without recursion", () => {
		const manager = SessionManager.inMemory("/work/project");
		for (let i = 0; i < 2500; i++) {
			manager.appendMessage(userMessage(`q${i}`));
			manager.appendMessage(assistantMessage(`a${i}`));
		}
		expect(rows(manager)).toHaveLength(5000);
	});
});

describe("tree selector", () => {
	function selector(manager: SessionManager, onSelect: (id: string) => void = () => {}, onCancel = () => {}) {
		const labels: [string, string | undefined][] = [];
		const component = new TreeSelector({
			state: createDisplayState(),
			getTree: () => manager.getTree(),
			getBranch: () => manager.getBranch(),
			getLeafId: () => manager.getLeafId(),
			initialFilter: "default",
			terminalRows: () => 30,
			onSelect: (entry) => onSelect(entry.id),
			onCancel,
			setLabel: (id, label) => {
				labels.push([id, label]);
				manager.appendLabelChange(id, label);
			},
		});
		return { component, labels };
	}

	it("starts on the current leaf, marked ← active, and moves with the arrows", async () => {
		const { manager, ids } = forkedSession();
		const { component } = selector(manager);
		expect(component.getSelectedEntry()?.id).toBe(ids.a2);
		const { lines } = await renderComponents([component], { columns: 100 });
		expect(lines.join("\n")).toMatch(/assistant: second answer ← active/);
		component.handleInput("\x1b[B");
		expect(component.getSelectedEntry()?.id).toBe(ids.u3);
		component.handleInput("\x1b[A");
		component.handleInput("\x1b[A");
		const row = component.getRows().find((candidate) => candidate.entry === component.getSelectedEntry());
		expect(row?.text).toBe("[bash: ls -la]");
	});

	it("cycles filters with Ctrl+O and sets them directly with Ctrl+U / Ctrl+A", () => {
		const { manager } = forkedSession();
		const { component } = selector(manager);
		component.handleInput("\x0f");
		expect(component.getFilter()).toBe("no-tools");
		component.handleInput("\x15");
		expect(component.getFilter()).toBe("user-only");
		component.handleInput("\x01");
		expect(component.getFilter()).toBe("all");
	});

	it("filters by typing, clears the search with Esc, then cancels with a second Esc", () => {
		const { manager } = forkedSession();
		let cancelled = false;
		const { component } = selector(
			manager,
			() => {},
			() => {
				cancelled = true;
			},
		);
		for (const char of "other") component.handleInput(char);
		expect(component.getRows().map((row) => row.text)).toEqual(["user: other direction", "assistant: other answer"]);
		component.handleInput("\x1b");
		expect(component.getRows().length).toBeGreaterThan(2);
		expect(cancelled).toBe(false);
		component.handleInput("\x1b");
		expect(cancelled).toBe(true);
	});

	it("selects the entry under the cursor with Enter", () => {
		const { manager, ids } = forkedSession();
		let selected: string | undefined;
		const { component } = selector(manager, (id) => {
			selected = id;
		});
		for (const char of "second question") component.handleInput(char);
		component.handleInput("\r");
		expect(selected).toBe(ids.u2);
	});

	it("edits the selected entry's label with Shift+L, an empty label removing it", () => {
		const { manager, ids } = forkedSession();
		const { component, labels } = selector(manager);
		component.handleInput("L");
		for (const char of "done") component.handleInput(char);
		component.handleInput("\r");
		expect(labels).toEqual([[ids.a2, "done"]]);
		expect(component.getRows().find((row) => row.entry.id === ids.a2)?.label).toBe("done");
		component.handleInput("L");
		for (let i = 0; i < 4; i++) component.handleInput("\x7f");
		component.handleInput("\r");
		expect(labels[1]).toEqual([ids.a2, undefined]);
	});

	it("folds a branch start with Ctrl+← and unfolds it with Ctrl+→", () => {
		const { manager, ids } = forkedSession();
		const { component } = selector(manager);
		for (const char of "second question") component.handleInput(char);
		component.handleInput("\x1b");
		expect(component.getSelectedEntry()?.id).toBe(ids.u2);
		component.handleInput("\x1b[1;5D");
		expect(component.getRows().some((row) => row.text === "assistant: second answer")).toBe(false);
		component.handleInput("\x1b[1;5C");
		expect(component.getRows().some((row) => row.text === "assistant: second answer")).toBe(true);
	});
});
