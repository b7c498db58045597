import { describe, expect, it } from "vitest";
import { parseBuiltinCommand } from "../../src/modes/interactive/commands/builtin-commands.js";
import { BUILTIN_COMMANDS } from "../../src/modes/interactive/commands/command-table.js";

const parse = (text: string) => {
	const parsed = parseBuiltinCommand(text, BUILTIN_COMMANDS);
	return parsed ? { name: parsed.command.name, args: parsed.args } : undefined;
};

describe("built-in slash commands", () => {
	it("exist for every built-in command of the reference", () => {
		const names = BUILTIN_COMMANDS.map((command) => command.name);
		for (const name of [
			"settings",
			"model",
			"scoped-models",
			"export",
			"share",
			"copy",
			"name",
			"session",
			"tree",
			"fork",
			"compact",
			"new",
			"resume",
			"reload",
			"login",
			"logout",
			"hotkeys",
			"changelog",
			"quit",
			"debug",
		]) {
			expect(names).toContain(name);
		}
	});

	it("match only the whole input for commands without arguments", () => {
		expect(parse("/settings")).toEqual({ name: "settings", args: "" });
		expect(parse("  /quit  ")).toEqual({ name: "quit", args: "" });
		expect(parse("/quit now")).toBeUndefined();
		expect(parse("/settingsx")).toBeUndefined();
	});

	it("take the rest of the input as arguments where the command has one", () => {
		expect(parse("/model sonnet")).toEqual({ name: "model", args: "sonnet" });
		expect(parse("/name  my   session ")).toEqual({ name: "name", args: "my   session" });
		expect(parse("/compact keep the API design")).toEqual({ name: "compact", args: "keep the API design" });
	});

	it("match /export for any input starting with it, the first word after it being the path", () => {
		expect(parse("/export")).toEqual({ name: "export", args: "" });
		expect(parse("/export out.html")).toEqual({ name: "export", args: "out.html" });
		expect(parse("/exportfoo")).toEqual({ name: "export", args: "" });
	});

	it("leave other slash input to the prompt pipeline (templates, skills, extension commands)", () => {
		expect(parse("/review src/a.ts")).toBeUndefined();
		expect(parse("/skill:deploy now")).toBeUndefined();
		expect(parse("hello /model")).toBeUndefined();
	});

	it("treat /exit as /quit but keep it out of the autocomplete", () => {
		expect(parse("/exit")).toEqual({ name: "exit", args: "" });
		expect(BUILTIN_COMMANDS.find((command) => command.name === "exit")?.hidden).toBe(true);
		expect(BUILTIN_COMMANDS.find((command) => command.name === "debug")?.hidden).toBe(true);
	});
});
