// The interactive mode in-process on a headless terminal, over a scripted provider: what a person types and
// what they then see, and what the session records.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type FauxRequest, fauxError, fauxText, fauxToolCall } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { NOTHING_TO_EXPORT_ERROR } from "../../src/core/export-html/export-session.js";
import { escapeHtml } from "../../src/core/export-html/html-text.js";
import type { BashResult } from "../../src/core/session-runtime/events.js";
import { NOTHING_TO_COMPACT_YET_TEXT } from "../../src/modes/interactive/commands/session-commands.js";
import { BASH_ALREADY_RUNNING_TEXT } from "../../src/modes/interactive/input-controller.js";
import { readPage } from "../export-html/page-reader.js";
import { deferred } from "../helpers/deferred.js";
import { createInteractiveHarness, type InteractiveHarness, KEYS } from "../helpers/interactive-harness.js";
import { waitFor } from "../helpers/interactive-terminal.js";
import { messageText } from "../helpers/message-text.js";

let harness: InteractiveHarness | undefined;
afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
});

function lastUserText(request: FauxRequest): string {
	const user = [...request.context.messages].reverse().find((message) => message.role === "user");
	return user ? messageText(user) : "";
}

/** Submits "start"; the reply shows `firstText` and is held until `resolve()`, then `nextText` answers. */
async function startHeldRun(h: InteractiveHarness, firstText: string, nextText: string): Promise<{ resolve(): void }> {
	const gate = deferred();
	h.runtime.faux.enqueue(fauxText(firstText, { holdUntil: gate.promise }), fauxText(nextText));
	await h.submit("start");
	await h.waitForText(firstText);
	return gate;
}

/** Two questions answered "answer one" and "answer two", then `/tree` opened. */
async function openTreeAfterTwoAnswers(h: InteractiveHarness): Promise<void> {
	h.runtime.faux.enqueue(fauxText("answer one"), fauxText("answer two"));
	await h.submit("question one");
	await h.waitForText("answer one");
	await h.submit("question two");
	await h.waitForText("answer two");
	await h.submit("/tree");
}

describe("a prompt and its answer", () => {
	it("shows the prompt, the tool call with its output, the streamed answer and the footer figures", async () => {
		harness = await createInteractiveHarness({ files: { "notes.txt": "alpha\nbeta\n" } });
		harness.runtime.faux.enqueue(
			fauxToolCall("read", { path: "notes.txt" }, { usage: { input: 1200, output: 30 } }),
			fauxText("The notes list **alpha** and beta.", { usage: { input: 1300, output: 12 } }),
		);
		await harness.submit("what is in notes.txt?");
		await harness.waitForText("The notes list alpha and beta.");
		const screen = harness.screen().join("\n");
		expect(screen).toContain("what is in notes.txt?");
		expect(screen).toContain("read notes.txt");
		expect(screen).toMatch(/1 alpha/);
		await harness.waitForText(/↑2\.5k ↓42/);
	});

	it("shows a failure inline as an error", async () => {
		harness = await createInteractiveHarness({ settings: { retry: { enabled: false } } });
		harness.runtime.faux.enqueue({ errorMessage: "invalid request: too long" });
		await harness.submit("hi");
		await harness.waitForText("Error: invalid request: too long");
		expect(harness.runtime.session.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
	});
});

describe("retries", () => {
	it("counts down to the next attempt, and Esc cancels the wait", async () => {
		harness = await createInteractiveHarness({ settings: { retry: { baseDelayMs: 30_000 } } });
		harness.runtime.faux.enqueue({ errorMessage: "503 service unavailable" });
		await harness.submit("hi");
		await harness.waitForText(/Retrying \(1\/3\) in 30s\.\.\. \(Esc to cancel\)/);
		await harness.press(KEYS.escape);
		await harness.waitForText("Retry cancelled");
		await waitFor(() => !harness?.mode.status.isActive, "the countdown to stop");
		expect(harness.runtime.faux.requests).toHaveLength(1);
	});

	it("retries a transient failure and shows the answer", async () => {
		harness = await createInteractiveHarness({ settings: { retry: { baseDelayMs: 1 } } });
		harness.runtime.faux.enqueue({ errorMessage: "overloaded" }, fauxText("second time lucky"));
		await harness.submit("hi");
		await harness.waitForText("second time lucky");
		expect(harness.runtime.faux.requests).toHaveLength(2);
	});
});

describe("messages queued while the agent works", () => {
	it("Enter steers: the message waits above the editor, then reaches the model", async () => {
		harness = await createInteractiveHarness();
		const gate = await startHeldRun(harness, "working on it", "steered answer");
		await harness.submit("use tabs instead");
		await harness.waitForText("Steering: use tabs instead");
		gate.resolve();
		await harness.waitForText("steered answer");
		expect(harness.screen().join("\n")).not.toContain("Steering:");
		expect(lastUserText(harness.runtime.faux.requests[1] as FauxRequest)).toBe("use tabs instead");
	});

	it("Alt+Enter queues a follow-up", async () => {
		harness = await createInteractiveHarness();
		const gate = await startHeldRun(harness, "first", "after follow-up");
		await harness.type("and then the docs");
		await harness.press(KEYS.altEnter);
		await harness.waitForText("Follow-up: and then the docs");
		gate.resolve();
		await harness.waitForText("after follow-up");
		expect(lastUserText(harness.runtime.faux.requests[1] as FauxRequest)).toBe("and then the docs");
	});

	it("Esc aborts the run and puts the queued messages back into the editor", async () => {
		harness = await createInteractiveHarness();
		harness.runtime.faux.enqueue(fauxText("a long answer", { holdUntil: new Promise(() => {}) }));
		await harness.submit("start");
		await harness.waitForText("a long answer");
		await harness.submit("queued one");
		await harness.waitForText("Steering: queued one");
		await harness.press(KEYS.escape);
		await harness.waitForText("Operation aborted");
		await harness.waitForText("Restored 1 queued message to editor");
		expect(harness.mode.editor.getText()).toBe("queued one");
		expect(harness.screen().join("\n")).not.toContain("Steering:");
	});

	it("Alt+Up takes the queue back into the editor, above what is typed", async () => {
		harness = await createInteractiveHarness();
		const gate = await startHeldRun(harness, "busy", "done");
		await harness.submit("first note");
		await harness.type("draft");
		await harness.press(KEYS.altUp);
		await harness.waitForText("Restored 1 queued message to editor");
		expect(harness.mode.editor.getText()).toBe("first note\n\ndraft");
		gate.resolve();
		await harness.waitForText("Working", 100).catch(() => {});
	});

	it("Alt+Up with nothing queued says so", async () => {
		harness = await createInteractiveHarness();
		await harness.press(KEYS.altUp);
		await harness.waitForText("No queued messages to restore");
		expect(harness.mode.editor.getText()).toBe("");
	});
});

describe("keys", () => {
	it("Ctrl+C clears the editor; a second one quits", async () => {
		harness = await createInteractiveHarness();
		await harness.type("some text");
		await harness.press(KEYS.ctrl("c"));
		expect(harness.mode.editor.getText()).toBe("");
		await harness.press(KEYS.ctrl("c"));
		expect(await harness.exit).toBe(0);
	});

	it("Ctrl+D quits on an empty editor and deletes forward otherwise", async () => {
		harness = await createInteractiveHarness();
		await harness.type("ab");
		await harness.press(KEYS.left);
		await harness.press(KEYS.ctrl("d"));
		expect(harness.mode.editor.getText()).toBe("a");
		await harness.press(KEYS.ctrl("a"));
		await harness.press(KEYS.ctrl("k"));
		await harness.press(KEYS.ctrl("d"));
		expect(await harness.exit).toBe(0);
	});

	it("Shift+Tab cycles the thinking level and the footer follows", async () => {
		harness = await createInteractiveHarness();
		await harness.press(KEYS.shiftTab);
		await harness.waitForText("Thinking level: high");
		await harness.waitForText("faux-1 • high");
		expect(harness.runtime.settingsManager.getDefaultThinkingLevel()).toBe("high");
	});

	it("Shift+Tab on a model without reasoning says it does not think", async () => {
		harness = await createInteractiveHarness({ models: [{ reasoning: false }] });
		await harness.press(KEYS.shiftTab);
		await harness.waitForText("Current model does not support thinking");
		expect(harness.runtime.session.thinkingLevel).toBe("off");
	});

	it("Ctrl+P switches to the next model, or says there is only one", async () => {
		harness = await createInteractiveHarness({ models: [{ id: "faux-1" }, { id: "faux-2" }] });
		await harness.press(KEYS.ctrl("p"));
		await harness.waitForText("Switched to faux-2 (thinking: medium)");
		expect(harness.runtime.session.model?.id).toBe("faux-2");
		await harness.dispose();
		harness = await createInteractiveHarness();
		await harness.press(KEYS.ctrl("p"));
		await harness.waitForText("Only one model available");
		expect(harness.runtime.session.model?.id).toBe("faux-1");
	});

	it("Ctrl+O expands tool output and Ctrl+T hides thinking", async () => {
		harness = await createInteractiveHarness();
		const output = Array.from({ length: 8 }, (_, i) => `line-${i + 1}`).join("\n");
		harness.runtime.faux.enqueue(fauxToolCall("bash", { command: `printf '${output.replace(/\n/g, "\\n")}'` }), {
			content: [
				{ type: "thinking", thinking: "pondering deeply" },
				{ type: "text", text: "ok" },
			],
		});
		await harness.submit("run it");
		await harness.waitForText("pondering deeply");
		expect(harness.screen().join("\n")).not.toContain("line-1\n");
		await harness.press(KEYS.ctrl("o"));
		await harness.waitForText(/line-1\s*\n/);
		await harness.press(KEYS.ctrl("t"));
		await harness.waitForText("Thinking...");
		expect(harness.screen().join("\n")).not.toContain("pondering deeply");
		expect(harness.runtime.settingsManager.getHideThinkingBlock()).toBe(true);
	});
});

/** Waits until no `!` command block says it is still running (its shell exited and its output is complete). */
async function waitForBashToFinish(h: InteractiveHarness): Promise<void> {
	await waitFor(
		async () => {
			await h.press("");
			return !h.screen().join("\n").includes("Running... (");
		},
		() => `the bash block to finish:\n${h.screen().join("\n")}`,
	);
}

describe("bash from the editor", () => {
	it("!cmd shows the output and records it for the model; !!cmd keeps it out of the context", async () => {
		harness = await createInteractiveHarness();
		await harness.submit("!echo from-bang");
		await harness.waitForText("from-bang");
		// Streamed output is on screen before the shell has exited: the block's end is the sign it is done.
		await waitForBashToFinish(harness);
		await harness.submit("!!echo hidden-bang");
		expect(harness.screen().join("\n")).not.toContain(BASH_ALREADY_RUNNING_TEXT);
		await harness.waitForText("(not sent to the model)");
		harness.runtime.faux.enqueue(fauxText("seen"));
		await harness.submit("what ran?");
		await harness.waitForText("seen");
		const sent = JSON.stringify(harness.runtime.faux.requests[0]?.context.messages);
		expect(sent).toContain("Ran `echo from-bang`");
		expect(sent).not.toContain("hidden-bang");
	});

	it("refuses a second command while the first runs, and accepts it at once when the first's block has ended", async () => {
		harness = await createInteractiveHarness();
		const first = deferred<BashResult>();
		const session = harness.runtime.session;
		const realExecuteBash = session.executeBash.bind(session);
		let calls = 0;
		session.executeBash = (command, onChunk, options) => {
			if (++calls > 1) return realExecuteBash(command, onChunk, options);
			onChunk?.("first output\n");
			return first.promise;
		};
		await harness.submit("!first");
		await harness.waitForText("first output");
		await harness.submit("!!echo second");
		await harness.waitForText(BASH_ALREADY_RUNNING_TEXT);
		expect(harness.screen().join("\n")).not.toContain("$$ echo second");

		first.resolve({ output: "first output\n", exitCode: 3, cancelled: false, truncated: false });
		await harness.waitForText("(exit 3)");
		await harness.submit("!!echo second");
		expect(harness.screen().join("\n")).toContain("$$ echo second");
		await harness.waitForText("(not sent to the model)");
		expect(calls).toBe(2);
	});
});

describe("slash commands", () => {
	it("/compact compacts a short session, and says 'Nothing to compact yet' (no failure) for a lone prompt", async () => {
		harness = await createInteractiveHarness();
		harness.runtime.faux.enqueue(fauxError("400 invalid_request_error: bad request"));
		await harness.submit("lone question");
		await harness.waitForText("bad request");
		await harness.submit("/compact");
		await harness.waitForText(NOTHING_TO_COMPACT_YET_TEXT);
		expect(harness.screen().join("\n")).not.toContain("Compaction failed");

		harness.runtime.faux.enqueue(fauxText("an answer"), fauxText("## Goal\nThe summary"));
		await harness.submit("another question");
		await harness.waitForText("an answer");
		await harness.submit("/compact");
		await harness.waitForText(/Compacted from [\d,]+ tokens/);
		expect(harness.runtime.sessionManager.getEntries().at(-1)).toMatchObject({
			type: "compaction",
			summary: "## Goal\nThe summary",
		});
	});

	it("/name names the session, /session shows its figures", async () => {
		harness = await createInteractiveHarness();
		await harness.submit("/name release prep");
		await harness.waitForText("Session name set: release prep");
		await harness.waitForText("• release prep");
		await harness.submit("/session");
		await harness.waitForText("Session Info");
		expect(harness.screen().join("\n")).toContain("Name: release prep");
	});

	it("/new starts a new session and clears the transcript", async () => {
		harness = await createInteractiveHarness();
		harness.runtime.faux.enqueue(fauxText("old answer"));
		await harness.submit("old question");
		await harness.waitForText("old answer");
		const before = harness.runtime.session.sessionId;
		await harness.submit("/new");
		await harness.waitForText("✓ New session started");
		expect(harness.runtime.session.sessionId).not.toBe(before);
		expect(harness.viewport().join("\n")).not.toContain("old answer");
	});

	it("/model opens the selector, which filters as you type", async () => {
		harness = await createInteractiveHarness({ models: [{ id: "faux-1" }, { id: "faux-2" }] });
		await harness.submit("/model");
		await harness.waitForText("Select model");
		await harness.type("2");
		await harness.press(KEYS.enter);
		await harness.waitForText("Model: faux-2");
		expect(harness.runtime.session.model?.id).toBe("faux-2");
	});

	it("/model <exact id> switches without a selector", async () => {
		harness = await createInteractiveHarness({ models: [{ id: "faux-1" }, { id: "faux-2" }] });
		await harness.submit("/model faux/faux-2");
		await harness.waitForText("Model: faux-2");
		expect(harness.runtime.session.model?.id).toBe("faux-2");
	});

	it("/tree moves to an earlier user message and puts it into the editor", async () => {
		harness = await createInteractiveHarness({ settings: { branchSummary: { skipPrompt: true } } });
		await openTreeAfterTwoAnswers(harness);
		await harness.waitForText("Session tree");
		await harness.type("question two");
		await harness.press(KEYS.enter);
		await harness.waitForText("Navigated to selected point");
		expect(harness.mode.editor.getText()).toBe("question two");
		const branch = harness.runtime.sessionManager.getBranch();
		expect(branch[branch.length - 1]?.type).toBe("message");
		expect(harness.runtime.session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	it("Esc Esc on an empty editor opens the tree; selecting the leaf says so", async () => {
		harness = await createInteractiveHarness();
		harness.runtime.faux.enqueue(fauxText("only answer"));
		await harness.submit("only question");
		await harness.waitForText("only answer");
		const leaf = harness.runtime.sessionManager.getLeafId();
		await harness.press(KEYS.escape);
		await harness.press(KEYS.escape);
		await harness.waitForText("Session tree");
		await harness.press(KEYS.enter);
		await harness.waitForText("Already at this point");
		expect(harness.runtime.sessionManager.getLeafId()).toBe(leaf);
	});

	it("/tree asks whether to summarize the branch left behind", async () => {
		harness = await createInteractiveHarness();
		await openTreeAfterTwoAnswers(harness);
		await harness.type("answer one");
		await harness.press(KEYS.enter);
		await harness.waitForText("Summarize branch?");
		expect(harness.screen().join("\n")).toContain("Summarize with custom prompt");
		await harness.press(KEYS.enter);
		await harness.waitForText("Navigated to selected point");
		expect(harness.runtime.sessionManager.getLeafEntry()?.type).toBe("message");
	});

	it("/settings applies a change at once and saves it", async () => {
		harness = await createInteractiveHarness();
		await harness.submit("/settings");
		await harness.waitForText("Hide thinking");
		for (let i = 0; i < 4; i++) await harness.press(KEYS.down);
		await harness.press(KEYS.enter);
		expect(harness.mode.state.hideThinking).toBe(true);
		expect(harness.runtime.settingsManager.getHideThinkingBlock()).toBe(true);
	});

	it("/settings previews themes as you move and saves the one chosen", async () => {
		harness = await createInteractiveHarness();
		await harness.submit("/settings");
		await harness.waitForText("Theme");
		for (let i = 0; i < 10; i++) await harness.press(KEYS.down);
		await harness.press(KEYS.enter);
		await harness.press(KEYS.down);
		expect(harness.mode.state.theme.name).toBe("light");
		await harness.press(KEYS.enter);
		expect(harness.runtime.settingsManager.getTheme()).toBe("light");
	});

	it("/hotkeys lists the key bindings, including user overrides", async () => {
		harness = await createInteractiveHarness({ keybindings: { cycleModelForward: "alt+m" } });
		await harness.submit("/hotkeys");
		await harness.waitForText("Keyboard shortcuts");
		expect(harness.screen().join("\n")).toMatch(/Alt\+M\s*│\s*Next model/);
	});

	it("keybindings.json changes what a key does in the editor", async () => {
		harness = await createInteractiveHarness({
			models: [{ id: "faux-1" }, { id: "faux-2" }],
			keybindings: { cycleModelForward: "alt+m", clear: [] },
		});
		await harness.press(KEYS.ctrl("p"));
		await harness.press("\x1bm");
		await harness.waitForText("Switched to faux-2");
		expect(harness.runtime.session.model?.id).toBe("faux-2");
		await harness.type("kept");
		await harness.press(KEYS.ctrl("c"));
		expect(harness.mode.editor.getText()).toBe("kept");
	});
});

describe("performance invariants", () => {
	it("a streamed token renders only the reply being written, whatever the transcript above it", async () => {
		harness = await createInteractiveHarness();
		for (let i = 0; i < 20; i++) harness.runtime.faux.enqueue(fauxText(`answer ${i}`));
		for (let i = 0; i < 20; i++) {
			await harness.submit(`question ${i}`);
			await harness.waitForText(`answer ${i}`);
		}
		const earlier = harness.mode.transcript.children.slice(0, 30);
		let renders = 0;
		for (const child of earlier) {
			const original = child.render.bind(child);
			child.render = (width: number) => {
				renders++;
				return original(width);
			};
		}
		const gate = deferred();
		harness.runtime.faux.enqueue({
			content: [{ type: "text", text: "streaming ".repeat(40) }],
			chunkSize: 4,
			holdUntil: gate.promise,
		});
		await harness.submit("stream now");
		await harness.waitForText("streaming streaming");
		gate.resolve();
		await waitFor(() => !harness?.runtime.session.isStreaming, "the run to end");
		expect(renders).toBe(0);
	});

	it("leaves no timer running once the agent is idle", async () => {
		const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
		harness = await createInteractiveHarness();
		const baseline = timers();
		harness.runtime.faux.enqueue(fauxText("done", { chunkDelayMs: 5 }));
		await harness.submit("go");
		await harness.waitForText("done");
		await waitFor(() => !harness?.mode.status.isActive, "the spinner to stop");
		await waitFor(() => timers() <= baseline, `timers back to ${baseline} (now ${timers()})`, 2000);
		expect(timers()).toBeLessThanOrEqual(baseline);
	});
});

describe("/export", () => {
	it("says there is nothing to export before the first exchange, and writes nothing", async () => {
		harness = await createInteractiveHarness();
		await harness.submit("/export out.html");
		await harness.waitForText(NOTHING_TO_EXPORT_ERROR);
		expect(existsSync(join(harness.runtime.cwd, "out.html"))).toBe(false);
	});

	it("writes the session's page, opening on the session's own leaf, with its system prompt", async () => {
		harness = await createInteractiveHarness();
		harness.runtime.faux.enqueue(fauxText("answer one"));
		await harness.submit("question one");
		await harness.waitForText("answer one");
		await harness.submit("/export out.html");
		await harness.waitForText("Session exported to: out.html");
		const page = readPage(readFileSync(join(harness.runtime.cwd, "out.html"), "utf8"));
		const { session } = harness.runtime;
		expect(page.data.nodes[page.data.leaf]?.id).toBe(session.sessionManager.getLeafId());
		const promptStart = session.systemPrompt.split("\n")[0] ?? "";
		expect(promptStart.length).toBeGreaterThan(10);
		expect(page.shell).toContain(`<pre class="system-prompt">${escapeHtml(promptStart)}`);
	});
});
