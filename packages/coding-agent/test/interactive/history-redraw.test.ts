// The interactive mode on a headless terminal (xterm): what the scrollback holds after Ctrl+O and a resize, the row
// budget on a width change, and the full-screen mode's keys, wheel and search.
import { fauxText, fauxToolCall } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { omittedHistoryText } from "../../src/modes/interactive/transcript.js";
import { createInteractiveHarness, type InteractiveHarness, KEYS } from "../helpers/interactive-harness.js";
import { assistantMessage, userMessage } from "../helpers/session-fixtures.js";

let harness: InteractiveHarness | undefined;
afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
});

const PAGE_UP = "\x1b[5~";
const PAGE_DOWN = "\x1b[6~";
const wheel = (direction: "up" | "down") => `\x1b[<${direction === "up" ? 64 : 65};5;5M`;

/** Screen and scrollback rows, right-trimmed (backgrounds are drawn as spaces). */
function rowsOf(h: InteractiveHarness): string[] {
	return h.screen().map((row) => row.trimEnd());
}

function count(rows: string[], text: string): number {
	return rows.filter((row) => row.includes(text)).length;
}

/** A bash call printing 1..60, its answer, and one more exchange, so the output scrolled off a 20-row screen. */
async function longOutputScrolledOff(h: InteractiveHarness): Promise<void> {
	h.runtime.faux.enqueue(fauxToolCall("bash", { command: "seq 1 60" }), fauxText("Counted."), fauxText("Later."));
	await h.submit("count");
	await h.waitForText("Counted.");
	await h.submit("and then");
	await h.waitForText("Later.");
}

describe("the inline mode's scrollback", () => {
	it("after Ctrl+O holds the whole expanded output, once, and after Ctrl+O again the collapsed form", async () => {
		harness = await createInteractiveHarness({ columns: 80, rows: 20 });
		await longOutputScrolledOff(harness);
		expect(rowsOf(harness)).not.toContain(" 1");
		await harness.press(KEYS.ctrl("o"));
		await harness.waitForText(/^ 1 *$/m);
		const rows = rowsOf(harness);
		const first = rows.indexOf(" 1");
		expect(rows.slice(first, first + 60)).toEqual(Array.from({ length: 60 }, (_, i) => ` ${i + 1}`));
		expect(count(rows, "agent v")).toBe(1);
		expect(count(rows, "Later.")).toBe(1);

		await harness.press(KEYS.ctrl("o"));
		await harness.waitForText("55 earlier lines");
		expect(rowsOf(harness)).not.toContain(" 1");
		expect(count(rowsOf(harness), "Later.")).toBe(1);
	});

	it("after a width change holds every line at the new width, once", async () => {
		harness = await createInteractiveHarness({ columns: 100, rows: 20 });
		const answer =
			"A paragraph long enough to wrap at sixty columns but not at a hundred, so the resize has to wrap it again.";
		harness.runtime.faux.enqueue(fauxText(answer));
		await harness.submit("explain");
		await harness.waitForText(/to\s+wrap\s+it\s+again\./);
		harness.terminal.resize(60, 20);
		await harness.waitForText(/^ A paragraph long enough to wrap at sixty columns but not *$/m);
		const rows = rowsOf(harness);
		for (const row of rows) expect(row.length, row).toBeLessThanOrEqual(60);
		expect(count(rows, "A paragraph long enough")).toBe(1);
		expect(count(rows, "explain")).toBe(1);
		// The wrapped rows keep the reply's indent.
		const at = rows.findIndex((row) => row.startsWith(" A paragraph"));
		expect(rows[at + 1]).toBe(" at a hundred, so the resize has to wrap it again.");
	});

	it("a width change drops a long live transcript's oldest messages beyond the row budget, counting them", async () => {
		harness = await createInteractiveHarness({ columns: 100, rows: 20 });
		for (let i = 0; i < 1500; i++) {
			harness.mode.transcript.appendMessage(
				i % 2 === 0 ? userMessage(`question ${i}`) : assistantMessage(`answer ${i}`),
			);
		}
		harness.mode.tui.renderNow();
		const before = harness.mode.transcript.children.length;
		harness.terminal.resize(80, 20);
		await harness.waitForText(/earlier messages? not shown/);
		const children = harness.mode.transcript.children.length;
		expect(children).toBeLessThan(before);
		const dropped = before - (children - 1);
		expect(harness.screen()).toContain(` ${omittedHistoryText(dropped)}`);
		expect(harness.screen().join("\n")).toContain("answer 1499");
	});
});

describe("the full-screen mode", () => {
	it("scrolls with PgUp/PgDn and the wheel, searches with Ctrl+S, and expands a block on a click", async () => {
		harness = await createInteractiveHarness({ columns: 80, rows: 16, mode: { tuiMode: "fullscreen" } });
		const h = harness;
		expect(h.terminal.emulator.buffer.active.type).toBe("alternate");
		h.runtime.faux.enqueue(fauxText("needle answer"));
		await h.submit("first");
		await h.waitForText("needle answer");
		await longOutputScrolledOff(h);
		// No scrollback on the alternate screen: the first answer is out of view.
		expect(h.viewport().join("\n")).not.toContain("needle answer");
		expect(h.screen()).toHaveLength(16);

		await h.press(PAGE_UP);
		expect(h.viewport().join("\n")).not.toContain("Later.");
		await h.press(PAGE_DOWN);
		await h.press(PAGE_DOWN);
		await h.press(PAGE_DOWN);
		expect(h.viewport().join("\n")).toContain("Later.");
		await h.press(wheel("up"));
		expect(h.viewport().join("\n")).not.toContain("Later.");
		for (let notch = 0; notch < 5; notch++) await h.press(wheel("down"));
		expect(h.viewport().join("\n")).toContain("Later.");

		await h.press(KEYS.ctrl("s"));
		await h.type("needle");
		expect(h.viewport().join("\n")).toContain("needle answer");
		expect(h.viewport().join("\n")).toMatch(/Find > needle.*1\/1/);
		await h.press(KEYS.escape);
		expect(h.viewport().join("\n")).not.toContain("Find >");
		// The editor has the keys again.
		await h.type("typed");
		expect(h.mode.editor.getText()).toBe("typed");

		// Down to the end, then up the wheel until the collapsed bash block's command is in view.
		for (let notch = 0; notch < 20; notch++) await h.press(wheel("down"));
		let row = -1;
		for (let notch = 0; notch < 10 && row === -1; notch++) {
			await h.press(wheel("up"));
			row = h.viewport().findIndex((line) => line.includes("$ seq 1 60"));
		}
		expect(row).toBeGreaterThanOrEqual(0);
		await h.press(`\x1b[<0;10;${row + 1}M`);
		expect(h.viewport().some((line) => /^ 1 +[│┃]?$/.test(line))).toBe(true);
		// A click is not a key: the editor text is unchanged.
		expect(h.mode.editor.getText()).toBe("typed");
	});

	it("leaves the alternate screen when it quits", async () => {
		harness = await createInteractiveHarness({ columns: 80, rows: 16, mode: { tuiMode: "fullscreen" } });
		await harness.dispose();
		await harness.terminal.flush();
		expect(harness.terminal.emulator.buffer.active.type).toBe("normal");
	});
});

describe("a prompt's failure", () => {
	it("shows the core's message, then the hint the CLI gives for it", async () => {
		harness = await createInteractiveHarness({
			mode: {
				describeFailure: (message) => (message.startsWith("No API key") ? "Set EXAMPLE_API_KEY." : undefined),
			},
		});
		harness.mode.notifyPromptFailure(new Error("No API key found for example.\n\nUse /login."));
		await harness.waitForText("Set EXAMPLE_API_KEY.");
		const text = harness.screen().join("\n");
		expect(text).toContain("Error: No API key found for example.");
		expect(text.indexOf("Error: No API key")).toBeLessThan(text.indexOf("Set EXAMPLE_API_KEY."));
	});
});
