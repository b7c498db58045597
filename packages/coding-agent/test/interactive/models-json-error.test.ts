// docs/models.md "Errors": a broken models.json is shown in the interactive UI as `models.json error: …` at start-up, and
// again after a re-read (/model, /scoped-models, /reload) only when the error is new or changed.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NoticeComponent } from "../../src/modes/interactive/components/notice.js";
import { ModelsJsonErrorTracker, modelsJsonErrorText } from "../../src/modes/interactive/models-json-error.js";
import { createInteractiveHarness, type InteractiveHarness, KEYS } from "../helpers/interactive-harness.js";

describe("which models.json errors are shown", () => {
	it("shows an error the first time it is seen, as `models.json error: <error>`", () => {
		const tracker = new ModelsJsonErrorTracker();
		expect(tracker.noticeFor("Failed to parse models.json: x\n\nFile: /a/models.json")).toBe(
			"models.json error: Failed to parse models.json: x\n\nFile: /a/models.json",
		);
	});

	it("shows nothing while there is no error", () => {
		const tracker = new ModelsJsonErrorTracker();
		expect(tracker.noticeFor(undefined)).toBeUndefined();
		expect(tracker.noticeFor(undefined)).toBeUndefined();
	});

	it("does not repeat an unchanged error, and shows a changed one", () => {
		const tracker = new ModelsJsonErrorTracker();
		tracker.noticeFor("first");
		expect(tracker.noticeFor("first")).toBeUndefined();
		expect(tracker.noticeFor("second")).toBe(modelsJsonErrorText("second"));
		expect(tracker.noticeFor("second")).toBeUndefined();
	});

	it("forgets a fixed error, so the same breakage later is shown again", () => {
		const tracker = new ModelsJsonErrorTracker();
		tracker.noticeFor("broken");
		expect(tracker.noticeFor(undefined)).toBeUndefined();
		expect(tracker.noticeFor("broken")).toBe(modelsJsonErrorText("broken"));
	});
});

const UNPARSABLE = '{"providers": {';
const INVALID_SCHEMA = JSON.stringify({ providers: { local: { baseUrl: 42 } } });
const VALID = JSON.stringify({ providers: {} });

let harness: InteractiveHarness | undefined;
afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
});

function shownModelsJsonErrors(h: InteractiveHarness): NoticeComponent[] {
	return h.mode.transcript.children.filter(
		(child): child is NoticeComponent =>
			child instanceof NoticeComponent && child.getText().startsWith("models.json error: "),
	);
}

describe("the interactive mode", () => {
	it("shows a start-up error as a warning, once per new error across /model, /scoped-models and /reload", async () => {
		harness = await createInteractiveHarness({ modelsJson: UNPARSABLE });
		const h = harness;
		const modelsJsonPath = join(h.runtime.agentDir, "models.json");
		await h.waitForText("models.json error: Failed to parse models.json: ");
		const [startup] = shownModelsJsonErrors(h);
		expect(startup?.kind).toBe("warning");
		expect(startup?.getText()).toBe(`models.json error: ${h.runtime.modelRegistry.getError()}`);
		expect(startup?.getText()).toContain(`File: ${modelsJsonPath}`);
		expect(h.screen().join("\n")).not.toContain("Warning: Failed to parse");

		// The same broken file, read again by /model: nothing new.
		await h.submit("/model");
		await h.waitForText("Select model");
		await h.press(KEYS.escape);
		expect(shownModelsJsonErrors(h)).toHaveLength(1);

		// Broken differently: /scoped-models reads it and shows the new error.
		writeFileSync(modelsJsonPath, INVALID_SCHEMA);
		await h.submit("/scoped-models");
		await h.waitForText("models.json error: Invalid models.json schema:");
		await h.press(KEYS.escape);
		expect(shownModelsJsonErrors(h)).toHaveLength(2);

		// Fixed: /model shows no error; broken again the first way, /reload shows it again.
		writeFileSync(modelsJsonPath, VALID);
		await h.submit("/model");
		await h.waitForText("Select model");
		await h.press(KEYS.escape);
		expect(h.runtime.modelRegistry.getError()).toBeUndefined();
		expect(shownModelsJsonErrors(h)).toHaveLength(2);
		writeFileSync(modelsJsonPath, UNPARSABLE);
		await h.submit("/reload");
		await h.waitForText(/error: Failed to parse[\s\S]*error: Invalid[\s\S]*error: Failed to parse/);
		expect(shownModelsJsonErrors(h).map((notice) => notice.getText().split(":")[1])).toEqual([
			" Failed to parse models.json",
			" Invalid models.json schema",
			" Failed to parse models.json",
		]);
	});
});
