import { describe, expect, it } from "vitest";
import { AssistantMessageComponent } from "../../src/modes/interactive/components/assistant-message.js";
import { ToolExecutionComponent } from "../../src/modes/interactive/components/tool-execution.js";
import { UserMessageComponent } from "../../src/modes/interactive/components/user-message.js";
import { DARK_THEME } from "../../src/modes/interactive/theme/builtin-themes.js";
import { ThemeRegistry } from "../../src/modes/interactive/theme/theme-registry.js";
import { validateThemeDefinition } from "../../src/modes/interactive/theme/theme-schema.js";
import { assistantMessage, createDisplayState } from "../helpers/interactive-display.js";
import { renderComponents } from "../helpers/interactive-terminal.js";

function customTheme(overrides: Record<string, unknown> = {}, name = "ocean"): Record<string, unknown> {
	return { name, vars: { ...DARK_THEME.vars }, colors: { ...DARK_THEME.colors }, ...overrides };
}

describe("theme files", () => {
	it("accept hex, palette indexes, variables and the terminal default", () => {
		const result = validateThemeDefinition(
			customTheme({ colors: { ...DARK_THEME.colors, accent: "#123", error: 196, text: "", success: "green" } }),
		);
		expect(result.errors).toEqual([]);
		expect(result.colors?.accent).toEqual({ kind: "rgb", r: 0x11, g: 0x22, b: 0x33 });
		expect(result.colors?.error).toEqual({ kind: "index", index: 196 });
		expect(result.colors?.text).toEqual({ kind: "default" });
	});

	it("report every problem with the token it concerns", () => {
		const colors: Record<string, unknown> = { ...DARK_THEME.colors, accent: "#12345g", error: 300, border: "nope" };
		delete colors.mdLink;
		delete colors.toolErrorBg;
		const result = validateThemeDefinition({ name: "broken", vars: DARK_THEME.vars, colors });
		expect(result.colors).toBeUndefined();
		expect(result.errors).toEqual([
			'colors.accent: "#12345g" is not a #rrggbb colour',
			'colors.border: unknown variable "nope"',
			"colors.error: 300 is not a 256-colour index (0-255)",
			"missing colour tokens: mdLink, toolErrorBg",
		]);
	});

	it("report variable cycles instead of looping", () => {
		const result = validateThemeDefinition(
			customTheme({ vars: { a: "b", b: "a" }, colors: { ...DARK_THEME.colors, accent: "a" } }),
		);
		expect(result.errors.some((error) => error.includes("variable cycle"))).toBe(true);
	});

	it("keep a theme with tokens this version does not know, with a warning", () => {
		const result = validateThemeDefinition(customTheme({ colors: { ...DARK_THEME.colors, sparkle: "#ffffff" } }));
		expect(result.colors).toBeDefined();
		expect(result.warnings).toEqual(["unknown colour tokens ignored: sparkle"]);
	});

	it("are listed after the built-in themes; broken ones are left out and reported with their path", () => {
		const registry = new ThemeRegistry(
			[
				{ name: "ocean", path: "/t/ocean.json", definition: customTheme() },
				{ name: "broken", path: "/t/broken.json", definition: { colors: {} } },
				{ name: "dark", path: "/t/dark.json", definition: customTheme({}, "dark") },
			],
			"truecolor",
		);
		expect(registry.names()).toEqual(["dark", "light", "ocean"]);
		expect(registry.get("ocean")?.sourcePath).toBe("/t/ocean.json");
		expect(registry.issues.map((issue) => issue.message)).toEqual([
			expect.stringMatching(/^\/t\/broken\.json: missing colour tokens: accent, /),
			'/t/dark.json: theme "dark" has the name of a built-in theme and is ignored',
		]);
	});

	it("fall back to dark for an unknown theme name, saying so", () => {
		const registry = new ThemeRegistry([], "truecolor");
		const { theme, warning } = registry.resolve("solarized");
		expect(theme.name).toBe("dark");
		expect(warning).toBe('Theme "solarized" not found; using dark.');
	});
});

describe("colour depth", () => {
	it("maps true colours to the nearest palette entry on 256-colour terminals", () => {
		const registry = new ThemeRegistry([], "256");
		expect(registry.get("dark")?.fg("error", "x")).toMatch(/^\x1b\[38;5;\d+mx\x1b\[39m$/);
	});

	it("uses the 16 ANSI colours on terminals that have only those, for foreground and background", () => {
		const theme = new ThemeRegistry([], "16").get("dark");
		const fg = theme?.fg("error", "x") ?? "";
		const bg = theme?.bg("toolErrorBg", "x") ?? "";
		expect(fg).toMatch(/^\x1b\[(3[0-7]|9[0-7])mx\x1b\[39m$/);
		expect(bg).toMatch(/^\x1b\[(4[0-7]|10[0-7])mx\x1b\[49m$/);
		// The error colour stays a red.
		expect(["\x1b[31mx\x1b[39m", "\x1b[91mx\x1b[39m"]).toContain(fg);
	});

	it("writes no colour escape at all with NO_COLOR", async () => {
		const state = createDisplayState({ mode: "none" });
		const tool = new ToolExecutionComponent(state, "t", "edit", { path: "a.ts" });
		tool.setResult(
			{ content: [{ type: "text", text: "ok" }], details: { diff: "-1 const a = 1;\n+1 const a = 2;" } },
			false,
		);
		const reply = new AssistantMessageComponent(state);
		reply.update(
			assistantMessage([{ type: "text", text: "```ts\nconst x: number = 1;\n```\n**bold** and `code`" }], {
				model: "m",
				stopReason: "error",
				errorMessage: "boom",
			}),
		);
		const { raw, lines } = await renderComponents([new UserMessageComponent(state, "hi"), reply, tool]);
		expect(lines.join("\n")).toContain("const x: number = 1;");
		// No SGR colour parameter (30–37, 38;…, 39, 40–47, 48;…, 49, 90–97, 100–107) anywhere in the output.
		const colourSgr = /\x1b\[(?:[\d;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[\d;]*)?m/;
		expect(raw).not.toMatch(colourSgr);
	});
});
