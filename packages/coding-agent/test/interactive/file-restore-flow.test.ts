// Restoring files from the interactive mode (docs/checkpoints.md): `/tree` and `/fork` ask whether the files go
// back too, `/undo` restores the last turn's, and a file changed by hand is shown with its diff before anything is
// overwritten.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxText, fauxToolCall } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { RESTORE_FILES_TITLE } from "../../src/modes/interactive/commands/file-restore.js";
import { createInteractiveHarness, type InteractiveHarness, KEYS } from "../helpers/interactive-harness.js";
import { waitFor } from "../helpers/interactive-terminal.js";

/** Turns and restores can take a while on a busy machine. */
const WAIT_MS = 20_000;

let harness: InteractiveHarness | undefined;
afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
});

/** "question one" writes a.txt; "question two" changes it and writes b.txt. */
async function twoTurnsWithFiles(h: InteractiveHarness): Promise<void> {
	h.runtime.faux.enqueue(
		fauxToolCall("write", { path: "a.txt", content: "one\n" }),
		fauxText("answer one"),
		fauxToolCall("write", { path: "a.txt", content: "two\n" }),
		fauxToolCall("write", { path: "b.txt", content: "b\n" }),
		fauxText("answer two"),
	);
	await h.submit("question one");
	await h.waitForText("answer one", WAIT_MS);
	await h.submit("question two");
	await h.waitForText("answer two", WAIT_MS);
}

const read = (h: InteractiveHarness, path: string) => readFileSync(join(h.runtime.cwd, path), "utf8");
const exists = (h: InteractiveHarness, path: string) => existsSync(join(h.runtime.cwd, path));

/** How many times `text` is on the screen (scrollback included). */
const countOnScreen = (h: InteractiveHarness, text: string) => h.screen().join("\n").split(text).length - 1;

describe("restoring files in the interactive mode", () => {
	it("/tree offers to restore the files of the chosen point, and does", async () => {
		harness = await createInteractiveHarness({ settings: { branchSummary: { skipPrompt: true } } });
		const h = harness;
		await twoTurnsWithFiles(h);
		await h.submit("/tree");
		await h.waitForText("Session tree", WAIT_MS);
		await h.type("question two");
		await h.press(KEYS.enter);
		await h.waitForText(RESTORE_FILES_TITLE, WAIT_MS);
		await h.waitForText("Restore files (1 file to restore, 1 to delete)", WAIT_MS);
		await h.press(KEYS.down);
		await h.press(KEYS.enter);
		await h.waitForText("Restored a.txt; deleted b.txt", WAIT_MS);
		expect(read(h, "a.txt")).toBe("one\n");
		expect(exists(h, "b.txt")).toBe(false);
		expect(h.mode.editor.getText()).toBe("question two");
	});

	it("/tree keeps the files when asked to", async () => {
		harness = await createInteractiveHarness({ settings: { branchSummary: { skipPrompt: true } } });
		const h = harness;
		await twoTurnsWithFiles(h);
		await h.submit("/tree");
		await h.waitForText("Session tree", WAIT_MS);
		await h.type("question two");
		await h.press(KEYS.enter);
		await h.waitForText(RESTORE_FILES_TITLE, WAIT_MS);
		await h.press(KEYS.enter);
		await h.waitForText("Navigated to selected point", WAIT_MS);
		expect(read(h, "a.txt")).toBe("two\n");
		expect(exists(h, "b.txt")).toBe(true);
	});

	it("/fork restores the files as they were before the message", async () => {
		harness = await createInteractiveHarness();
		const h = harness;
		await twoTurnsWithFiles(h);
		await h.submit("/fork");
		await h.waitForText("Fork from message", WAIT_MS);
		await h.type("question two");
		await h.press(KEYS.enter);
		await h.waitForText(RESTORE_FILES_TITLE, WAIT_MS);
		await h.press(KEYS.down);
		await h.press(KEYS.enter);
		await h.waitForText("Branched to new session", WAIT_MS);
		await h.waitForText("Restored a.txt; deleted b.txt", WAIT_MS);
		expect(read(h, "a.txt")).toBe("one\n");
		expect(exists(h, "b.txt")).toBe(false);
	});

	it("/undo shows a file changed by hand with its diff and overwrites it only when told to", async () => {
		harness = await createInteractiveHarness();
		const h = harness;
		await twoTurnsWithFiles(h);
		writeFileSync(join(h.runtime.cwd, "b.txt"), "mine\n");
		await h.submit("/undo");
		await h.waitForText("Changed outside the agent:", WAIT_MS);
		await h.waitForText("+1 mine", WAIT_MS);
		await h.waitForText("1 file changed outside the agent since it last recorded it. Overwrite?", WAIT_MS);
		// Keep them: nothing is written, so a second /undo finds the same conflict.
		await h.press(KEYS.enter);
		await h.submit("/undo");
		await waitFor(() => countOnScreen(h, "Changed outside the agent:") === 2, "a second conflict notice", WAIT_MS);
		expect(read(h, "b.txt")).toBe("mine\n");
		expect(read(h, "a.txt")).toBe("two\n");
		// Overwrite them.
		await h.waitForText(/Overwrite\?/, WAIT_MS);
		await h.press(KEYS.down);
		await h.press(KEYS.enter);
		await h.waitForText("Restored a.txt; deleted b.txt", WAIT_MS);
		expect(read(h, "a.txt")).toBe("one\n");
		expect(exists(h, "b.txt")).toBe(false);
	});
});
