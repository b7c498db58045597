import { describe, expect, it } from "vitest";
import { AssistantMessageComponent } from "../../src/modes/interactive/components/assistant-message.js";
import { BashExecutionComponent } from "../../src/modes/interactive/components/bash-execution.js";
import { NoticeComponent } from "../../src/modes/interactive/components/notice.js";
import { PendingMessagesComponent } from "../../src/modes/interactive/components/pending-messages.js";
import { layoutHints, StartupHeaderComponent } from "../../src/modes/interactive/components/startup-header.js";
import { SummaryMessageComponent } from "../../src/modes/interactive/components/summary-message.js";
import { ToolExecutionComponent } from "../../src/modes/interactive/components/tool-execution.js";
import { UserMessageComponent } from "../../src/modes/interactive/components/user-message.js";
import { assistantMessage, createDisplayState } from "../helpers/interactive-display.js";
import { renderComponents } from "../helpers/interactive-terminal.js";

const text = (lines: string[]) => lines.join("\n");

describe("user and assistant messages", () => {
	it("draws a user message as markdown on its background, after a blank line", async () => {
		const state = createDisplayState();
		const { lines, raw } = await renderComponents([new UserMessageComponent(state, "Fix **the** bug")]);
		expect(lines[0]).toBe("");
		expect(text(lines)).toContain("Fix the bug");
		// userMessageBg #343541 in true colour
		expect(raw).toContain("\x1b[48;2;52;53;65m");
	});

	it("draws the reply's markdown and its thinking block", async () => {
		const state = createDisplayState();
		const message = assistantMessage([
			{ type: "thinking", thinking: "Let me look at the code" },
			{ type: "text", text: "# Done\n\n- one\n- two" },
		]);
		const { lines } = await renderComponents([new AssistantMessageComponent(state, message)]);
		const all = text(lines);
		expect(all).toContain("Let me look at the code");
		expect(all).toContain("Done");
		expect(all).toContain("- one");
	});

	it("puts a blank line between the thinking and the answer", async () => {
		const state = createDisplayState();
		const message = assistantMessage([
			{ type: "thinking", thinking: "Let me look" },
			{ type: "text", text: "The answer" },
		]);
		const { lines } = await renderComponents([new AssistantMessageComponent(state, message)]);
		const at = lines.indexOf(" Let me look");
		expect(lines.slice(at, at + 3)).toEqual([" Let me look", "", " The answer"]);
	});

	it("collapses thinking to a label when thinking is hidden", async () => {
		const state = createDisplayState({ hideThinking: true });
		const message = assistantMessage([
			{ type: "thinking", thinking: "secret reasoning" },
			{ type: "text", text: "Answer" },
		]);
		const { lines } = await renderComponents([new AssistantMessageComponent(state, message)]);
		expect(text(lines)).toContain("Thinking...");
		expect(text(lines)).not.toContain("secret reasoning");
	});

	it("ends an aborted reply with Operation aborted and a failed one with its error", async () => {
		const state = createDisplayState();
		const aborted = new AssistantMessageComponent(
			state,
			assistantMessage([{ type: "text", text: "partial" }], { stopReason: "aborted" }),
		);
		const failed = new AssistantMessageComponent(
			state,
			assistantMessage([], { stopReason: "error", errorMessage: "HTTP 500" }),
		);
		const { lines } = await renderComponents([aborted, failed]);
		expect(text(lines)).toContain("Operation aborted");
		expect(text(lines)).toContain("Error: HTTP 500");
		// Not glued to the text above it.
		const at = lines.indexOf(" Operation aborted");
		expect(lines.slice(at - 2, at + 1)).toEqual([" partial", "", " Operation aborted"]);
	});

	it("re-renders only the block that grew while streaming", async () => {
		const state = createDisplayState();
		const component = new AssistantMessageComponent(state);
		component.update(assistantMessage([{ type: "text", text: "first paragraph\n\nsecond" }]));
		const before = component.render(80).slice();
		component.update(assistantMessage([{ type: "text", text: "first paragraph\n\nsecond part" }]));
		const after = component.render(80);
		expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
		expect(after.join("\n")).toContain("second part");
	});
});

describe("start-up header", () => {
	it("wraps the key hints between hints, every row under the one-space indent", () => {
		expect(layoutHints(["Esc to interrupt", "Ctrl+C to clear", "/ for commands"], " • ", 36)).toEqual([
			" Esc to interrupt • Ctrl+C to clear",
			" / for commands",
		]);
		// A hint wider than the line wraps under the indent too.
		expect(layoutHints(["one two three four five"], " • ", 12)).toEqual([" one two", " three four", " five"]);
	});

	it("lists !!, Alt+Enter, Ctrl+L, Ctrl+T, Ctrl+G, and in the full-screen mode its keys", async () => {
		const state = createDisplayState({ mode: "none" });
		const info = {
			appName: "agent",
			version: "1.0.0",
			contextFiles: [],
			skills: [],
			promptTemplates: [],
			extensions: [],
		};
		const inline = text(new StartupHeaderComponent(state, info, false).render(200));
		for (const key of ["!! to run bash", "Alt+Enter", "Ctrl+L", "Ctrl+T", "Ctrl+G"]) expect(inline).toContain(key);
		expect(inline).not.toContain("PgUp");
		const fullscreen = text(
			new StartupHeaderComponent(state, { ...info, isFullscreen: () => true }, false).render(200),
		);
		expect(fullscreen).toContain("PgUp/PgDn or the wheel to scroll");
		expect(fullscreen).toContain("Ctrl+S to search");
	});
});

describe("a block on its own", () => {
	it("expands and collapses with a click until the next Ctrl+O, which applies to every block again", () => {
		const state = createDisplayState();
		const tool = new ToolExecutionComponent(state, "t1", "bash", { command: "seq 1 12" });
		const output = Array.from({ length: 12 }, (_, i) => String(i + 1)).join("\n");
		tool.setResult({ content: [{ type: "text", text: output }], details: undefined }, false);
		const shown = () => tool.render(60).join("\n");
		expect(shown()).toContain("to expand");
		tool.toggleExpanded();
		expect(shown()).not.toContain("to expand");
		// Ctrl+O (expand all, then collapse all) resets it.
		state.toolsExpanded = true;
		tool.resetExpanded();
		expect(shown()).not.toContain("to expand");
		state.toolsExpanded = false;
		tool.resetExpanded();
		expect(shown()).toContain("to expand");
	});

	it("draws !cmd output indented, between blank lines, as the reference does", async () => {
		const state = createDisplayState();
		const bash = new BashExecutionComponent(state, "echo hi", false);
		bash.finish({ output: "hi\n", exitCode: 0, cancelled: false, truncated: false });
		const { lines } = await renderComponents([bash], { columns: 40 });
		expect(lines.slice(2, 6)).toEqual([" $ echo hi", "", " hi", ""]);
	});
});

describe("tool calls", () => {
	it("shows read output with line numbers from the requested offset, collapsed to ten lines", async () => {
		const state = createDisplayState();
		const tool = new ToolExecutionComponent(state, "t1", "read", { path: "/work/project/src/a.ts", offset: 41 });
		const content = Array.from({ length: 15 }, (_, i) => `const line${i} = ${i};`).join("\n");
		tool.setResult({ content: [{ type: "text", text: content }], details: undefined }, false);
		const { lines } = await renderComponents([tool]);
		const all = text(lines);
		expect(all).toContain("read src/a.ts:41");
		expect(all).toMatch(/41 const line0 = 0;/);
		expect(all).toMatch(/50 const line9 = 9;/);
		expect(all).not.toContain("line10");
		expect(all).toContain("... (5 more lines, Ctrl+O to expand)");
	});

	it("shows the whole output once tools are expanded", async () => {
		const state = createDisplayState({ toolsExpanded: true });
		const tool = new ToolExecutionComponent(state, "t1", "read", { path: "a.txt" });
		const content = Array.from({ length: 15 }, (_, i) => `row ${i}`).join("\n");
		tool.setResult({ content: [{ type: "text", text: content }], details: undefined }, false);
		const { lines } = await renderComponents([tool]);
		expect(text(lines)).toMatch(/15 row 14/);
		expect(text(lines)).not.toContain("to expand");
	});

	it("colours an edit diff with line numbers: removed red, added green", async () => {
		const state = createDisplayState();
		const tool = new ToolExecutionComponent(state, "t2", "edit", { path: "/work/project/a.ts" });
		const diff = [" 1 const a = 1;", "-2 const b = 2;", "+2 const b = 3;", " 3 const c = 4;"].join("\n");
		tool.setResult(
			{ content: [{ type: "text", text: "Successfully replaced text" }], details: { diff, firstChangedLine: 2 } },
			false,
		);
		const { lines, raw } = await renderComponents([tool]);
		const all = text(lines);
		expect(all).toContain("edit a.ts:2");
		expect(all).toContain("-2 const b = 2;");
		expect(all).toContain("+2 const b = 3;");
		expect(all).toContain(" 1 const a = 1;");
		// toolDiffRemoved #cc6666 and toolDiffAdded #b5bd68
		expect(raw).toContain("\x1b[38;2;204;102;102m-2 ");
		expect(raw).toContain("\x1b[38;2;181;189;104m+2 ");
		// The changed word is highlighted in reverse video.
		expect(raw).toMatch(/\x1b\[7m3\x1b\[27m/);
	});

	it("shows the last lines of bash output while collapsed, with the count of earlier ones", async () => {
		const state = createDisplayState();
		const tool = new ToolExecutionComponent(state, "t3", "bash", { command: "npm test" });
		const output = Array.from({ length: 12 }, (_, i) => `out ${i + 1}`).join("\n");
		tool.setResult({ content: [{ type: "text", text: output }], details: undefined }, false);
		const { lines } = await renderComponents([tool]);
		const all = text(lines);
		expect(all).toContain("$ npm test");
		expect(all).toContain("... (7 earlier lines, Ctrl+O to expand)");
		expect(all).toContain("out 12");
		expect(all).not.toMatch(/out 7\b/);
	});

	it("paints a running call pending and a failed one in the error colour", async () => {
		const state = createDisplayState();
		const running = new ToolExecutionComponent(state, "t4", "bash", { command: "sleep 1" });
		running.markRunning();
		const failed = new ToolExecutionComponent(state, "t5", "bash", { command: "false" });
		failed.setResult({ content: [{ type: "text", text: "Command exited with code 1" }], details: undefined }, true);
		const { raw } = await renderComponents([running, failed]);
		expect(raw).toContain("\x1b[48;2;40;40;50m"); // toolPendingBg
		expect(raw).toContain("\x1b[48;2;60;40;40m"); // toolErrorBg
	});
});

describe("other transcript entries", () => {
	it("shows a ! command with its output and exit status", async () => {
		const state = createDisplayState();
		const bash = new BashExecutionComponent(state, "ls missing", false);
		bash.appendOutput("ls: missing: No such file\n");
		bash.finish({ output: "ls: missing: No such file\n", exitCode: 2, cancelled: false, truncated: false });
		const { lines } = await renderComponents([bash]);
		expect(text(lines)).toContain("$ ls missing");
		expect(text(lines)).toContain("No such file");
		expect(text(lines)).toContain("(exit 2)");
	});

	it("marks a !! command as not sent to the model", async () => {
		const state = createDisplayState();
		const bash = new BashExecutionComponent(state, "pwd", true);
		bash.finish({ output: "/x", exitCode: 0, cancelled: false, truncated: false });
		const { lines } = await renderComponents([bash]);
		expect(text(lines)).toContain("$$ pwd");
		expect(text(lines)).toContain("(not sent to the model)");
	});

	it("shows notices and the compaction summary label", async () => {
		const state = createDisplayState();
		const { lines } = await renderComponents([
			new NoticeComponent(state, "error", "Error: boom"),
			new NoticeComponent(state, "warning", "careful"),
			new SummaryMessageComponent(state, "compaction", "## Goal\nShip it", 45_000),
		]);
		const all = text(lines);
		expect(all).toContain("Error: boom");
		expect(all).toContain("careful");
		// As the reference draws it: the label, a blank line, the token count with thousands separators.
		expect(all).toMatch(/\[compaction\]\s*\n\s*\n\s*Compacted from 45,000 tokens \(Ctrl\+O to expand\)/);
		expect(all).not.toContain("Ship it");
	});

	it("lists queued steering and follow-up messages with the dequeue hint", async () => {
		const state = createDisplayState();
		const pending = new PendingMessagesComponent(state);
		pending.setQueues(["use tabs"], ["then run the tests"]);
		const { lines } = await renderComponents([pending]);
		const all = text(lines);
		expect(all).toContain("Steering: use tabs");
		expect(all).toContain("Follow-up: then run the tests");
		expect(all).toContain("↳ Alt+Up to edit all queued messages");
	});

	it("draws nothing when no message is queued", async () => {
		const pending = new PendingMessagesComponent(createDisplayState());
		pending.setQueues([], []);
		expect(pending.render(80)).toEqual([]);
	});
});
