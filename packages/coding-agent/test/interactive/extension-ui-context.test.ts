// ctx.ui in the interactive mode: dialogs in the editor's place (with a countdown for timeouts), notices,
// footer statuses, widgets, the terminal title, the editor's text, custom components and themes.
import { CachedComponent, matchesKey } from "@agent/tui";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveExtensionUI } from "../../src/modes/interactive/extension-ui.js";
import { createInteractiveHarness, type InteractiveHarness, KEYS } from "../helpers/interactive-harness.js";

let harness: InteractiveHarness | undefined;
afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
});

async function setup(): Promise<{ h: InteractiveHarness; ui: InteractiveExtensionUI }> {
	harness = await createInteractiveHarness();
	return { h: harness, ui: new InteractiveExtensionUI(harness.mode) };
}

describe("dialogs", () => {
	it("select shows the options in the editor's place and resolves with the choice", async () => {
		const { h, ui } = await setup();
		const answer = ui.select("Deploy where?", ["staging", "production"]);
		await h.waitForText("Deploy where?");
		await h.press(KEYS.down);
		await h.press(KEYS.enter);
		expect(await answer).toBe("production");
		await h.waitForText(/─+\n\s*\n─+/);
	});

	it("confirm resolves false on Esc, input returns the typed text", async () => {
		const { h, ui } = await setup();
		const confirmed = ui.confirm("Delete?", "This removes 3 files");
		await h.waitForText("Delete? — This removes 3 files");
		await h.press(KEYS.escape);
		expect(await confirmed).toBe(false);
		const typed = ui.input("Branch name", "feature/…");
		await h.waitForText("Branch name");
		await h.type("fix/footer");
		await h.press(KEYS.enter);
		expect(await typed).toBe("fix/footer");
	});

	it("counts a timeout down in the title and resolves with the default when it runs out", async () => {
		const { h, ui } = await setup();
		const answer = ui.select("Pick fast", ["a", "b"], { timeout: 1500 });
		await h.waitForText("Pick fast (2s)");
		await h.waitForText("Pick fast (1s)");
		expect(await answer).toBeUndefined();
	});

	it("closes from code through the abort signal", async () => {
		const { h, ui } = await setup();
		const controller = new AbortController();
		const answer = ui.input("Waiting", undefined, { signal: controller.signal });
		await h.waitForText("Waiting");
		controller.abort();
		expect(await answer).toBeUndefined();
		expect(h.mode.hasSelector()).toBe(false);
	});

	it("editor returns multi-line text", async () => {
		const { h, ui } = await setup();
		const text = ui.editor("Commit message", "feat: ");
		await h.waitForText("Commit message");
		await h.type("footer");
		await h.press(KEYS.enter);
		expect(await text).toBe("feat: footer");
	});
});

describe("fire-and-forget calls", () => {
	it("notify, setStatus, setWidget and setTitle show up where they belong", async () => {
		const { h, ui } = await setup();
		ui.notify("Build finished", "info");
		ui.notify("Lint failed", "error");
		ui.setStatus("ci", "ci: green");
		ui.setWidget("todo", ["TODO: write docs", "TODO: ship"]);
		ui.setWidget("below", ["under the editor"], { placement: "belowEditor" });
		ui.setTitle("custom title");
		await h.waitForText("ci: green");
		const screen = h.screen().join("\n");
		expect(screen).toContain("Build finished");
		expect(screen).toContain("Lint failed");
		expect(screen.indexOf("TODO: ship")).toBeLessThan(screen.indexOf("under the editor"));
		expect(h.terminal.title).toBe("custom title");
		ui.setWidget("todo", undefined);
		ui.setStatus("ci", undefined);
		await h.waitForText("under the editor");
		expect(h.screen().join("\n")).not.toContain("TODO: write docs");
		expect(h.screen().join("\n")).not.toContain("ci: green");
	});

	it("reads and writes the editor's text, and pastes into it", async () => {
		const { h, ui } = await setup();
		ui.setEditorText("hello");
		expect(ui.getEditorText()).toBe("hello");
		ui.pasteToEditor(" world");
		expect(h.mode.editor.getText()).toBe("hello world");
	});

	it("switches themes by name and reports unknown ones", async () => {
		const { h, ui } = await setup();
		expect(ui.getAllThemes().map((theme) => theme.name)).toEqual(["dark", "light"]);
		expect(ui.setTheme("light")).toEqual({ success: true });
		expect(ui.theme.name).toBe("light");
		expect(ui.setTheme("neon").success).toBe(false);
		expect(h.runtime.settingsManager.getTheme()).not.toBe("light");
	});

	it("toggles tool expansion", async () => {
		const { ui } = await setup();
		ui.setToolsExpanded(true);
		expect(ui.getToolsExpanded()).toBe(true);
	});
});

describe("custom components", () => {
	class Counter extends CachedComponent {
		count = 0;
		constructor(private readonly done: (value: number) => void) {
			super();
		}
		handleInput(data: string): void {
			if (matchesKey(data, "enter")) this.done(this.count);
			else {
				this.count++;
				this.markChanged();
			}
		}
		protected renderLines(): string[] {
			return [`count is ${this.count}`];
		}
	}

	it("takes the editor's place and resolves with what it passes to done", async () => {
		const { h, ui } = await setup();
		const result = ui.custom<number>((_tui, _theme, _keys, done) => new Counter(done));
		await h.waitForText("count is 0");
		await h.type("xx");
		await h.waitForText("count is 2");
		await h.press(KEYS.enter);
		expect(await result).toBe(2);
		expect(h.mode.hasSelector()).toBe(false);
	});

	it("can be shown as an overlay", async () => {
		const { h, ui } = await setup();
		const result = ui.custom<number>((_tui, _theme, _keys, done) => new Counter(done), { overlay: true });
		await h.waitForText("count is 0");
		await h.press(KEYS.enter);
		expect(await result).toBe(0);
	});
});
