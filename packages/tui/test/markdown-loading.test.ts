// The markdown parser (marked) loads on first use, not with the TUI: a terminal app's first frame seldom has
// markdown, and loading marked builds ~100 regular expressions (src/markdown/incremental-lexer.ts).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const TUI_DIST = fileURLToPath(new URL("../dist/index.js", import.meta.url));

/** Runs `body` in a fresh Node process after importing the built TUI; returns its stdout lines. */
function runWithTui(body: string): string[] {
	// The built TUI is an ES module, which requires marked (an ES module too) when it loads it.
	const script = `
		import Module from "node:module";
		const load = Module._load;
		Module._load = function (request, ...rest) {
			if (request === "marked") console.log("loaded marked");
			return load.call(this, request, ...rest);
		};
		const tui = await import(${JSON.stringify(TUI_DIST)});
		console.log("imported");
		${body}
	`;
	const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
	expect(result.status, result.stderr).toBe(0);
	return result.stdout.trim().split("\n");
}

describe("the markdown parser", () => {
	it("is not loaded by importing the TUI, and is by prepareMarkdown()", () => {
		expect(runWithTui(`await tui.prepareMarkdown(); console.log("prepared");`)).toEqual([
			"imported",
			"loaded marked",
			"prepared",
		]);
	});

	it("is required on the first render without prepareMarkdown()", () => {
		const lines = runWithTui(`
			const markdown = new tui.Markdown("# Title\\n\\nSome *text*.", 0, 0, tui.defaultMarkdownTheme());
			console.log(JSON.stringify(markdown.render(40)));
		`);
		expect(lines.slice(0, 2)).toEqual(["imported", "loaded marked"]);
		const rendered = (JSON.parse(lines[2]!) as string[]).join("\n");
		expect(rendered).toContain("Title");
		expect(rendered).not.toContain("# Title");
		expect(rendered).not.toContain("*text*");
	});

	it("renders while prepareMarkdown() is under way", () => {
		const lines = runWithTui(`
			const prepared = tui.prepareMarkdown();
			const markdown = new tui.Markdown("Some *text*.", 0, 0, tui.defaultMarkdownTheme());
			console.log(JSON.stringify(markdown.render(40)));
			await prepared;
			console.log("prepared");
		`);
		expect(lines[0]).toBe("imported");
		expect(lines.filter((line) => line === "loaded marked")).toHaveLength(1);
		expect(lines.at(-1)).toBe("prepared");
		expect(lines.find((line) => line.startsWith("["))).not.toContain("*text*");
	});
});
