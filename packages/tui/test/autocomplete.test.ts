import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CombinedAutocompleteProvider, fuzzyFilter, type SlashCommand } from "@agent/tui";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEditorUI, keys } from "./helpers/editor-ui.js";

let root: string;

function write(path: string, content = "") {
	const full = join(root, path);
	mkdirSync(dirname(full), { recursive: true });
	writeFileSync(full, content);
}

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "tui-autocomplete-"));
	write(".gitignore", "node_modules/\n/dist\n*.log\n!src/keep.log\n");
	write("src/.gitignore", "generated/\n");
	write("src/main.ts");
	write("src/util/helpers.ts");
	write("src/keep.log");
	write("src/generated/types.ts");
	write("README.md");
	write(".env");
	write("secret.log");
	write("node_modules/lib/index.js");
	write("dist/out.js");
	write("my docs/notes.md");
	write(".git/config");
});

afterAll(() => {
	rmSync(root, { recursive: true, force: true });
});

const commands: SlashCommand[] = [
	{ name: "help", description: "Show help" },
	{
		name: "model",
		description: "Choose a model",
		getArgumentCompletions: (prefix) =>
			[
				{ value: "anthropic/claude", label: "anthropic/claude" },
				{ value: "openai/gpt", label: "openai/gpt" },
			].filter((item) => item.value.startsWith(prefix)),
	},
	{ name: "quit", description: "Quit" },
];

function suggest(text: string) {
	const provider = new CombinedAutocompleteProvider(commands, root);
	return provider.getSuggestions([text], 0, text.length);
}

describe("@ file references", () => {
	it("lists project files, honouring .gitignore files at every level", () => {
		const paths = suggest("@")?.items.map((item) => item.label) ?? [];
		expect(paths).toEqual(
			expect.arrayContaining(["src/", "src/main.ts", "src/util/helpers.ts", "README.md", ".env", "src/keep.log"]),
		);
		for (const ignored of [
			"node_modules/",
			"dist/",
			"secret.log",
			"src/generated/",
			"src/generated/types.ts",
			".git/",
		]) {
			expect(paths).not.toContain(ignored);
		}
		expect(paths.some((path) => path.startsWith(".git/"))).toBe(false);
	});

	it("fuzzy-matches the query, best match first", () => {
		const result = suggest("look at @hlp");
		expect(result?.prefix).toBe("@hlp");
		expect(result?.items[0]).toEqual({ value: "@src/util/helpers.ts", label: "src/util/helpers.ts" });
	});

	it("quotes paths with spaces", () => {
		const result = suggest("@notes");
		expect(result?.items[0].value).toBe('@"my docs/notes.md"');
	});

	it("needs the @ at a word start", () => {
		expect(suggest("mail me at user@ex")).toBeNull();
	});
});

describe("slash commands", () => {
	it("filters command names", () => {
		const result = suggest("/mo");
		expect(result?.items.map((item) => item.label)).toEqual(["/model"]);
		expect(result?.items[0].description).toBe("Choose a model");
	});

	it("completes arguments after the command name", () => {
		const result = suggest("/model op");
		expect(result).toEqual({ items: [{ value: "openai/gpt", label: "openai/gpt" }], prefix: "op" });
	});

	it("only applies on the first line", () => {
		const provider = new CombinedAutocompleteProvider(commands, root);
		expect(provider.getSuggestions(["text", "/mo"], 1, 3)).toBeNull();
	});
});

describe("path completion", () => {
	it("lists directory entries matching the typed segment, directories first", () => {
		const provider = new CombinedAutocompleteProvider(commands, root);
		const result = provider.getForceFileSuggestions(["open ./s"], 0, 8);
		expect(result?.prefix).toBe("./s");
		expect(result?.items.map((item) => item.value)).toEqual(["./src/", "./secret.log"]);
		const nested = provider.getForceFileSuggestions(["src/u"], 0, 5);
		expect(nested?.items.map((item) => item.value)).toEqual(["src/util/"]);
	});

	it("shows hidden entries only when the segment starts with a dot", () => {
		const provider = new CombinedAutocompleteProvider(commands, root);
		expect(provider.getForceFileSuggestions([""], 0, 0)?.items.some((item) => item.value === ".env")).toBe(false);
		expect(provider.getForceFileSuggestions(["."], 0, 1)?.items.map((item) => item.value)).toContain(".env");
	});
});

describe("in the editor", () => {
	async function editorWithProvider() {
		const ui = await createEditorUI(60, 20);
		ui.editor.setAutocompleteProvider(new CombinedAutocompleteProvider(commands, root));
		return ui;
	}

	it("opens the command list when / starts the message and applies the choice with Enter", async () => {
		const ui = await editorWithProvider();
		await ui.type("/");
		expect(ui.editor.isShowingAutocomplete()).toBe(true);
		expect(ui.terminal.getViewport().join("\n")).toContain("→ /help");
		await ui.type("qu");
		expect(ui.terminal.getViewport().join("\n")).toContain("→ /quit");
		await ui.press(keys.enter);
		expect(ui.editor.getText()).toBe("/quit ");
		expect(ui.submitted).toEqual([]);
		expect(ui.editor.isShowingAutocomplete()).toBe(false);
	});

	it("chains a command chosen with Tab into its argument completions", async () => {
		const ui = await editorWithProvider();
		await ui.type("/mod");
		await ui.press(keys.tab);
		expect(ui.editor.getText()).toBe("/model ");
		expect(ui.editor.isShowingAutocomplete()).toBe(true);
		await ui.press(keys.down, keys.tab);
		expect(ui.editor.getText()).toBe("/model openai/gpt");
	});

	it("completes @ references, keeping the list open after a directory", async () => {
		const ui = await editorWithProvider();
		await ui.type("read @src/ut");
		expect(ui.editor.isShowingAutocomplete()).toBe(true);
		await ui.press(keys.tab);
		expect(ui.editor.getText()).toBe("read @src/util/");
		expect(ui.editor.isShowingAutocomplete()).toBe(true);
		await ui.press(keys.tab);
		expect(ui.editor.getText()).toBe("read @src/util/helpers.ts ");
		expect(ui.editor.isShowingAutocomplete()).toBe(false);
	});

	it("completes a single path match directly on Tab", async () => {
		const ui = await editorWithProvider();
		await ui.type("cat READ");
		await ui.press(keys.tab);
		expect(ui.editor.getText()).toBe("cat README.md");
	});

	it("closes the list with Escape without changing the text", async () => {
		const ui = await editorWithProvider();
		await ui.type("/he");
		await ui.press(keys.escape);
		expect(ui.editor.isShowingAutocomplete()).toBe(false);
		expect(ui.editor.getText()).toBe("/he");
	});

	it("hides the hardware cursor marker while the list is open", async () => {
		const ui = await editorWithProvider();
		await ui.type("/");
		expect(ui.terminal.takeWrites()).not.toContain("\x1b_pi:c");
		expect(ui.terminal.getViewport().join("")).not.toContain("pi:c");
	});
});

describe("fuzzyFilter", () => {
	it("ranks word-start and substring matches above scattered ones", () => {
		const items = ["src/fuzzy.ts", "f-u-z-z-y", "other", "fuzzy-finder.md"];
		expect(fuzzyFilter(items, "fuzzy", (s) => s)).toEqual(["fuzzy-finder.md", "src/fuzzy.ts", "f-u-z-z-y"]);
		expect(fuzzyFilter(items, "", (s) => s)).toEqual(items);
		expect(fuzzyFilter(items, "src fuz", (s) => s)).toEqual(["src/fuzzy.ts"]);
	});
});
